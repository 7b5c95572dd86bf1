package chunk

import (
	"fmt"
	"strings"
	"testing"

	"vika/backend/corpus"
)

// A long table is split between rows; every piece repeats the caption and
// the header row, and every row is in exactly one piece.
func TestLongTableSplitRepeatsCaptionAndHeader(t *testing.T) {
	var md strings.Builder
	md.WriteString("| model | top-1 err. | top-5 err. |\n| --- | --- | --- |")
	for i := range 120 {
		fmt.Fprintf(&md, "\n| model-%03d | %d.25 | %d.75 |", i, 20+i%10, 5+i%4)
	}
	page := corpus.Page{DocID: "d", Number: 4, Type: corpus.PageText, Regions: []corpus.Region{{
		Kind: corpus.ChunkTable, Page: 4, BBox: [4]float64{50, 60, 500, 700},
		Caption: "Table 9: Errors of many models.", Text: md.String(),
	}}}
	n := 0
	chunks := regionChunks("abc", "d", page, section{title: "Results"}, &n, Options{}.normalized())
	if len(chunks) < 3 {
		t.Fatalf("%d pieces, want a split table", len(chunks))
	}
	seen := map[string]int{}
	for i, c := range chunks {
		if !strings.HasPrefix(c.Text, "Table 9: Errors of many models.\n\n| model | top-1 err. | top-5 err. |\n| --- | --- | --- |\n") {
			t.Errorf("piece %d does not open with caption and header:\n%.200s", i, c.Text)
		}
		if c.Kind != corpus.ChunkTable || c.Page != 4 || c.BBox == nil || *c.BBox != [4]float64{50, 60, 500, 700} || c.SectionTitle != "Results" {
			t.Errorf("piece %d: kind %s page %d box %v section %q", i, c.Kind, c.Page, c.BBox, c.SectionTitle)
		}
		if c.ID != fmt.Sprintf("abc-p4-c%d", i+1) {
			t.Errorf("piece %d id %s", i, c.ID)
		}
		if r := len([]rune(c.Text)); r > 2*DefaultTarget {
			t.Errorf("piece %d has %d runes", i, r)
		}
		for _, l := range strings.Split(c.Text, "\n") {
			if strings.HasPrefix(l, "| model-") {
				seen[l]++
			}
		}
	}
	if len(seen) != 120 {
		t.Errorf("%d distinct rows in the pieces, want 120", len(seen))
	}
	for l, k := range seen {
		if k != 1 {
			t.Errorf("row %q in %d pieces", l, k)
		}
	}
}

// A figure's passage is its caption, its inner text and its description;
// its span is the page lines inside its box.
func TestFigurePassage(t *testing.T) {
	page := corpus.Page{DocID: "d", Number: 2, Type: corpus.PageText,
		Text: "Intro line.\nSOURCE\nCHANNEL\nFigure 1. A source.",
		Lines: []corpus.Line{
			{Start: 0, End: 11, BBox: [4]float64{50, 40, 300, 50}},
			{Start: 12, End: 18, BBox: [4]float64{110, 110, 160, 120}},
			{Start: 19, End: 26, BBox: [4]float64{210, 110, 260, 120}},
			{Start: 27, End: 45, BBox: [4]float64{100, 160, 300, 170}},
		},
		Regions: []corpus.Region{{Kind: corpus.ChunkFigure, Page: 2, BBox: [4]float64{100, 100, 300, 140},
			Caption: "Figure 1. A source.", Text: "SOURCE\nCHANNEL", Description: "Two boxes joined by an arrow."}},
	}
	n := 3
	cs := regionChunks("abc", "d", page, section{}, &n, Options{}.normalized())
	if len(cs) != 1 {
		t.Fatalf("%d chunks", len(cs))
	}
	c := cs[0]
	if c.Text != "Figure 1. A source.\n\nSOURCE\nCHANNEL\n\nTwo boxes joined by an arrow." {
		t.Errorf("text %q", c.Text)
	}
	if c.ID != "abc-p2-c4" || c.CharStart != 12 || c.CharEnd != 26 || c.Kind != corpus.ChunkFigure {
		t.Errorf("id %s span [%d,%d) kind %s", c.ID, c.CharStart, c.CharEnd, c.Kind)
	}
}

// Split puts a page's region passages after its text's, numbered on.
func TestSplitAddsRegionPassages(t *testing.T) {
	doc := corpus.Document{ID: "0123456789abcdef"}
	pages := []corpus.Page{{DocID: doc.ID, Number: 1, Type: corpus.PageText,
		Text:    "A short page of running text about channels and their capacity.",
		Regions: []corpus.Region{{Kind: corpus.ChunkFormula, Page: 1, BBox: [4]float64{1, 2, 3, 4}, Caption: "(1)", Text: "C = W log(1 + S/N) (1)"}},
	}}
	cs := Split(doc, pages, Options{})
	if len(cs) != 2 || cs[0].Kind != corpus.ChunkBody || cs[1].Kind != corpus.ChunkFormula || cs[1].ID != "0123456789ab-p1-c2" {
		t.Fatalf("chunks %+v", cs)
	}
	if cs[1].Text != "(1)\n\nC = W log(1 + S/N) (1)" {
		t.Errorf("formula passage %q", cs[1].Text)
	}
}
