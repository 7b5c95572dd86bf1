package pdf

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"vika/backend/message"
	"vika/backend/testpdf"
)

// lecture is a two-page text PDF whose lines the tests highlight.
func lecture() []byte {
	return testpdf.Pages(
		testpdf.Page{Heading: "Entropy and coding", Body: "Shannon defined the entropy of a source as the average information of its symbols. " +
			"A code whose mean length reaches the entropy is optimal. Huffman codes come within one bit of it."},
		testpdf.Page{Heading: "Channel capacity", Body: "The capacity of a noisy channel bounds the rate of reliable transmission. " +
			"Below capacity the error probability can be made as small as wanted."},
	)
}

// linesOf returns the lines of page n of data, read by MuPDF.
func linesOf(t *testing.T, data []byte, n int) []Line {
	t.Helper()
	d, err := Open(data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.Page(n)
	if err != nil {
		t.Fatal(err)
	}
	return p.Lines()
}

// readBack opens data and returns every page's annotations and the
// text of the lines under each highlight (MuPDF).
func readBack(t *testing.T, data []byte) ([]Annotation, []string) {
	t.Helper()
	d, err := Open(data, Limits{})
	if err != nil {
		t.Fatalf("the copy does not open: %v", err)
	}
	defer d.Close()
	var all []Annotation
	var under []string
	for n := 1; n <= d.NumPages(); n++ {
		anns, err := d.Annotations(n)
		if err != nil {
			t.Fatal(err)
		}
		p, err := d.Page(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range anns {
			if a.Kind == AnnotHighlight {
				var parts []string
				for _, b := range a.Boxes {
					parts = append(parts, linesIn(&p, b))
				}
				under = append(under, strings.Join(parts, " "))
			}
		}
		all = append(all, anns...)
	}
	return all, under
}

func nearBox(a, b Rect, tol float64) bool {
	return math.Abs(a.X0-b.X0) <= tol && math.Abs(a.Y0-b.Y0) <= tol && math.Abs(a.X1-b.X1) <= tol && math.Abs(a.Y1-b.Y1) <= tol
}

func nearColor(a, b [3]float64) bool {
	return math.Abs(a[0]-b[0]) < 0.01 && math.Abs(a[1]-b[1]) < 0.01 && math.Abs(a[2]-b[2]) < 0.01
}

// TestAnnotateReadBack writes two highlights (one of two lines, with a
// comment) and a note into a copy of a real PDF, then reads the copy with
// MuPDF: each annotation on its page, of its kind, over its boxes, in its
// colour and with its text, and the text under each highlight is the
// text highlighted. The original bytes open the copy (an incremental
// update).
func TestAnnotateReadBack(t *testing.T) {
	data := lecture()
	l1, l2 := linesOf(t, data, 1), linesOf(t, data, 2)
	if len(l1) < 3 || len(l2) < 2 {
		t.Fatalf("lines: %d and %d", len(l1), len(l2))
	}
	yellow, green, blue := [3]float64{1, 0.9, 0.2}, [3]float64{0.4, 0.9, 0.5}, [3]float64{0.3, 0.5, 1}
	anns := []Annotation{
		{Page: 1, Kind: AnnotHighlight, Boxes: []Rect{l1[1].BBox, l1[2].BBox}, Color: yellow, Text: "Définition à retenir — exam"},
		{Page: 2, Kind: AnnotHighlight, Boxes: []Rect{l2[0].BBox}, Color: green},
		{Page: 2, Kind: AnnotNote, Boxes: []Rect{{X0: 400, Y0: 100, X1: 420, Y1: 120}}, Color: blue, Text: "Compare with\nthe Shannon limit."},
	}
	out, err := Annotate(data, anns, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, data) {
		t.Errorf("the copy does not start with the original bytes (not an incremental update)")
	}
	got, under := readBack(t, out)
	if len(got) != len(anns) {
		t.Fatalf("read back %d annotations, want %d: %+v", len(got), len(anns), got)
	}
	for i, want := range anns {
		g := got[i]
		if g.Page != want.Page || g.Kind != want.Kind || g.Text != want.Text || !nearColor(g.Color, want.Color) {
			t.Errorf("annotation %d: page %d kind %s text %q color %v, want page %d kind %s text %q color %v",
				i, g.Page, g.Kind, g.Text, g.Color, want.Page, want.Kind, want.Text, want.Color)
		}
		if want.Kind == AnnotNote {
			// MuPDF bounds a note's icon 1 pt inside its rectangle.
			if len(g.Boxes) != 1 || !nearBox(g.Boxes[0], Rect{400, 100, 420, 120}, 1.5) {
				t.Errorf("note rectangle %v, want the 20 pt icon at 400,100", g.Boxes)
			}
			continue
		}
		if len(g.Boxes) != len(want.Boxes) {
			t.Fatalf("annotation %d: %d quads, want %d", i, len(g.Boxes), len(want.Boxes))
		}
		for k := range want.Boxes {
			if !nearBox(g.Boxes[k], want.Boxes[k], 0.5) {
				t.Errorf("annotation %d quad %d = %v, want %v", i, k, g.Boxes[k], want.Boxes[k])
			}
		}
	}
	wantUnder := []string{l1[1].Text + " " + l1[2].Text, l2[0].Text}
	for i := range wantUnder {
		if under[i] != wantUnder[i] {
			t.Errorf("text under highlight %d = %q, want %q", i, under[i], wantUnder[i])
		}
	}
	checkPdftotext(t, out, []int{1, 2}, [][]Rect{anns[0].Boxes, anns[1].Boxes}, wantUnder)
	checkPdfjs(t, out, anns)
}

// checkPdftotext reads the words under each highlight's boxes with
// poppler's pdftotext -bbox, a second reader of the copy.
func checkPdftotext(t *testing.T, data []byte, pages []int, boxes [][]Rect, want []string) {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed: the second reader's check is skipped")
	}
	path := filepath.Join(t.TempDir(), "copy.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for i, n := range pages {
		html, err := exec.Command(bin, "-bbox", "-f", strconv.Itoa(n), "-l", strconv.Itoa(n), path, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext: %v", err)
		}
		var words []string
		for _, w := range popplerWords(string(html)) {
			for _, b := range boxes[i] {
				if centredIn(w.box, b) {
					words = append(words, w.text)
					break
				}
			}
		}
		if got := strings.Join(words, " "); got != want[i] {
			t.Errorf("pdftotext under highlight %d: %q, want %q", i, got, want[i])
		}
	}
}

type popplerWord struct {
	box  Rect
	text string
}

// popplerWords parses pdftotext -bbox's <word xMin=.. yMin=.. xMax=..
// yMax=..>text</word> lines (page space, top-left origin, as MuPDF's).
func popplerWords(html string) []popplerWord {
	var out []popplerWord
	for _, line := range strings.Split(html, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "<word ") {
			continue
		}
		attr := func(name string) float64 {
			i := strings.Index(line, name+`="`)
			if i < 0 {
				return math.NaN()
			}
			rest := line[i+len(name)+2:]
			v, _ := strconv.ParseFloat(rest[:strings.IndexByte(rest, '"')], 64)
			return v
		}
		text := line[strings.IndexByte(line, '>')+1 : strings.LastIndex(line, "</word>")]
		text = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'").Replace(text)
		out = append(out, popplerWord{Rect{attr("xMin"), attr("yMin"), attr("xMax"), attr("yMax")}, text})
	}
	return out
}

