package pdf

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

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

// TestAnnotateSharedPDF writes a highlight over every line of the first
// three pages of Vaswani's paper (which already holds 8 highlights of a
// reader) and a note a page into a copy: MuPDF reads back the paper's own
// annotations and every new one; pdftotext reads the words of page 1's
// first highlighted lines under their quads. It logs the time and the
// bytes the copy adds.
func TestAnnotateSharedPDF(t *testing.T) {
	data, err := os.ReadFile(testpdf.SharedPDF(t, "vaswani2017_attention_is_all_you_need.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	before := map[int]int{}
	var anns []Annotation
	for n := 1; n <= 3; n++ {
		d, err := Open(data, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		own, err := d.Annotations(n)
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		before[n] = len(own)
		for i, l := range linesOf(t, data, n) {
			if l.BBox.Empty() {
				continue
			}
			anns = append(anns, Annotation{Page: n, Kind: AnnotHighlight, Boxes: []Rect{l.BBox}, Color: [3]float64{1, 0.9, 0.2}, Text: "line " + strconv.Itoa(i+1)})
		}
		anns = append(anns, Annotation{Page: n, Kind: AnnotNote, Boxes: []Rect{{X0: 20, Y0: 20, X1: 40, Y1: 40}}, Color: [3]float64{0.3, 0.5, 1}, Text: "Note on page " + strconv.Itoa(n)})
	}
	start := time.Now()
	out, err := Annotate(data, anns, Limits{})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := readBack(t, out)
	mine := 0
	for _, g := range got {
		if g.Text != "" && (strings.HasPrefix(g.Text, "line ") || strings.HasPrefix(g.Text, "Note on page ")) {
			mine++
		}
	}
	if mine != len(anns) || len(got) != len(anns)+before[1]+before[2]+before[3] {
		t.Errorf("read back %d annotations, %d of them written here; want %d written and %d of the paper's own", len(got), mine, len(anns), before[1]+before[2]+before[3])
	}
	first := linesOf(t, data, 1)[:2]
	checkPdftotext(t, out, []int{1}, [][]Rect{{first[0].BBox, first[1].BBox}}, []string{first[0].Text + " " + first[1].Text}, true)
	t.Logf("%d annotations written into a %d-byte PDF in %v: the copy adds %d bytes (incremental: %v); the paper's own: %v",
		len(anns), len(data), took.Round(time.Millisecond), len(out)-len(data), bytes.HasPrefix(out, data), before)
}

// TestAnnotateNothing: a copy asked with no annotation is the original,
// byte for byte.
func TestAnnotateNothing(t *testing.T) {
	data := lecture()
	out, err := Annotate(data, nil, Limits{})
	if err != nil || !bytes.Equal(out, data) {
		t.Fatalf("%d bytes (original %d), %v", len(out), len(data), err)
	}
}
