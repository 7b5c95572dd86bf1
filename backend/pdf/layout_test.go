package pdf

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/testpdf"
)

// checkOffsets verifies the line/offset map of a page: every line's Text
// is the page text at its offsets, in reading order, without overlaps.
func checkOffsets(t *testing.T, p Page) {
	t.Helper()
	runes := []rune(p.Text)
	prev := 0
	for _, l := range p.Lines() {
		if l.Start < prev || l.End < l.Start || l.End > len(runes) {
			t.Fatalf("page %d: line %q at [%d,%d) after %d (text of %d runes)", p.Number, l.Text, l.Start, l.End, prev, len(runes))
		}
		if got := string(runes[l.Start:l.End]); got != l.Text {
			t.Fatalf("page %d: text[%d:%d] = %q, line says %q", p.Number, l.Start, l.End, got, l.Text)
		}
		prev = l.End
	}
}

func openPage(t *testing.T, data []byte, n int) Page {
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
	checkOffsets(t, p)
	return p
}

// inOrder fails unless the markers occur in p's text in the given order.
func inOrder(t *testing.T, text string, markers ...string) {
	t.Helper()
	at := -1
	for _, m := range markers {
		i := strings.Index(text, m)
		if i < 0 {
			t.Fatalf("%q not found in:\n%s", m, text)
		}
		if i < at {
			t.Errorf("%q comes before the previous marker in:\n%s", m, text)
		}
		at = i
	}
}

func TestTwoColumnsGenerated(t *testing.T) {
	left1 := "Alpha one. " + testpdf.Words("left", 40) + " ends the first paragraph."
	left2 := "Alpha two starts the second paragraph and runs to the bottom of the column where the sentence is not over and goes on"
	right1 := "into the right column, at the top of the page. " + testpdf.Words("right", 40)
	right2 := "Bravo two is the last paragraph of the right column."
	p := openPage(t, testpdf.TwoColumns(testpdf.Article{
		Title:    "Reading Order of Two Columns",
		Abstract: "An abstract set across the page, above both columns: it is long enough to take two lines, as abstracts do, so that it crosses the gutter.",
		Left:     []string{left1, left2},
		Right:    []string{right1, right2},
		Caption:  "Figure 1: a caption across the page, below both columns, long enough to cross the gutter between them like the caption of a wide figure.",
	}), 1)
	inOrder(t, p.Text, "Reading Order", "An abstract", "Alpha one.", "left39", "ends the first paragraph.", "Alpha two", "and goes on", "into the right column", "right39", "Bravo two", "Figure 1")
	if !strings.Contains(p.Text, "and goes on\ninto the right column") {
		t.Errorf("the sentence broken by the column should continue after one newline:\n%s", p.Text)
	}
	ls := p.Lines()
	if ls[0].Font.Size != 16 || !ls[0].Font.Bold || ls[len(ls)-1].Font.Size != 9 || !ls[len(ls)-1].Font.Italic {
		t.Errorf("fonts: first %+v, last %+v", ls[0].Font, ls[len(ls)-1].Font)
	}
}

func TestSingleColumnUnchanged(t *testing.T) {
	body := "First paragraph of a plain page. " + testpdf.Words("w", 200)
	p := openPage(t, testpdf.Pages(testpdf.Page{Heading: "2.1 Pre-training", Body: body}), 1)
	if want := "2.1 Pre-training\n\n" + body; strings.ReplaceAll(p.Text, "\n", " ") != strings.ReplaceAll(want, "\n", " ") {
		t.Errorf("text = %q", p.Text)
	}
}

