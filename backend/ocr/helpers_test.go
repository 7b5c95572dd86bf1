package ocr

import (
	"context"
	"image"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	fitz "github.com/gen2brain/go-fitz"

	"vika/backend/testpdf"
)

// Real scans of the shared data set (../shared/data/pdfs, see its README).
const (
	frenchScan   = "schutz2017_these_p20-22_SCANNED_MADE_fr.pdf"
	frenchTruth  = "schutz2017_these_p20-22_SCANNED_MADE_fr.groundtruth.txt"
	flajoletScan = "flajolet_martin1985_probabilistic_counting_SCANNED.pdf"
)

// renderPDF renders pages (0-based; nil: all) of a PDF at dpi.
func renderPDF(t testing.TB, data []byte, dpi float64, pages []int) []image.Image {
	t.Helper()
	doc, err := fitz.NewFromMemory(data)
	if err != nil {
		t.Fatalf("open PDF: %v", err)
	}
	defer doc.Close()
	if pages == nil {
		for i := 0; i < doc.NumPage(); i++ {
			pages = append(pages, i)
		}
	}
	imgs := make([]image.Image, 0, len(pages))
	for _, n := range pages {
		img, err := doc.ImageDPI(n, dpi)
		if err != nil {
			t.Fatalf("render page %d: %v", n+1, err)
		}
		imgs = append(imgs, img)
	}
	return imgs
}

// renderShared renders pages of a shared PDF, skipping when it is absent.
func renderShared(t testing.TB, name string, dpi float64, pages []int) []image.Image {
	t.Helper()
	data, err := os.ReadFile(testpdf.SharedPDF(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return renderPDF(t, data, dpi, pages)
}

var pageCache sync.Map // body -> image.Image

// textPage renders body as an A4 page of 11 pt Helvetica at 300 DPI.
func textPage(t testing.TB, body string) image.Image {
	t.Helper()
	if img, ok := pageCache.Load(body); ok {
		return img.(image.Image)
	}
	img := renderPDF(t, testpdf.Text(body), 300, []int{0})[0]
	pageCache.Store(body, img)
	return img
}

// crop returns the top part of img, down to y (pixels).
func crop(img image.Image, y int) image.Image {
	b := img.Bounds()
	return img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Min.Y+y))
}

// pageMarker matches the "=== end page N ===" lines the ground truth file
// adds between pages: annotations of the file, not text of the scan.
var pageMarker = regexp.MustCompile(`=== end page \d+ ===`)

// frenchReference returns the ground truth of the French scan as is (raw)
// and without its page markers (clean).
func frenchReference(t testing.TB) (raw, clean string) {
	t.Helper()
	b, err := os.ReadFile(testpdf.SharedPDF(t, frenchTruth))
	if err != nil {
		t.Fatal(err)
	}
	raw = string(b)
	return raw, pageMarker.ReplaceAllString(raw, "")
}

// figureBox is the figure on page 3 of the French scan, as fractions of
// the page: a chart whose labels the ground truth lacks (pdftotext cannot
// see text inside the source's raster figure).
var figureBox = [4]float64{0.10, 0.538, 0.90, 0.765} // x0, y0, x1, y1

// maskFigure returns img in grey with figureBox painted white.
func maskFigure(img image.Image) image.Image {
	pix, w, h := gray(img)
	g := &image.Gray{Pix: pix, Stride: w, Rect: image.Rect(0, 0, w, h)}
	x0, y0 := int(figureBox[0]*float64(w)), int(figureBox[1]*float64(h))
	x1, y1 := int(figureBox[2]*float64(w)), int(figureBox[3]*float64(h))
	for y := y0; y < y1; y++ {
		row := g.Pix[y*w+x0 : y*w+x1]
		for i := range row {
			row[i] = 255
		}
	}
	return g
}

// recognizeAll recognises imgs with p, all at once, in page order.
func recognizeAll(t testing.TB, p *Pool, imgs []image.Image) []Result {
	t.Helper()
	out := make([]Result, len(imgs))
	errs := make([]error, len(imgs))
	var wg sync.WaitGroup
	for i, img := range imgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = p.Recognize(context.Background(), img, Hints{})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("page %d: %v", i+1, err)
		}
	}
	return out
}

func joinText(rs []Result) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.Text
	}
	return strings.Join(parts, "\n\f\n")
}

func meanConfidence(rs []Result) float64 {
	var sum float64
	var n int
	for _, r := range rs {
		sum += r.Confidence * float64(r.Words)
		n += r.Words
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
