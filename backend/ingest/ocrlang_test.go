package ingest

import (
	"bytes"
	"context"
	"image"
	"math"
	"os"
	"regexp"
	"sync"
	"testing"

	"vika/backend/corpus"
	"vika/backend/ocr"
	"vika/backend/testpdf"
	"vika/backend/testpdf/scanned"
)

// call is one recognition as recordingOCR saw it.
type call struct {
	width int
	hints ocr.Hints
	langs string // the Tesseract languages the pool used
}

// recordingOCR is a real Tesseract pool that records each call.
type recordingOCR struct {
	*ocr.Pool
	mu    sync.Mutex
	calls []call // guarded by mu
}

func (r *recordingOCR) Recognize(ctx context.Context, img image.Image, h ocr.Hints) (ocr.Result, error) {
	res, err := r.Pool.Recognize(ctx, img, h)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, call{width: img.Bounds().Dx(), hints: h, langs: res.Languages})
	return res, err
}

var pageMarker = regexp.MustCompile(`(?m)^=== end page \d+ ===\n?`)

// The made French scan (3 pages of 204 ppi, no text layer), its regions
// detected, is OCRed once a page (its table rebuilt from those words),
// rendered at its own resolution, its first page read with fra+eng and the next ones,
// once the first told French, with fra alone. Its CER, normalised with
// the chart included, measured 4.99% (4.07% at 300 DPI with fra+eng;
// TestFrenchScanCER checks the 3% bar with the chart masked).
func TestOCRScanLanguageAndResolution(t *testing.T) {
	data, err := os.ReadFile(testpdf.SharedPDF(t, "schutz2017_these_p20-22_SCANNED_MADE_fr.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	truth, err := os.ReadFile(testpdf.SharedPDF(t, "schutz2017_these_p20-22_SCANNED_MADE_fr.groundtruth.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rec := &recordingOCR{Pool: newPool(t)}
	res, err := Run(context.Background(), "scan.pdf", data, Options{OCR: rec, OCRParallel: 1, Regions: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// With region detection on, a scanned page is still OCRed once: its
	// tables come from that OCR's words.
	if res.Doc.OCRPages != 3 || len(rec.calls) != 3 {
		t.Fatalf("%d pages OCRed in %d calls, want 3", res.Doc.OCRPages, len(rec.calls))
	}
	tables := 0
	for _, p := range res.Pages {
		for _, r := range p.Regions {
			if r.Kind == corpus.ChunkTable {
				tables++
			}
		}
	}
	if tables == 0 {
		t.Errorf("no table rebuilt from the scan's words (page 1 holds one)")
	}
	want := []struct{ lang, langs string }{{"", "fra+eng"}, {"fr", "fra"}, {"fr", "fra"}}
	for i, c := range rec.calls {
		if c.hints.Lang != want[i].lang || c.langs != want[i].langs {
			t.Errorf("page %d: language %q, recognised with %s; want %q, %s", i+1, c.hints.Lang, c.langs, want[i].lang, want[i].langs)
		}
		wantWidth := int(math.Round(res.Pages[i].Width * float64(c.hints.DPI) / 72))
		if c.hints.DPI != 204 || abs(c.width-wantWidth) > 1 {
			t.Errorf("page %d: rendered %d pixels wide at %d DPI, want 204 DPI (%d pixels)", i+1, c.width, c.hints.DPI, wantWidth)
		}
	}
	var hyp bytes.Buffer
	for _, p := range res.Pages {
		hyp.WriteString(p.Text + "\n")
	}
	cer := ocr.CER(ocr.Normalize(pageMarker.ReplaceAllString(string(truth), "")), ocr.Normalize(hyp.String()))
	t.Logf("CER normalised, chart included: %.2f%%", 100*cer)
	if cer > 0.055 {
		t.Errorf("CER normalised = %.2f%%, want <= 5.5%%", 100*cer)
	}
	// Word boxes are placed in page points whatever the render's DPI:
	// the lines reach the right part of the page, not two thirds of it.
	p := res.Pages[0]
	right := 0.0
	for _, l := range p.Lines {
		right = max(right, l.BBox[2])
	}
	if right < 0.75*p.Width || right > p.Width+1 {
		t.Errorf("page 1: the lines end at x = %.0f pt, want within the right quarter of the %.0f pt page", right, p.Width)
	}
}

// A mixed page's figure is read in its text layer's language.
func TestOCRMixedPageLanguage(t *testing.T) {
	pic := scanned.PNG(t, "Le renard brun saute par-dessus le chien paresseux.")
	data := testpdf.Illustrations(testpdf.Illustrated{
		Body: "Cette page a une couche de texte en français et une figure dont les mots ne sont que des pixels. " +
			"La statistique inférentielle étudie ce que les données disent de la population dont elles sont tirées.",
		Figures: []testpdf.Figure{{X: 50, Y: 300, W: 500, H: 400, PNG: pic}},
	})
	rec := &recordingOCR{Pool: newPool(t)}
	res, err := Run(context.Background(), "mixed.pdf", data, Options{OCR: rec}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pages[0].Type != corpus.PageMixed || len(rec.calls) != 1 {
		t.Fatalf("page type %s, %d OCR calls: the test needs a mixed page", res.Pages[0].Type, len(rec.calls))
	}
	if c := rec.calls[0]; c.hints.Lang != "fr" || c.langs != "fra" || c.hints.DPI != ocr.DefaultDPI {
		t.Errorf("figure read with language %q (%s) at %d DPI, want fr (fra) at %d", c.hints.Lang, c.langs, c.hints.DPI, ocr.DefaultDPI)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
