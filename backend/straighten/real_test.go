package straighten_test

import (
	"context"
	"image"
	"os"
	"testing"
	"time"

	"vika/backend/ocr"
	"vika/backend/pdf"
	"vika/backend/straighten"
	"vika/backend/testpdf"
	"vika/backend/testpdf/photo"
)

// sharedPages renders pages (1-based) of a shared scan at its ingest
// resolution.
func sharedPages(t *testing.T, name string, dpi float64, pages ...int) []*image.Gray {
	t.Helper()
	data, err := os.ReadFile(testpdf.SharedPDF(t, name))
	if err != nil {
		t.Fatal(err)
	}
	d, err := pdf.Open(data, pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var out []*image.Gray
	for _, n := range pages {
		img, err := d.Render(n, dpi)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, img)
	}
	return out
}

// Real scans are left as they are: the made French scan (turned 0.7
// degree, under MinSkew) and the 1985 scan's pages, whose paper runs to
// the edges; straightening them costs little next to their OCR. So are
// pages of the French thesis: its pages of charts with sideways labels
// (42 and 50) are not turned.
func TestRealScansUntouched(t *testing.T) {
	// The thesis's pages whose columns' profile came closest to its rows'
	// (40, 42, 44, 45, 50: charts with sideways labels) and its tables (20,
	// 44, 53); all 67 were measured once (measurements.md).
	thesis := []int{20, 28, 40, 42, 44, 45, 50, 53}
	scans := map[string][]*image.Gray{
		"French scan":   sharedPages(t, "schutz2017_these_p20-22_SCANNED_MADE_fr.pdf", 204, 1, 2, 3),
		"1985 scan":     sharedPages(t, "flajolet_martin1985_probabilistic_counting_SCANNED.pdf", 300, 1, 2, 5, 10, 20, 28),
		"French thesis": sharedPages(t, "schutz2017_these_microbiote_mucoviscidose_fr.pdf", 100, thesis...),
	}
	for name, imgs := range scans {
		for i, img := range imgs {
			start := time.Now()
			res, err := straighten.Page(context.Background(), img, 150)
			if err != nil {
				t.Fatal(err)
			}
			if name != "French thesis" {
				t.Logf("%s, render %d: page found %v, skew %.2f, in %v", name, i+1, res.Page, res.Skew, time.Since(start).Round(time.Millisecond))
			}
			if res.Changed() {
				t.Errorf("%s, render %d was changed: page %v, skew %.2f", name, i+1, res.Page, res.Skew)
			}
		}
	}
}

