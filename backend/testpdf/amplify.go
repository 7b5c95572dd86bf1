package testpdf

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"strings"
)

// SharedText returns a file of pages pages that all draw one form XObject
// holding about chars characters of text (1 pt Helvetica, lines of 1,000
// characters): the form is stored once, Flate-compressed, so the file
// stays small while each page, read alone, is within the worker's budget
// and the document amounts to pages x chars characters in the app.
func SharedText(pages, chars int) []byte {
	b := newBook()
	line := strings.Repeat("amplified words ", 1000/16+1)[:1000]
	var content strings.Builder
	content.WriteString("BT /F1 1 Tf 0 999 Td 0.8 TL\n")
	for n := 0; n < chars; n += len(line) {
		content.WriteString("T* (" + line + ") Tj\n")
	}
	content.WriteString("ET")
	z := deflate([]byte(content.String()))
	form := b.add(fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 612 1000] /Resources << /Font << /F1 3 0 R >> >> /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", len(z), z))
	res := fmt.Sprintf("/XObject << /T %d 0 R >>", form)
	contents := b.add("<< /Length 11 >>\nstream\nq /T Do Q\nendstream")
	var kids []int
	for range pages {
		kids = append(kids, b.pageWith("0 0 612 1000", contents, res))
	}
	return b.finish(kids...)
}

// SharedFigures returns a file of pages pages, each drawing perPage
// captioned figures ("Figure N. ...") in a grid, all of them one shared
// 600 x 600 grey image of noise: the image is stored once (hex, about
// 720 KB, incompressible), while each figure's crop is a PNG of some
// 400 KB, so the document amounts to pages x perPage x 400 KB of crops in
// the app (100 pages of 24 figures: about a gigabyte).
func SharedFigures(pages, perPage int) []byte {
	b := newBook()
	const side = 600
	noise := make([]byte, side*side)
	x := uint32(2463534242)
	for i := range noise {
		x ^= x << 13 // xorshift: deterministic noise
		x ^= x >> 17
		x ^= x << 5
		noise[i] = byte(x)
	}
	hex := fmt.Sprintf("%X>", noise)
	img := b.add(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /ASCIIHexDecode /Length %d >>\nstream\n%s\nendstream", side, side, len(hex), hex))
	const cols, cell, fig = 4, 330, 300 // points
	rows := (perPage + cols - 1) / cols
	const body = 260 // points of running text under the figures: the page reads as illustrated, not mixed
	w, h := cols*cell+40, rows*(cell+40)+40+body
	line := strings.Repeat("Running text beside the figures keeps this page a text page. ", 8)[:480]
	var kids []int
	n := 0
	for range pages {
		var content strings.Builder
		content.WriteString("BT /F1 5 Tf 20 " + fmt.Sprint(body) + " Td 6 TL\n")
		for range 40 {
			content.WriteString("T* (" + line + ") Tj\n")
		}
		content.WriteString("ET\n")
		for i := range perPage {
			n++
			x0, y0 := 20+(i%cols)*cell, h-20-(i/cols+1)*(cell+40)+40
			fmt.Fprintf(&content, "q %d 0 0 %d %d %d cm /Im Do Q\n", fig, fig, x0, y0)
			fmt.Fprintf(&content, "BT /F1 10 Tf %d %d Td (Figure %d. Noise drawn from the one shared image.) Tj ET\n", x0, y0-14, n)
		}
		kids = append(kids, b.page(fmt.Sprintf("0 0 %d %d", w, h), content.String(), fmt.Sprintf("/XObject << /Im %d 0 R >>", img)))
	}
	return b.finish(kids...)
}

// SharedScan returns a file of pages scanned pages (no text layer), all
// drawing one shared image: the picture of text in pngData (any PNG,
// stored once as 8-bit grey, Flate-compressed). Each page must be OCRed:
// thousands of them cost hours of OCR from a file of a few hundred KB.
func SharedScan(pages int, pngData []byte) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return nil, err
	}
	bd := img.Bounds()
	grey := make([]byte, 0, bd.Dx()*bd.Dy())
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			grey = append(grey, color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y)
		}
	}
	b := newBook()
	z := deflate(grey)
	im := b.add(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", bd.Dx(), bd.Dy(), len(z), z))
	contents := b.add("<< /Length 29 >>\nstream\nq 595 0 0 842 0 0 cm /Im Do Q\nendstream")
	res := fmt.Sprintf("/XObject << /Im %d 0 R >>", im)
	var kids []int
	for range pages {
		kids = append(kids, b.pageWith("0 0 595 842", contents, res))
	}
	return b.finish(kids...), nil
}