// pdfjsAnnot is what testdata/annotations.mjs prints of one annotation.
type pdfjsAnnot struct {
	Page     int         `json:"page"`
	Subtype  string      `json:"subtype"`
	Rect     [4]float64  `json:"rect"`  // PDF space, bottom-left origin
	Quads    [][]float64 `json:"quads"` // each 8 numbers, PDF space
	Color    []int       `json:"color"` // 0..255
	Contents string      `json:"contents"`
	Height   float64     `json:"height"` // the page's height, to flip y
}

// checkPdfjs reads the copy's annotations with pdf.js (the frontend's
// pdfjs-dist, run by node), a third reader: subtypes, contents, colours
// and quadrilaterals.
func checkPdfjs(t *testing.T, data []byte, anns []Annotation) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: pdf.js cannot read the copy")
	}
	mod, err := filepath.Abs("../../frontend/node_modules/pdfjs-dist/legacy/build/pdf.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(mod); err != nil {
		t.Fatalf("pdfjs-dist is not installed (make deps, or npm ci in frontend/): %v", err)
	}
	cmd := exec.Command(node, "testdata/annotations.mjs", mod)
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var got []pdfjsAnnot
	if err := json.Unmarshal(outb, &got); err != nil {
		t.Fatalf("%v: %s", err, outb)
	}
	t.Logf("pdf.js: %s", outb)
	if len(got) != len(anns) {
		t.Fatalf("pdf.js reads %d annotations, want %d: %s", len(got), len(anns), outb)
	}
	for i, want := range anns {
		g := got[i]
		subtype := map[string]string{AnnotHighlight: "Highlight", AnnotNote: "Text"}[want.Kind]
		if g.Page != want.Page || g.Subtype != subtype || g.Contents != want.Text {
			t.Errorf("pdf.js annotation %d: page %d %s %q, want page %d %s %q", i, g.Page, g.Subtype, g.Contents, want.Page, subtype, want.Text)
		}
		if len(g.Color) != 3 || math.Abs(float64(g.Color[0])-255*want.Color[0]) > 1.5 ||
			math.Abs(float64(g.Color[1])-255*want.Color[1]) > 1.5 || math.Abs(float64(g.Color[2])-255*want.Color[2]) > 1.5 {
			t.Errorf("pdf.js annotation %d colour %v, want %v", i, g.Color, want.Color)
		}
		if want.Kind != AnnotHighlight {
			continue
		}
		if len(g.Quads) != len(want.Boxes) {
			t.Errorf("pdf.js annotation %d: %d quads, want %d", i, len(g.Quads), len(want.Boxes))
			continue
		}
		for k, q := range g.Quads {
			xs, ys := []float64{q[0], q[2], q[4], q[6]}, []float64{q[1], q[3], q[5], q[7]}
			box := Rect{slicesMin(xs), g.Height - slicesMax(ys), slicesMax(xs), g.Height - slicesMin(ys)}
			if !nearBox(box, want.Boxes[k], 0.5) {
				t.Errorf("pdf.js annotation %d quad %d = %v, want %v", i, k, box, want.Boxes[k])
			}
		}
	}
}

