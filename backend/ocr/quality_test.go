package ocr

import (
	"context"
	"image"
	"testing"
)

// TestFrenchScanCER recognises the made French scan (3 pages, 200 dpi
// grey JPEG, rotated 0.7 degrees, noise and blur) rendered at 300 DPI with
// the default settings, and compares it with the ground truth, the
// pdftotext output of the source pages. Three measures:
//
//   - raw: the ground truth file as is against the OCR text, white space
//     collapsed on both sides (CER). The file has "=== end page N ==="
//     lines the scan does not show, and the OCR reads the labels of the
//     chart on page 3, which pdftotext never saw (a raster in the source).
//   - normalised: page marker lines removed from the reference, then
//     Normalize on both sides (NFKC, apostrophe and dash variants,
//     words hyphenated at line ends joined, white space collapsed). Case
//     is kept and no word is dropped.
//   - figure masked: normalised, with the chart on page 3 painted white
//     before OCR, since the reference has no text for it.
//
// What remains is mostly the three formulas (pdftotext and OCR linearise
// a fraction or a sum differently), "Chao1" read as "Chaol", footnote
// calls and table rules.
func TestFrenchScanCER(t *testing.T) {
	raw, clean := frenchReference(t)
	imgs := renderShared(t, frenchScan, DefaultDPI, nil)
	p := newPool(t, Config{})
	rs := recognizeAll(t, p, append(imgs[:3:3], maskFigure(imgs[2])))
	hyp := joinText(rs[:3])
	masked := joinText([]Result{rs[0], rs[1], rs[3]})

	cerRaw := CER(raw, hyp)
	cerNorm := CER(Normalize(clean), Normalize(hyp))
	cerMasked := CER(Normalize(clean), Normalize(masked))
	t.Logf("French scan at %d DPI, psm %d: CER raw %.2f%%, normalised %.2f%%, normalised with the figure masked %.2f%%; mean word confidence %.3f",
		DefaultDPI, DefaultPSM, 100*cerRaw, 100*cerNorm, 100*cerMasked, meanConfidence(rs[:3]))

	// Measured: 5.91%, 4.07% and 1.17% (Tesseract 5.3, fra+eng). The
	// first two bounds guard against regressions; the third is the 3%
	// target, met once the text the reference lacks is left out.
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"raw", cerRaw, 0.065},
		{"normalised", cerNorm, 0.046},
		{"normalised, figure masked", cerMasked, 0.03},
	} {
		if c.got > c.want {
			t.Errorf("CER %s = %.2f%%, want <= %.1f%%", c.name, 100*c.got, 100*c.want)
		}
	}
}

// TestFrenchScanCERAsIngested measures the scan as package ingest reads
// it: rendered at its own 204 ppi, the first page with fra+eng, the next
// two with fra alone (the language the first told), the chart masked.
// The bar is the same 3%.
func TestFrenchScanCERAsIngested(t *testing.T) {
	_, clean := frenchReference(t)
	const dpi = 204
	imgs := renderShared(t, frenchScan, dpi, nil)
	p := newPool(t, Config{})
	hints := []Hints{{DPI: dpi}, {Lang: "fr", DPI: dpi}, {Lang: "fr", DPI: dpi}}
	var rs []Result
	for i, img := range []image.Image{imgs[0], imgs[1], maskFigure(imgs[2])} {
		r, err := p.Recognize(context.Background(), img, hints[i])
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	cer := CER(Normalize(clean), Normalize(joinText(rs)))
	t.Logf("French scan at %d DPI, fra+eng then fra: CER normalised with the figure masked %.2f%% (%s, %s, %s)", dpi, 100*cer, rs[0].Languages, rs[1].Languages, rs[2].Languages)
	if rs[0].Languages != "fra+eng" || rs[1].Languages != "fra" {
		t.Errorf("recognised with %s then %s, want fra+eng then fra", rs[0].Languages, rs[1].Languages)
	}
	if cer > 0.03 {
		t.Errorf("CER normalised, figure masked = %.2f%%, want <= 3%%", 100*cer)
	}
}
