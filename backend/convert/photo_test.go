package convert

import (
	"context"
	"encoding/binary"
	"image"
	"testing"

	"vika/backend/corpus"
	"vika/backend/imagehead"
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

// multiTIFF chains grey pages as the frames of one uncompressed TIFF, as
// a scanner's multi-page TIFF.
func multiTIFF(pages []*image.Gray) []byte {
	le := binary.LittleEndian
	out := []byte("II*\x00\x00\x00\x00\x00")
	prev := 4 // where the offset of the next frame goes
	for _, p := range pages {
		w, h := p.Rect.Dx(), p.Rect.Dy()
		pix := len(out)
		for y := 0; y < h; y++ {
			out = append(out, p.Pix[y*p.Stride:y*p.Stride+w]...)
		}
		if len(out)%2 == 1 {
			out = append(out, 0)
		}
		le.PutUint32(out[prev:], uint32(len(out)))
		entries := [][3]uint32{{256, 4, uint32(w)}, {257, 4, uint32(h)}, {258, 3, 8}, {259, 3, 1}, {262, 3, 1},
			{273, 4, uint32(pix)}, {277, 3, 1}, {278, 4, uint32(h)}, {279, 4, uint32(w * h)}}
		ifd := make([]byte, 2+12*len(entries)+4)
		le.PutUint16(ifd, uint16(len(entries)))
		for i, e := range entries {
			b := ifd[2+12*i:]
			le.PutUint16(b, uint16(e[0]))
			le.PutUint16(b[2:], uint16(e[1]))
			le.PutUint32(b[4:], 1)
			if e[1] == 3 {
				le.PutUint16(b[8:], uint16(e[2]))
			} else {
				le.PutUint32(b[8:], e[2])
			}
		}
		prev = len(out) + len(ifd) - 4
		out = append(out, ifd...)
	}
	return out
}

// A multi-page TIFF (a scanner's) is a document of one scanned page per
// frame, each read by OCR.
func TestMultiPageTIFF(t *testing.T) {
	bodies := []string{"The first page is about sampling.", "The second page is about estimation.", "The third page is about confidence intervals."}
	var pages []*image.Gray
	for _, b := range bodies {
		d, err := pdf.Open(testpdf.Text(b), pdf.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		img, err := d.RenderRegion(1, pdf.Rect{X0: 0, Y0: 0, X1: 595, Y1: 200}, 200)
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, img)
	}
	data := multiTIFF(pages)
	if h, err := imagehead.Check(data); err != nil || h.Frames != 3 {
		t.Fatalf("header %+v, %v", h, err)
	}
	c, o := imageConverter(t)
	conv, err := c.ToPDF(context.Background(), "scan.tiff", data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Run(context.Background(), "scan.tiff", conv.PDF, ingest.Options{Opener: o}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 3 {
		t.Fatalf("%d pages, want 3", len(res.Pages))
	}
	for i, p := range res.Pages {
		if p.Type != corpus.PageScanned || ocr.CER(bodies[i], ocr.Normalize(p.Text)) > 0.05 {
			t.Errorf("page %d: %s %q, want %q", i+1, p.Type, p.Text, bodies[i])
		}
	}
}
