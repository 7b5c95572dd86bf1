package pdf

import (
	"context"
	"os"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/ocr"
	"vika/backend/testpdf"
)

// measuredScannedAccuracy is the share of the hand-transcribed cells of
// scanned tables that OCR plus WordTables get right, as measured.
const measuredScannedAccuracy = 0.96 // 52 of 54 cells, 2 tables of the Flajolet scan

// TestScannedTableCellAccuracy OCRs the scanned pages holding the
// hand-transcribed tables (real Tesseract, ocr.DefaultDPI), rebuilds their
// tables from the word boxes and counts the cells right.
func TestScannedTableCellAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("OCRs scanned pages; not with -short")
	}
	ht := loadHandTables(t)
	pool, err := ocr.NewPool(ocr.Config{Workers: 1})
	if err != nil {
		t.Fatalf("Tesseract: %v", err)
	}
	defer pool.Close()
	right, total := 0, 0
	for _, want := range ht.Scanned {
		data, err := os.ReadFile(testpdf.SharedPDF(t, want.File))
		if err != nil {
			t.Fatal(err)
		}
		d, err := Open(data, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := d.Page(want.Page)
		if err != nil {
			t.Fatal(err)
		}
		img, err := d.Render(want.Page, float64(ocr.DefaultDPI))
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		res, err := pool.Recognize(context.Background(), img, ocr.Hints{})
		if err != nil {
			t.Fatal(err)
		}
		s := float64(ocr.DefaultDPI) / 72
		var words []Word
		for _, b := range res.Boxes {
			words = append(words, Word{Text: b.Text, Line: b.Line, Para: b.Para,
				Box: Rect{float64(b.Box.Min.X) / s, float64(b.Box.Min.Y) / s, float64(b.Box.Max.X) / s, float64(b.Box.Max.Y) / s}})
		}
		var got [][]string
		for _, r := range WordTables(want.Page, p.Width, p.Height, words) {
			if r.Kind == corpus.ChunkTable && strings.HasPrefix(r.Caption, want.Caption) {
				got = parseMarkdown(r.Text)
				t.Logf("p%d %s:\n%s", want.Page, r.Caption, r.Text)
			}
		}
		r, n := cellsRight(want.Cells, got)
		t.Logf("%s p%d %s: %d/%d cells", want.File, want.Page, want.Caption, r, n)
		right += r
		total += n
	}
	acc := float64(right) / float64(total)
	t.Logf("scanned tables: %d of %d cells right (%.3f) over %d tables", right, total, acc, len(ht.Scanned))
	if acc < measuredScannedAccuracy {
		t.Errorf("scanned cell accuracy %.3f, below the %.3f measured", acc, measuredScannedAccuracy)
	}
}
