package pdf_test

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"os"
	"testing"

	"vika/backend/corpus"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// TestScanPPI reads the resolution of a scan's image as drawn: made
// scans of known pixel sizes on an A4 page (595 pt wide: 1653 pixels are
// 200 ppi), and the two shared scans (the made French one at its 204 ppi,
// the 1985 one at 300).
func TestScanPPI(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		want float64
	}{
		{1653, 2339, 200}, // 1653*72/595 = 200.0, 2339*72/842 = 200.0
		{2480, 3508, 300},
		{1240, 2339, 150}, // the coarser side counts
	} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, tc.w, tc.h))); err != nil {
			t.Fatal(err)
		}
		data, err := testpdf.SharedScan(1, buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		p := firstPage(t, data)
		if p.Class.Type != corpus.PageScanned {
			t.Fatalf("%dx%d: page type %v, want scanned", tc.w, tc.h, p.Class.Type)
		}
		if math.Abs(p.Class.ScanPPI-tc.want) > 0.5 {
			t.Errorf("%dx%d on A4: ScanPPI = %.2f, want %.0f", tc.w, tc.h, p.Class.ScanPPI, tc.want)
		}
	}
	if p := firstPage(t, testpdf.Text("no image here")); p.Class.ScanPPI != 0 {
		t.Errorf("text page: ScanPPI = %v, want 0", p.Class.ScanPPI)
	}
	for _, tc := range []struct {
		file     string
		min, max float64
	}{
		{"schutz2017_these_p20-22_SCANNED_MADE_fr.pdf", 203, 205},
		{"flajolet_martin1985_probabilistic_counting_SCANNED.pdf", 299, 301},
	} {
		data, err := os.ReadFile(testpdf.SharedPDF(t, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		p := firstPage(t, data)
		if p.Class.ScanPPI < tc.min || p.Class.ScanPPI > tc.max {
			t.Errorf("%s: ScanPPI = %.2f, want %.0f-%.0f", tc.file, p.Class.ScanPPI, tc.min, tc.max)
		}
	}
}

func firstPage(t *testing.T, data []byte) pdf.Page {
	t.Helper()
	d, err := pdf.Open(data, pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