// TestPoorThreshold measures the mean word confidence of readings known
// good and known bad, as ingest makes them (straightened), and checks
// ocr.PoorConfidence separates them. The real scans' confidences are
// TestFrenchScanCER's and MEASUREMENTS.md's (0.74 to 0.88).
func TestPoorThreshold(t *testing.T) {
	rec := pool(t)
	ctx := context.Background()
	src, _ := page(t, 150)
	read := func(st straighten.Result) ocr.Result {
		r, err := rec.Recognize(ctx, st.Image, ocr.Hints{DPI: int(st.DPI)})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	straight := func(img *image.Gray) straighten.Result {
		r, err := straighten.Page(ctx, img, 150)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	shoot := func(img *image.Gray, w, h int, s photo.Shot) *image.Gray {
		g, err := photo.Grey(photo.Take(img, w, h, s).JPEG)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	small, _ := renderAt(t, 40)
	sideways := shoot(src, 2400, 1800, photo.Shot{Angle: 93, Keystone: 0.05, Dim: 0.3, Noise: 5, Fill: 0.95, Seed: 4})
	good := map[string]straighten.Result{
		"photo turned 6, straightened": straight(shoot(src, 1800, 2400, photo.Shot{Angle: 6, Keystone: 0.08, Dim: 0.45, Noise: 7, Quality: 75, Seed: 1})),
		"sideways photo, straightened": straight(sideways),
		"clean render":                 {Image: src, DPI: 150},
	}
	bad := map[string]straighten.Result{
		"upside down": straighten.Result{Image: src, DPI: 150}.UpsideDown(),
		"blurred photo of 500 pixels, rendered at 2000": straight(upscale(shoot(small, 500, 707, photo.Shot{Angle: 3, Dim: 0.5, Noise: 12, Quality: 30, Seed: 13}), 4)),
		"blurred photo of 700 pixels, rendered at 2100": straight(upscale(shoot(small, 700, 990, photo.Shot{Angle: -5, Keystone: 0.1, Dim: 0.4, Noise: 10, Quality: 40, Seed: 14}), 3)),
	}
	// Not counted as bad: the sideways photo read without straightening
	// gives 12 words at 0.967; confidence cannot tell a reading that
	// missed most of its page (ingest always straightens first).
	_ = sideways
	for name, st := range good {
		r := read(st)
		t.Logf("good: %s: confidence %.3f, %d words", name, r.Confidence, r.Words)
		if ocr.Poor(r) {
			t.Errorf("%s read as poor (%.3f)", name, r.Confidence)
		}
	}
	for name, st := range bad {
		r := read(st)
		t.Logf("bad: %s: confidence %.3f, %d words", name, r.Confidence, r.Words)
		if !ocr.Poor(r) {
			t.Errorf("%s not read as poor (%.3f)", name, r.Confidence)
		}
	}
}

func renderAt(t *testing.T, dpi float64) (*image.Gray, pdf.Page) { return page(t, dpi) }

// upscale enlarges img k times (bilinear), as a small photo wrapped in a
// page is rendered for OCR.
func upscale(img *image.Gray, k int) *image.Gray {
	b := img.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dx()*k, b.Dy()*k))
	for y := 0; y < out.Rect.Dy(); y++ {
		for x := 0; x < out.Rect.Dx(); x++ {
			fx, fy := min(float64(x)/float64(k), float64(b.Dx()-1)), min(float64(y)/float64(k), float64(b.Dy()-1))
			x0, y0 := int(fx), int(fy)
			x1, y1 := min(x0+1, b.Dx()-1), min(y0+1, b.Dy()-1)
			at := func(x, y int) float64 { return float64(img.Pix[y*img.Stride+x]) }
			ax, ay := fx-float64(x0), fy-float64(y0)
			v := (at(x0, y0)*(1-ax)+at(x1, y0)*ax)*(1-ay) + (at(x0, y1)*(1-ax)+at(x1, y1)*ax)*ay
			out.Pix[y*out.Stride+x] = uint8(v + 0.5)
		}
	}
	return out
}

// A photo of a real page: page 28 of the French thesis (a page of body
// text) rendered at 150 DPI, photographed turned 5 degrees in
// perspective and uneven light, read in French plain and straightened,
// against the page's own text layer.
func TestPhotoOfThesisPage(t *testing.T) {
	data, err := os.ReadFile(testpdf.SharedPDF(t, "schutz2017_these_microbiote_mucoviscidose_fr.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := pdf.Open(data, pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.Page(28)
	if err != nil {
		t.Fatal(err)
	}
	src, err := d.Render(28, 150)
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	img, err := photo.Grey(photo.Take(src, 1800, 2400, photo.Shot{Angle: 5, Keystone: 0.07, Dim: 0.45, Noise: 6, Quality: 80, Seed: 31}).JPEG)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ocr.NewPool(ocr.Config{Workers: 1, Languages: []string{"fra"}})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	ctx := context.Background()
	plain, err := rec.Recognize(ctx, img, ocr.Hints{DPI: 150})
	if err != nil {
		t.Fatal(err)
	}
	st, err := straighten.Page(ctx, img, 150)
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := rec.Recognize(ctx, st.Image, ocr.Hints{DPI: int(st.DPI)})
	if err != nil {
		t.Fatal(err)
	}
	ref := ocr.Normalize(p.Text)
	before, after := ocr.CER(ref, ocr.Normalize(plain.Text)), ocr.CER(ref, ocr.Normalize(fixed.Text))
	t.Logf("thesis page 28 (%d characters): CER plain %.3f (confidence %.2f), straightened %.3f (confidence %.2f)",
		len([]rune(ref)), before, plain.Confidence, after, fixed.Confidence)
	if after > 0.05 || after > before {
		t.Errorf("straightened CER %.3f (plain %.3f), want at most 0.05", after, before)
	}
}