// openPath opens the PDF at path with no limits; the caller closes it.
func openPath(t *testing.T, path string) *Document {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func sharedPage(t *testing.T, name string, n int) Page {
	t.Helper()
	data, err := os.ReadFile(testpdf.SharedPDF(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return openPage(t, data, n)
}

func TestTwoColumnsReal(t *testing.T) {
	t.Run("bert p1", func(t *testing.T) {
		p := sharedPage(t, "devlin2019_bert.pdf", 1)
		inOrder(t, p.Text, "BERT: Pre-training", "Abstract", "We introduce a new language", "(5.1 point absolute improvement).",
			"1 Introduction", "Language model pre-training", "(Tjong Kim Sang and", "There are two existing strategies")
	})
	t.Run("bert p2", func(t *testing.T) {
		p := sharedPage(t, "devlin2019_bert.pdf", 2)
		// The left column's last paragraph is followed by the right
		// column's first, not by a right-column line at the same height.
		if !strings.Contains(p.Text, "right context (Mikolov et al., 2013).\n\nThese approaches have been generalized to") {
			t.Errorf("column break not in order:\n%s", p.Text)
		}
	})
	t.Run("resnet p2", func(t *testing.T) {
		p := sharedPage(t, "he2015_resnet.pdf", 2)
		if !strings.Contains(p.Text, "3.57% top-5 error on the\nImageNet test set, and won the 1st place") {
			t.Errorf("sentence across the column break not continued:\n%s", p.Text)
		}
	})
	t.Run("slides", func(t *testing.T) {
		p := sharedPage(t, "jegou_statistique_inferentielle_slides_fr.pdf", 6)
		inOrder(t, p.Text, "Introduction Modèle Statistique", "Exemple 1", "l'efficacité d'un médicament", "72 patients sont guéris",
			"p ≈0.72", "Questions :", "Le niveau de confiance est faible ? Fort ?")
	})
}

func TestDecodeStext(t *testing.T) {
	js := `{"blocks":[
	 {"type":"image","bbox":{"x":-500,"y":-500,"w":100,"h":100}},
	 {"type":"image","bbox":{"x":100,"y":100,"w":2000,"h":30000}},
	 {"type":"text","bbox":{"x":0,"y":0,"w":1,"h":1},"lines":[
	  {"wmode":0,"bbox":{"x":20392,"y":-18098,"w":616,"h":189},"font":{"name":"F27","family":"serif","weight":"normal","style":"normal","size":109},"x":20392,"y":-18013,"text":"off the page"},
	  {"wmode":0,"bbox":{"x":100,"y":100,"w":500,"h":160},"font":{"name":"ABCDEF+T12","family":"serif","weight":"normal","style":"normal","size":2},"x":100,"y":226,"text":"e\u001ecacit\u00e9 \"q\" \\ "}]}]}`
	blocks, images, err := decodeStext([]byte(js), Rect{0, 0, 612, 792})
	if err != nil {
		t.Fatal(err)
	}
	wantImages := []Rect{{10, 10, 210, 792}}
	if diff := cmp.Diff(wantImages, images); diff != "" {
		t.Errorf("images (-want +got):\n%s", diff)
	}
	if len(blocks) != 1 || len(blocks[0].Frags) != 1 {
		t.Fatalf("blocks = %+v", blocks)
	}
	f := blocks[0].Frags[0]
	if f.Text != "e\x1ecacité \"q\" \\ " || f.Box != (Rect{10, 10, 60, 26}) || f.Base != 22.6 || f.Font.Size != 0.2 {
		t.Errorf("fragment = %+v", f)
	}
	ls := buildLines(blocks[0])
	if ls[0].Font.Name != "T12" || ls[0].Font.Size < 12 || ls[0].Font.Size > 13 {
		t.Errorf("Type 3 size should come from the box: %+v", ls[0].Font)
	}
	if _, _, err := decodeStext([]byte(`{"blocks":[`), Rect{0, 0, 1, 1}); err == nil {
		t.Error("truncated JSON: no error")
	}
}

func frag(x0, y0, x1, y1, base, size float64, text string) fragment {
	return fragment{Box: Rect{x0, y0, x1, y1}, Base: base, Text: text, Font: Font{Name: "Times", Size: size}}
}

func TestBuildLines(t *testing.T) {
	tests := []struct {
		name  string
		frags []fragment
		want  []string
	}{
		{"gap makes a space", []fragment{frag(89, 439, 127, 451, 448, 9, "powerful."), frag(135, 439, 273, 451, 448, 9, "It obtains")}, []string{"powerful. It obtains"}},
		{"touching glyphs join", []fragment{frag(299.9, 109.9, 314.5, 120.7, 118.3, 12, "for"), frag(314.0, 109.9, 319.2, 120.7, 118.3, 12, "c"), frag(318.8, 109.9, 324, 120.7, 118.3, 12, "e")}, []string{"force"}},
		{"subscript joins", []fragment{frag(100, 100, 150, 112, 110, 10, "p"), frag(150.5, 104, 154, 114, 113, 7, "1")}, []string{"p1"}},
		{"next line", []fragment{frag(100, 100, 300, 112, 110, 10, "first line"), frag(100, 113, 300, 125, 123, 10, "second line")}, []string{"first line", "second line"}},
		{"back to the left", []fragment{frag(100, 100, 300, 112, 110, 10, "a"), frag(50, 101, 90, 112, 110, 10, "b")}, []string{"a", "b"}},
		{"rotated stamp apart", []fragment{frag(100, 100, 300, 112, 110, 10, "body"), frag(10, 256, 36, 609, 609, 20, "arXiv:1810.04805v2")}, []string{"body", "arXiv:1810.04805v2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, l := range buildLines(rawBlock{Frags: tt.frags}) {
				got = append(got, l.raw)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

// blk makes a block of n lines of prose (or of short cells if short).
func blk(name string, x0, y0, x1, y1 float64, n int, short bool) Block {
	b := Block{BBox: Rect{x0, y0, x1, y1}}
	text := name + " " + strings.Repeat("prose words ", 3)
	if short {
		text = name
	}
	for i := 0; i < n; i++ {
		b.Lines = append(b.Lines, Line{raw: text})
	}
	return b
}

func TestOrder(t *testing.T) {
	tests := []struct {
		name   string
		blocks []Block
		want   string
	}{
		{"columns under a title", []Block{
			blk("R1", 310, 200, 540, 400, 10, false), blk("title", 100, 60, 500, 90, 1, false),
			blk("L2", 56, 410, 286, 700, 10, false), blk("L1", 56, 200, 286, 400, 10, false),
			blk("R2", 310, 402, 540, 700, 10, false),
		}, "title L1 L2 R1 R2"},
		{"wide figure between column pairs", []Block{
			blk("L1", 56, 100, 286, 300, 10, false), blk("R1", 310, 100, 540, 300, 10, false),
			blk("fig", 56, 310, 540, 400, 2, false),
			blk("L2", 56, 410, 286, 700, 10, false), blk("R2", 310, 410, 540, 700, 10, false),
		}, "L1 R1 fig L2 R2"},
		{"table read by rows", []Block{
			blk("a1", 100, 100, 130, 110, 1, true), blk("b1", 200, 100, 230, 110, 1, true), blk("c1", 300, 98, 330, 112, 1, true),
			blk("a2", 100, 120, 130, 130, 1, true), blk("b2", 200, 119, 230, 131, 1, true), blk("c2", 300, 120, 330, 130, 1, true),
		}, "a1 b1 c1 a2 b2 c2"},
		{"heading above an equation", []Block{
			blk("eq", 250, 130, 350, 145, 1, false), blk("head", 56, 100, 150, 112, 1, false), blk("after", 56, 160, 540, 300, 8, false),
		}, "head eq after"},
		{"single column", []Block{
			blk("p2", 56, 300, 540, 500, 9, false), blk("p1", 56, 100, 540, 290, 9, false), blk("num", 290, 760, 300, 770, 1, true),
		}, "p1 p2 num"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, b := range order(tt.blocks) {
				got = append(got, strings.Fields(b.Lines[0].raw)[0])
			}
			if diff := cmp.Diff(tt.want, strings.Join(got, " ")); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJoinText(t *testing.T) {
	blocks := [][]string{{"Title"}, {"A line that is hyphen-", "ated and a line", "that goes on."}, {"Next paragraph ends with a word"}, {"continued after a column break."}}
	text, offs := joinText(blocks, []bool{false, false, false, true}, compounds(nil))
	want := "Title\n\nA line that is hyphenated and a line\nthat goes on.\n\nNext paragraph ends with a word\ncontinued after a column break."
	if text != want {
		t.Fatalf("text = %q", text)
	}
	r := []rune(text)
	if got := string(r[offs[1][0][0]:offs[1][0][1]]); got != "A line that is hyphen" {
		t.Errorf("first part of the hyphenated word: %q", got)
	}
	if got := string(r[offs[1][1][0]:offs[1][1][1]]); got != "ated and a line" {
		t.Errorf("second part: %q", got)
	}
}

// TestDehyphenation compares, on the BERT paper, MuPDF's own
// FZ_STEXT_DEHYPHENATE with this package's rule: MuPDF merges real
// compounds split at a line end ("fine-" + "tuned" -> "finetuned").
func TestDehyphenation(t *testing.T) {
	d := openPath(t, testpdf.SharedPDF(t, "devlin2019_bert.pdf"))
	defer d.Close()
	const dehyphenate = 16
	var mupdf, ours strings.Builder
	for n := 1; n <= d.NumPages(); n++ {
		js, bounds, err := stextJSON(d.fz, n-1, stextFlags|dehyphenate, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		raw, _, _ := decodeStext(js, bounds)
		for _, b := range raw {
			for _, f := range b.Frags {
				mupdf.WriteString(f.Text + "\n")
			}
		}
		p, err := d.Page(n)
		if err != nil {
			t.Fatal(err)
		}
		ours.WriteString(p.Text)
	}
	merged := func(s string) int { return strings.Count(s, "finetun") + strings.Count(s, "pretrain") }
	m, o := merged(mupdf.String()), merged(ours.String())
	t.Logf("compounds merged: MuPDF dehyphenation %d, ours %d (the paper writes \"pretrain\" once)", m, o)
	if o >= m || o > 3 {
		t.Errorf("ours merges %d compounds, MuPDF %d", o, m)
	}
}
