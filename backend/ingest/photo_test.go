package ingest

import (
	"context"
	"testing"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/ocr"
	"vika/backend/pdf"
	"vika/backend/testpdf"
	"vika/backend/testpdf/photo"
)

// photoDoc photographs the lecture page (rendered at 150 DPI) as shot
// into an A4-shaped picture of 1700 x 2404 pixels and wraps it as the
// only page of a PDF without a text layer, as a scanned page. It returns
// the PDF, the photo and the page as parsed from its text layer.
func photoDoc(t *testing.T, shot photo.Shot) ([]byte, photo.Photo, pdf.Page) {
	t.Helper()
	d, err := pdf.Open(testpdf.Text(photo.Lecture), pdf.Limits{})
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
	ph := photo.Take(img, 1700, 2404, shot)
	png, err := photo.PNG(ph.JPEG)
	if err != nil {
		t.Fatal(err)
	}
	return testpdf.Illustrations(testpdf.Illustrated{Figures: []testpdf.Figure{{X: 0, Y: 0, W: 595, H: 842, PNG: png}}}), ph, orig
}

// A photo of a page, turned, in perspective, unevenly lit and noisy, is
// read through the whole ingest path within 5% CER, without a poor-text
// warning, and its lines are placed on the photo (the page the viewer
// shows) where the page's own lines were photographed.
func TestPhotoIngested(t *testing.T) {
	for _, tt := range []struct {
		name string
		shot photo.Shot
	}{
		{"turned 6", photo.Shot{Angle: 6, Keystone: 0.08, Dim: 0.45, Noise: 7, Quality: 75, Seed: 11}},
		{"upside down, turned 185", photo.Shot{Angle: 185, Keystone: 0.06, Dim: 0.3, Noise: 5, Seed: 12}},
		{"sideways the other way, turned -87 (a quarter turn, then upside down)", photo.Shot{Angle: -87, Keystone: 0.05, Dim: 0.3, Noise: 5, Fill: 0.6, Seed: 13}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data, ph, orig := photoDoc(t, tt.shot)
			res, err := Run(context.Background(), "photo.pdf", data, Options{OCR: newPool(t)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			p := res.Pages[0]
			cer := ocr.CER(ocr.Normalize(orig.Text), ocr.Normalize(p.Text))
			t.Logf("CER %.3f, confidence %.2f", cer, *p.OCRConfidence)
			if p.Type != corpus.PageScanned || cer > 0.05 {
				t.Fatalf("page %s read at CER %.3f:\n%s", p.Type, cer, p.Text)
			}
			if res.Doc.Warning != nil {
				t.Errorf("warning %+v on a page read well", res.Doc.Warning)
			}
			// Page points of the wrapper -> photo pixels -> the page
			// picture's pixels at 150 DPI -> its text layer's points.
			toPage := ph.PageToPhoto.Inverse()
			k := float64(ph.Width) / 595
			placed := 0
			for _, l := range p.Lines {
				x, y := toPage.Apply((l.BBox[0]+l.BBox[2])/2*k, (l.BBox[1]+l.BBox[3])/2*k)
				x, y = x*72/150, y*72/150
				for _, o := range orig.Lines() {
					if x >= o.BBox.X0-2 && x <= o.BBox.X1+2 && y >= o.BBox.Y0-2 && y <= o.BBox.Y1+2 {
						placed++
						break
					}
				}
			}
			if len(p.Lines) < len(orig.Lines())-1 || placed < len(p.Lines) {
				t.Errorf("%d of %d OCR lines placed on the photographed page's %d lines", placed, len(p.Lines), len(orig.Lines()))
			}
		})
	}
}

// A photo too blurred and small to read gets the poor-text warning
// naming its page.
func TestPhotoPoorWarning(t *testing.T) {
	d, err := pdf.Open(testpdf.Text(photo.Lecture), pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	img, err := d.Render(1, 40)
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	ph := photo.Take(img, 500, 707, photo.Shot{Angle: 3, Dim: 0.5, Noise: 12, Quality: 30, Seed: 13})
	png, err := photo.PNG(ph.JPEG)
	if err != nil {
		t.Fatal(err)
	}
	data := testpdf.Illustrations(testpdf.Illustrated{Figures: []testpdf.Figure{{X: 0, Y: 0, W: 595, H: 842, PNG: png}}})
	res, err := Run(context.Background(), "blurred.pdf", data, Options{OCR: newPool(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Pages[0]
	if p.OCRConfidence == nil {
		t.Fatalf("page not OCRed: %+v", p)
	}
	t.Logf("confidence %.2f, text %q", *p.OCRConfidence, p.Text)
	w := res.Doc.Warning
	if w == nil || w.Code != message.OCRPoor || w.Params["pages"] != "1" {
		t.Fatalf("warning = %+v; want %s on page 1", w, message.OCRPoor)
	}
}

// renderDPI renders a photo whose file claims 72 ppi at its own pixels
// (or fewer, to MaxOCRPixels), never upsampled to the OCR resolution.
func TestRenderDPIPhoto(t *testing.T) {
	for _, tt := range []struct {
		name string
		t    OCRTarget
		want float64
	}{
		{"A4 scan at 204 ppi", OCRTarget{Full: true, ScanPPI: 204, Width: 595, Height: 842}, 204},
		{"A4 scan at 150 ppi upsampled", OCRTarget{Full: true, ScanPPI: 150, Width: 595, Height: 842}, 300},
		{"12 MP photo at 72 ppi: its own pixels", OCRTarget{Full: true, ScanPPI: 72, Width: 4032, Height: 3024}, 72},
		{"48 MP photo at 72 ppi: A3 at 300 DPI", OCRTarget{Full: true, ScanPPI: 72, Width: 8064, Height: 6048}, 43},
		{"mixed page regions", OCRTarget{Width: 8064, Height: 6048}, 300},
	} {
		if got := renderDPI(tt.t, 300); got != tt.want {
			t.Errorf("%s: renderDPI = %v; want %v", tt.name, got, tt.want)
		}
		if tt.t.Full {
			px := tt.t.Width * tt.t.Height / (72 * 72) * tt.want * tt.want
			if px > MaxOCRPixels {
				t.Errorf("%s: %0.f pixels", tt.name, px)
			}
		}
	}
}
