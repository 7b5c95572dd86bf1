package pdf

import (
	"archive/zip"
	"bytes"
	"errors"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"
	"time"
)

func grayPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestWritePDF: an image is written as a one-page PDF (its own MuPDF
// context opens: write.h names the linked MuPDF's version), scaled down to
// maxSide, and the limits hold: pages, bytes, the deadline, bad bytes.
func TestWritePDF(t *testing.T) {
	img := grayPNG(t, 2000, 1000) // 1500 x 750 pt at MuPDF's 96 DPI default
	out, n, err := WritePDF(img, "png", MaxImageSide, Limits{}, time.Time{})
	if err != nil || n != 1 {
		t.Fatalf("WritePDF = %d pages, %v", n, err)
	}
	d, err := Open(out, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.Page(1)
	d.Close()
	if err != nil || math.Abs(p.Width-MaxImageSide) > 0.01 || math.Abs(p.Height-MaxImageSide/2) > 0.01 {
		t.Errorf("page %v x %v (%v), want %d x %d", p.Width, p.Height, err, MaxImageSide, MaxImageSide/2)
	}
	if _, _, err := WritePDF(img, "png", 0, Limits{MaxBytes: 1000}, time.Time{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("past MaxBytes: %v", err)
	}
	if _, _, err := WritePDF(img, "png", 0, Limits{}, time.Now().Add(-time.Second)); !errors.Is(err, ErrTimeout) {
		t.Errorf("past the deadline: %v", err)
	}
	if _, _, err := WritePDF([]byte("\x89PNG\r\n\x1a\nnot a png at all"), "png", 0, Limits{}, time.Time{}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a damaged PNG: %v", err)
	}
	if _, _, err := WritePDF(nil, "png", 0, Limits{}, time.Time{}); !errors.Is(err, ErrEmpty) {
		t.Errorf("no bytes: %v", err)
	}
	// An EPUB laid out over more pages than allowed.
	if _, _, err := WritePDF(longEPUB(t), "epub", 0, Limits{MaxPages: 2}, time.Time{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("an EPUB past MaxPages: %v", err)
	}
}

// longEPUB is an EPUB whose one chapter fills several A4 pages.
func longEPUB(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	add := func(name, body string, m uint16) {
		w, err := z.CreateHeader(&zip.FileHeader{Name: name, Method: m})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	add("mimetype", "application/epub+zip", zip.Store)
	add("META-INF/container.xml", `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="c.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`, zip.Deflate)
	add("c.opf", `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0"><metadata/><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="a"/></spine></package>`, zip.Deflate)
	add("a.xhtml", `<html xmlns="http://www.w3.org/1999/xhtml"><body>`+strings.Repeat("<p>A paragraph of a long chapter, long enough to fill pages.</p>", 400)+`</body></html>`, zip.Deflate)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
