package ingest

import (
	"bytes"
	"context"
	"image/png"
	"math"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// scanOf renders src's first page at 150 dpi and returns a PDF whose
// only page is that image (no text layer), with src's page as parsed.
func scanOf(t *testing.T, src []byte) ([]byte, pdf.Page) {
	t.Helper()
	d, err := pdf.Open(src, pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	orig, err := d.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	img, err := d.Render(1, 150)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return testpdf.Illustrations(testpdf.Illustrated{Figures: []testpdf.Figure{{X: 0, Y: 0, W: 595, H: 842, PNG: buf.Bytes()}}}), orig
}

const scannedBody = "Estimators of the population variance divide the sum of squared deviations by n minus one. " +
	"The correction removes the bias that comes from measuring deviations around the sample mean instead of the true mean. " +
	"Confidence intervals built on this estimate widen as the sample shrinks, and the Student distribution describes them."

// Every OCR line of a scanned page spans, in the stored text, exactly
// the words of its box, in order (a word hyphenated at the line end
// joins the next line's part), and its box lies within the page.
func TestOCRLinesMatchWords(t *testing.T) {
	data, _ := scanOf(t, testpdf.Text(scannedBody))
	r, err := InProcess.Open(context.Background(), data, Options{OCR: newPool(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	txt, err := r.OCR(context.Background(), OCRTarget{Page: 1, Full: true})
	if err != nil {
		t.Fatal(err)
	}
	lines := ocrLines(txt.Text, txt.Words, 595, 842)
	byLine := map[int][]string{}
	nLines := 0
	for i, w := range txt.Words {
		if i == 0 || w.Line != txt.Words[i-1].Line {
			nLines++
		}
		byLine[w.Line] = append(byLine[w.Line], w.Text)
	}
	if nLines < 3 || len(lines) != nLines {
		t.Fatalf("%d OCR lines from %d word lines; text %q", len(lines), nLines, txt.Text)
	}
	runes := []rune(txt.Text)
	for i, l := range lines {
		got := string(runes[l.Start:l.End])
		want := strings.Join(byLine[txt.Words[0].Line+i], " ")
		if squash(got) != squash(want) {
			t.Errorf("line %d: text %q, words %q", i, got, want)
		}
		b := l.BBox
		if !(0 <= b[0] && b[0] < b[2] && b[2] <= 595 && 0 <= b[1] && b[1] < b[3] && b[3] <= 842) {
			t.Errorf("line %d %q: box %v outside the page or empty", i, got, b)
		}
		if i > 0 && l.Start < lines[i-1].End {
			t.Errorf("line %d starts at %d, before line %d ends (%d)", i, l.Start, i-1, lines[i-1].End)
		}
	}
}

// squash drops spaces and end-of-line hyphens: cleaning joins a word
// hyphenated across lines, so one line's text may end with the next
// line's part.
func squash(s string) string {
	return strings.NewReplacer(" ", "", "\n", "", "-", "").Replace(s)
}

// After ingest, a scanned page has lines in its stored text whose boxes
// sit where the same text lies on the page it was rendered from, so the
// viewer can highlight a passage on the scan.
func TestScannedPageLinesWhereTheTextIs(t *testing.T) {
	data, orig := scanOf(t, testpdf.Text(scannedBody))
	res, err := Run(context.Background(), "scan.pdf", data, Options{OCR: newPool(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Pages[0]
	if p.Type != corpus.PageScanned || len(p.Lines) == 0 {
		t.Fatalf("page type %v, %d lines; text %q", p.Type, len(p.Lines), p.Text)
	}
	runes := []rune(p.Text)
	src := orig.Corpus("")
	srcRunes := []rune(src.Text)
	for _, l := range p.Lines {
		got := string(runes[l.Start:l.End])
		// The text-layer line that holds this line's first word.
		first := strings.Fields(got)[0]
		found := false
		for _, o := range src.Lines {
			if !strings.HasPrefix(string(srcRunes[o.Start:o.End]), first) {
				continue
			}
			found = true
			for k := range 4 {
				if math.Abs(l.BBox[k]-o.BBox[k]) > 6 {
					t.Errorf("OCR line %q box %v, text-layer line box %v", got, l.BBox, o.BBox)
					break
				}
			}
		}
		if !found {
			t.Errorf("OCR line %q: no text-layer line starts with %q", got, first)
		}
	}
}
