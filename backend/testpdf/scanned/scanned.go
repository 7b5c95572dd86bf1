// Package scanned makes test PDFs whose pages are pictures of text, as a
// scanner makes them: each body is set as a page (package testpdf),
// rendered (package pdf) and placed as a full-page image without a text
// layer, so that only OCR can read it. It is a package of its own because
// package pdf's tests use testpdf.
package scanned

import (
	"bytes"
	"image/png"
	"testing"

	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// Course is a PDF of a page with a text layer (first) followed by one
// scanned page per body.
func Course(t testing.TB, first string, bodies ...string) []byte {
	t.Helper()
	pages := []testpdf.Illustrated{{Body: first}}
	for _, body := range bodies {
		pages = append(pages, testpdf.Illustrated{Figures: []testpdf.Figure{{X: 0, Y: 0, W: 595, H: 842, PNG: PNG(t, body)}}})
	}
	return testpdf.Illustrations(pages...)
}

// PNG is body set as an A4 page (testpdf.Text) rendered at 150 DPI.
func PNG(t testing.TB, body string) []byte {
	t.Helper()
	return Render(t, testpdf.Text(body), 150)
}

// Render is page 1 of the PDF data rendered at dpi, as a PNG.
func Render(t testing.TB, data []byte, dpi float64) []byte {
	t.Helper()
	d, err := pdf.Open(data, pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	img, err := d.Render(1, dpi)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
