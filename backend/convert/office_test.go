package convert

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"vika/backend/convert/converttest"
	"vika/backend/message"
	"vika/backend/sandbox"
)

// deckSlides is the slide deck the tests write: each slide's words are
// its own, so the page a word lands on tells which slide it came from.
var deckSlides = [][]string{
	{"Glycolysis overview", "Hexokinase phosphorylates glucose into glucose six phosphate.", "Phosphofructokinase commits the pathway."},
	{"Pyruvate fate", "Aerobic cells oxidise pyruvate through pyruvate dehydrogenase.", "Anaerobic muscle reduces pyruvate into lactate."},
	{"Krebs cycle", "Citrate synthase condenses acetyl coenzyme with oxaloacetate.", "Each turn yields three NADH molecules."},
	{"Electron transport", "Complex four reduces molecular oxygen into water.", "Proton gradients drive ATP synthase rotation."},
	{"Regulation", "Insulin stimulates glycogen synthesis in liver cells.", "Glucagon triggers glycogenolysis during fasting."},
}

// longDeck is a 40-slide deck, each slide's words its own.
var longDeck = func() [][]string {
	var out [][]string
	for i := range 40 {
		n := fmt.Sprintf("%02d", i+1)
		out = append(out, []string{"Lecture part " + n, "Marker" + n + " kinetics" + n + " equilibrium" + n + " spectra" + n + ".",
			"Second line about enzyme" + n + " and substrate" + n + "."})
	}
	return out
}()

