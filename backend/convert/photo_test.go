package convert

import (
	"context"
	"testing"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/ocr"
	"vika/backend/pdf"
	"vika/backend/testpdf"
	"vika/backend/testpdf/photo"
)

// A phone photo of a page (JPEG, turned 6 degrees, in perspective,
// unevenly lit, noisy) added as a file is one scanned page: converted by
// the worker, read by OCR straightened within 5% CER of the page's own
// text, its lines placed on the photo where the page's lines were.
func TestPhotoAsDocument(t *testing.T) {
	d, err := pdf.Open(testpdf.Text(photo.Lecture), pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	orig, err := d.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	render, err := d.Render(1, 150)
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	ph := photo.Take(render, 2250, 3000, photo.Shot{Angle: 6, Keystone: 0.08, Dim: 0.45, Noise: 7, Quality: 75, Seed: 21})
	c, o := imageConverter(t)
	conv, err := c.ToPDF(context.Background(), "photo.jpg", ph.JPEG)
	if err != nil {
		t.Fatal(err)
	}
	if conv.Format.ID != "jpeg" {
		t.Fatalf("format %q", conv.Format.ID)
	}
	res, err := ingest.Run(context.Background(), "photo.jpg", conv.PDF, ingest.Options{Opener: o}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 1 {
		t.Fatalf("%d pages", len(res.Pages))
	}
	p := res.Pages[0]
	cer := ocr.CER(ocr.Normalize(orig.Text), ocr.Normalize(p.Text))
	t.Logf("page of %.0f x %.0f pt, %s, CER %.3f, confidence %.2f", p.Width, p.Height, p.Type, cer, *p.OCRConfidence)
	if p.Type != corpus.PageScanned || cer > 0.05 {
		t.Fatalf("page %s read at CER %.3f:\n%s", p.Type, cer, p.Text)
	}
	if res.Doc.Warning != nil {
		t.Errorf("warning %+v", res.Doc.Warning)
	}
	toPage := ph.PageToPhoto.Inverse()
	k := float64(ph.Width) / p.Width
	placed := 0
	for _, l := range p.Lines {
		x, y := toPage.Apply((l.BBox[0]+l.BBox[2])/2*k, (l.BBox[1]+l.BBox[3])/2*k)
		x, y = x*72/150, y*72/150
		for _, ol := range orig.Lines() {
			if x >= ol.BBox.X0-2 && x <= ol.BBox.X1+2 && y >= ol.BBox.Y0-2 && y <= ol.BBox.Y1+2 {
				placed++
				break
			}
		}
	}
	if len(p.Lines) == 0 || placed < len(p.Lines) {
		t.Errorf("%d of %d OCR lines placed on the page's lines in the photo", placed, len(p.Lines))
	}
}