func slicesMin(v []float64) float64 {
	m := v[0]
	for _, x := range v {
		m = math.Min(m, x)
	}
	return m
}

func slicesMax(v []float64) float64 {
	m := v[0]
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

// TestAnnotateRefuses: bad requests and bad files fail with their codes
// and no copy.
func TestAnnotateRefuses(t *testing.T) {
	data := lecture()
	box := []Rect{{72, 80, 300, 95}}
	hl := func(page int) Annotation {
		return Annotation{Page: page, Kind: AnnotHighlight, Boxes: box, Color: [3]float64{1, 1, 0}}
	}
	many := make([]Annotation, MaxAnnotations+1)
	for i := range many {
		many[i] = hl(1)
	}
	for _, c := range []struct {
		name string
		data []byte
		anns []Annotation
		code string
	}{
		{"page past the end", data, []Annotation{hl(3)}, message.AnnotateInvalid},
		{"page 0", data, []Annotation{hl(0)}, message.AnnotateInvalid},
		{"unknown kind", data, []Annotation{{Page: 1, Kind: "ink", Boxes: box}}, message.AnnotateInvalid},
		{"no box", data, []Annotation{{Page: 1, Kind: AnnotHighlight}}, message.AnnotateInvalid},
		{"empty box", data, []Annotation{{Page: 1, Kind: AnnotHighlight, Boxes: []Rect{{10, 10, 10, 30}}}}, message.AnnotateInvalid},
		{"box off the page", data, []Annotation{{Page: 1, Kind: AnnotHighlight, Boxes: []Rect{{5000, 5000, 5100, 5020}}}}, message.AnnotateInvalid},
		{"NaN box", data, []Annotation{{Page: 1, Kind: AnnotHighlight, Boxes: []Rect{{math.NaN(), 0, 10, 10}}}}, message.AnnotateInvalid},
		{"colour out of range", data, []Annotation{{Page: 1, Kind: AnnotHighlight, Boxes: box, Color: [3]float64{2, 0, 0}}}, message.AnnotateInvalid},
		{"empty note", data, []Annotation{{Page: 1, Kind: AnnotNote, Boxes: box, Text: "  "}}, message.AnnotateInvalid},
		{"text too long", data, []Annotation{{Page: 1, Kind: AnnotNote, Boxes: box, Text: strings.Repeat("é", MaxAnnotationText+1)}}, message.AnnotateInvalid},
		{"too many", data, many, message.AnnotateTooMany},
		{"password", testpdf.Encrypted("secret", "A protected page."), []Annotation{hl(1)}, message.AnnotateEncrypted},
		{"owner password only", testpdf.Encrypted("", "An encrypted page anyone can open."), []Annotation{hl(1)}, message.AnnotateEncrypted},
		{"not a PDF", []byte("hello, world"), []Annotation{hl(1)}, message.AnnotateCorrupt},
		{"broken page tree", testpdf.ZeroPages(), []Annotation{hl(1)}, message.AnnotateCorrupt},
	} {
		out, err := Annotate(c.data, c.anns, Limits{})
		if err == nil || out != nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if got := message.Of(err).Code; got != c.code {
			t.Errorf("%s: code %s, want %s (%v)", c.name, got, c.code, err)
		}
	}
}

// TestAnnotateText: a comment's control characters and invalid UTF-8
// are cleaned, line breaks kept; a note near the page's edge keeps its
// icon on the page.
func TestAnnotateText(t *testing.T) {
	data := lecture()
	anns := []Annotation{{Page: 1, Kind: AnnotNote, Boxes: []Rect{{590, 838, 595, 842}}, Text: "a\x00b\x07c\r\nd\xffe"}}
	out, err := Annotate(data, anns, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := readBack(t, out)
	if len(got) != 1 || got[0].Text != "abc\nd\uFFFDe" {
		t.Fatalf("read back %+v", got)
	}
	if b := got[0].Boxes[0]; b.X1 > 595.5 || b.Y1 > 842.5 {
		t.Errorf("note icon %v leaves the 595 x 842 page", b)
	}
}

// TestAnnotateRepaired: a file MuPDF repairs on opening (a broken
// cross-reference table) gets a whole rewritten copy that opens, with
// its annotation.
func TestAnnotateRepaired(t *testing.T) {
	data := testpdf.BrokenXref()
	d, err := Open(data, Limits{})
	if err != nil {
		t.Skipf("the broken-xref file does not open: %v", err)
	}
	lines := func() []Line { defer d.Close(); p, _ := d.Page(1); return p.Lines() }()
	if len(lines) == 0 {
		t.Skip("the broken-xref file has no text line")
	}
	out, err := Annotate(data, []Annotation{{Page: 1, Kind: AnnotHighlight, Boxes: []Rect{lines[0].BBox}, Color: [3]float64{1, 1, 0}, Text: "repaired"}}, Limits{})
	if err != nil {
		if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrWrite) {
			t.Fatalf("unexpected error %v", err)
		}
		t.Fatalf("a file MuPDF repairs could not be annotated: %v", err)
	}
	got, _ := readBack(t, out)
	if len(got) != 1 || got[0].Text != "repaired" {
		t.Fatalf("read back %+v", got)
	}
}