// sheetPages is the Word file the tests write, two pages.
var sheetPages = [][]string{
	{"Exercise sheet four", "Explain why hexokinase has a low Michaelis constant for glucose.", "Compute the free energy of ATP hydrolysis under cellular conditions."},
	{"Answers", "Glucokinase in liver hepatocytes tolerates high glucose concentrations.", "Standard free energy equals minus thirty kilojoules per mole."},
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// fidelity measures pages against the units (slides or pages) written:
// the share of the written words found in the PDF's text (recall), and
// the share of units whose words all sit on the page of the same number
// (mapping).
func fidelity(units [][]string, pages []string) (recall, mapping float64) {
	all := map[string]bool{}
	for _, p := range pages {
		for _, w := range words(p) {
			all[w] = true
		}
	}
	var found, total, mapped int
	for i, u := range units {
		on := map[string]bool{}
		if i < len(pages) {
			for _, w := range words(pages[i]) {
				on[w] = true
			}
		}
		whole := true
		for _, w := range words(strings.Join(u, " ")) {
			total++
			if all[w] {
				found++
			}
			whole = whole && on[w]
		}
		if whole {
			mapped++
		}
	}
	return float64(found) / float64(total), float64(mapped) / float64(len(units))
}

// TestOfficeFidelity measures the two routes of an Office file on a
// pptx and a docx LibreOffice wrote from documents made here: MuPDF's
// Office handler and LibreOffice. LibreOffice must keep every word and
// one page per slide or page; the numbers are docs/formats.md's.
func TestOfficeFidelity(t *testing.T) {
	soffice := converttest.Soffice(t)
	profile := t.TempDir()
	files := []struct {
		name  string
		units [][]string
		data  []byte
	}{
		{"deck.pptx", deckSlides, converttest.Save(t, soffice, profile, converttest.FlatDeck(deckSlides), "fodp", "pptx")},
		{"sheet.docx", sheetPages, converttest.Save(t, soffice, profile, converttest.FlatText(sheetPages), "fodt", "docx")},
		{"deck.odp", deckSlides, converttest.Save(t, soffice, profile, converttest.FlatDeck(deckSlides), "fodp", "odp")},
		{"long.pptx", longDeck, converttest.Save(t, soffice, profile, converttest.FlatDeck(longDeck), "fodp", "pptx")},
	}
	w := worker(t)
	withOffice := &Converter{Worker: w, Limits: lim, Office: &Office{Path: FindOffice("", os.Getenv)}}
	without := &Converter{Worker: w, Limits: lim}
	ctx := context.Background()
	for _, f := range files {
		for _, route := range []struct {
			name string
			c    *Converter
		}{{"LibreOffice", withOffice}, {"MuPDF", without}} {
			res, err := route.c.ToPDF(ctx, f.name, f.data)
			if route.name == "MuPDF" && strings.HasSuffix(f.name, ".odp") {
				if !errors.Is(err, ErrNeedsOffice) {
					t.Errorf("%s without LibreOffice: %v, want ErrNeedsOffice", f.name, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s by %s: %v", f.name, route.name, err)
			}
			pages := pageTexts(t, res.PDF)
			recall, mapping := fidelity(f.units, pages)
			if route.name == "LibreOffice" && strings.Contains(f.name, "deck") && bytes.Contains(res.PDF, []byte("/Outlines")) {
				t.Errorf("%s: LibreOffice's PDF of a deck has bookmarks (Slide 1, Slide 2...)", f.name)
			}
			t.Logf("%-10s %-11s %d units -> %d pages, word recall %.3f, units on their own page %.2f, %v",
				f.name, route.name, len(f.units), len(pages), recall, mapping, res.Took.Round(time.Millisecond))
			if route.name == "LibreOffice" && (recall < 1 || mapping < 1 || len(pages) != len(f.units)) {
				t.Errorf("%s by LibreOffice: recall %.3f, mapping %.2f, %d pages; want 1, 1, %d", f.name, recall, mapping, len(pages), len(f.units))
			}
			if route.name == "MuPDF" && recall < 0.95 {
				t.Errorf("%s by MuPDF's handler: word recall %.3f", f.name, recall)
			}
		}
	}
}

// TestOfficeHostile: LibreOffice's run is bounded. A ZIP bomb inside a
// Word file ends within the time limit, killed with its whole process
// group when it runs over; a macro bound to the document's opening never
// runs (skipped when the same file in a profile at the lowest macro
// security does not run it either: the check could not fail then);
// nothing is left running.
func TestOfficeHostile(t *testing.T) {
	soffice := converttest.Soffice(t)
	ctx := context.Background()

	t.Run("macro", func(t *testing.T) {
		dir := t.TempDir()
		marker := filepath.Join(dir, "macro-ran")
		doc := converttest.MacroText(marker, []string{"A harmless looking exercise sheet."})
		// Control: LibreOffice at the lowest security runs it.
		low := filepath.Join(dir, "low", "user")
		os.MkdirAll(low, 0o700)
		os.WriteFile(filepath.Join(low, "registrymodifications.xcu"), []byte(strings.Replace(strings.Replace(profile,
			"<value>3</value>", "<value>0</value>", 1), "<value>true</value></prop></item>\n<item oor:path=\"/org.openoffice.Office.Common/Security/Scripting\"><prop oor:name=\"BlockUntrustedRefererLinks\"",
			"<value>false</value></prop></item>\n<item oor:path=\"/org.openoffice.Office.Common/Security/Scripting\"><prop oor:name=\"BlockUntrustedRefererLinks\"", 1)), 0o600)
		converttest.Save(t, soffice, filepath.Join(dir, "low"), doc, "fodt", "pdf")
		_, err := os.Stat(marker)
		controlRan := err == nil
		t.Logf("control, lowest macro security: the macro ran: %v", controlRan)
		os.Remove(marker)

		c := &Converter{Worker: worker(t), Limits: lim, Office: &Office{Path: soffice}}
		odt := converttest.Save(t, soffice, t.TempDir(), doc, "fodt", "odt")
		if _, err := c.ToPDF(ctx, "sheet.odt", odt); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("the document's macro ran during Vika's conversion")
		}
		if !controlRan {
			// Said as a skip, not a pass: without a control that runs the
			// macro, its absence here proves nothing of Vika's profile.
			t.Skip("the control did not run the macro either: this LibreOffice runs no document macro in a headless conversion, so the check cannot tell")
		}
	})

	t.Run("bomb", func(t *testing.T) {
		o := &Office{Path: soffice, Timeout: 20 * time.Second, MemoryBytes: 1 << 30}
		c := &Converter{Worker: worker(t), Limits: lim, Office: o}
		start := time.Now()
		res, err := c.ToPDF(ctx, "bomb.docx", bomb())
		took := time.Since(start)
		t.Logf("ZIP bomb (1 GiB inflated) in LibreOffice: %v after %v", err, took.Round(time.Millisecond))
		if err == nil {
			t.Logf("LibreOffice converted it: %d bytes of PDF", len(res.PDF))
		} else if code := message.Of(err).Code; code != message.OfficeFailed {
			t.Errorf("code %s, want %s", code, message.OfficeFailed)
		}
		if took > 30*time.Second {
			t.Errorf("the bomb held LibreOffice %v, past its 20 s limit", took)
		}
	})

	t.Run("timeout", func(t *testing.T) {
		deck := converttest.Save(t, soffice, t.TempDir(), converttest.FlatDeck(deckSlides), "fodp", "pptx")
		o := &Office{Path: soffice, Timeout: 300 * time.Millisecond}
		c := &Converter{Worker: worker(t), Limits: lim, Office: o}
		start := time.Now()
		_, err := c.ToPDF(ctx, "deck.pptx", deck)
		if !errors.Is(err, sandbox.ErrProgramTimeout) || message.Of(err).Code != message.OfficeFailed {
			t.Fatalf("a conversion past its time: %v, want the timeout", err)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("killing LibreOffice took %v", took)
		}
		time.Sleep(200 * time.Millisecond)
		if left := officeProcesses(t); len(left) > 0 {
			t.Errorf("LibreOffice processes left after the kill: %v", left)
		}
	})
}

// TestOfficeLinks: a document whose picture is linked from a web address
// makes LibreOffice fetch it (the control, a plain conversion, shows the
// request arrive), but not in Vika's conversion: not with its network
// namespace, nor with its profile alone (the network left on).
func TestOfficeLinks(t *testing.T) {
	soffice := converttest.Soffice(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.NotFound(w, r)
	}))
	defer srv.Close()
	flat := converttest.LinkedImage(srv.URL + "/beacon.png")
	odt := converttest.Save(t, soffice, t.TempDir(), flat, "fodt", "odt")
	hits.Store(0)
	converttest.Save(t, soffice, t.TempDir(), odt, "odt", "pdf")
	control := hits.Load()
	t.Logf("control, a plain conversion: %d requests for the linked picture", control)
	if control == 0 {
		t.Fatal("the control fetched nothing: this check could not fail")
	}
	for _, o := range []*Office{{Path: soffice}, {Path: soffice, withNetwork: true}} {
		hits.Store(0)
		c := &Converter{Worker: worker(t), Limits: lim, Office: o}
		if _, err := c.ToPDF(context.Background(), "sheet.odt", odt); err != nil {
			t.Fatal(err)
		}
		if n := hits.Load(); n != 0 {
			t.Errorf("Vika's conversion (network left on: %v) fetched the linked picture %d times", o.withNetwork, n)
		}
	}
}

// officeProcesses lists the soffice processes whose profile is one of
// Vika's temporary directories.
func officeProcesses(t *testing.T) []string {
	t.Helper()
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), "soffice") && strings.Contains(string(b), "vika-office-") {
			out = append(out, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// TestOfficeWaitCancelled: an add waiting for LibreOffice's turn (another
// file converting) stops waiting when it is cancelled.
func TestOfficeWaitCancelled(t *testing.T) {
	o := &Office{Path: "/nonexistent/soffice"}
	o.once.Do(func() { o.turn = make(chan struct{}, 1) })
	o.turn <- struct{}{} // another conversion holds the turn
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := o.ToPDF(ctx, []byte("x"), Format{ID: "odt"}, lim)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Errorf("waiting for the turn: %v after %v", err, time.Since(start))
	}
}
