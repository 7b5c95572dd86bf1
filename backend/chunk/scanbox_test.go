package chunk

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
)

// withOCRLines gives every text line of p an OCR line (no font size), the
// k-th drawn at height 20+12k, one block per paragraph, as ingest places
// a scanned page's lines from Tesseract's word boxes.
func withOCRLines(p corpus.Page) corpus.Page {
	at, block, k := 0, 0, 0
	for _, s := range strings.Split(p.Text, "\n") {
		n := utf8.RuneCountInString(s)
		if strings.TrimSpace(s) == "" {
			block++
		} else {
			y := 20 + 12*float64(k)
			p.Lines = append(p.Lines, corpus.Line{Start: at, End: at + n, BBox: [4]float64{50, y, 50 + 4*float64(n), y + 10}, Block: block})
			k++
		}
		at += n + 1
	}
	return p
}

// OCR lines change neither the chunks' text nor their sections (headings
// on OCR text are still read from the text), and each chunk of a page
// with OCR lines gets the union of the boxes of the lines it spans.
func TestOCRLinesKeepChunksAndBoxThem(t *testing.T) {
	plain := samplePages()
	lined := samplePages()
	for i := range lined {
		lined[i] = withOCRLines(lined[i])
	}
	opts := Options{Target: 120, Overlap: 30}
	want := Split(doc, plain, opts)
	got := Split(doc, lined, opts)
	checkInvariants(t, lined, got, opts.normalized())
	strip := func(cs []corpus.Chunk) []corpus.Chunk {
		out := append([]corpus.Chunk(nil), cs...)
		for i := range out {
			out[i].BBox = nil
		}
		return out
	}
	if d := cmp.Diff(want, strip(got)); d != "" {
		t.Fatalf("chunks changed by OCR lines (-without +with):\n%s", d)
	}
	for _, c := range got {
		p := lined[c.Page-1]
		var wantBox *[4]float64
		for _, l := range p.Lines {
			if l.End <= c.CharStart || l.Start >= c.CharEnd {
				continue
			}
			if wantBox == nil {
				b := l.BBox
				wantBox = &b
			} else {
				wantBox[0], wantBox[1] = min(wantBox[0], l.BBox[0]), min(wantBox[1], l.BBox[1])
				wantBox[2], wantBox[3] = max(wantBox[2], l.BBox[2]), max(wantBox[3], l.BBox[3])
			}
		}
		if c.BBox == nil || wantBox == nil || *c.BBox != *wantBox {
			t.Errorf("chunk %s %q: box %v, want %v", c.ID, c.Text, c.BBox, wantBox)
		}
	}
}

// A text-layer page (lines with a font size) gets no passage box: the
// viewer finds its text in the page's own text layer.
func TestTextLayerChunksHaveNoBox(t *testing.T) {
	p := withOCRLines(samplePages()[0])
	for i := range p.Lines {
		p.Lines[i].Size = 10
	}
	for _, c := range Split(doc, []corpus.Page{p}, Options{}) {
		if c.BBox != nil {
			t.Errorf("chunk %s on a text-layer page has box %v", c.ID, *c.BBox)
		}
	}
}
