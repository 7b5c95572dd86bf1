package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"maps"
	"slices"
	"testing"
	"time"

	"vika/backend/ocr"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// sizeRecognizer stands in for Tesseract in FuzzIngest: it checks the
// image it gets (never empty, never over pdf.MaxRenderPixels) and reports
// its size as text, so that the fuzzer spends its time in MuPDF.
type sizeRecognizer struct{}

func (sizeRecognizer) Recognize(ctx context.Context, img image.Image, _ ocr.Hints) (ocr.Result, error) {
	b := img.Bounds()
	if b.Empty() || b.Dx()*b.Dy() > pdf.MaxRenderPixels {
		return ocr.Result{}, fmt.Errorf("%w: %v", ocr.ErrImage, b)
	}
	return ocr.Result{Text: fmt.Sprintf("image %dx%d", b.Dx(), b.Dy()), Confidence: 1, Words: 2}, nil
}

// fuzzOptions: the worker's per-page budgets (smaller, so that the fuzzer
// runs many inputs), small limits, 300 DPI renders.
var fuzzOptions = Options{
	Limits:      pdf.Limits{MaxBytes: 1 << 20, MaxPages: 8},
	OCR:         sizeRecognizer{},
	OCRDPI:      300,
	PageTimeout: 250 * time.Millisecond,
	OCRTimeout:  time.Second,
}

// FuzzIngest runs the ingest path on arbitrary bytes: open, every page's
// layout and classification, 300 DPI renders of what needs OCR, language
// detection and chunking, within the worker's per-page budgets. It must
// not panic, hang or fail with an error that is not one of pdf's. Run it
// with
//
//	go test -run '^$' -fuzz FuzzIngest -fuzztime 3m ./backend/ingest/
func FuzzIngest(f *testing.F) {
	hostile := testpdf.HostileSet()
	for _, name := range slices.Sorted(maps.Keys(hostile)) {
		f.Add(hostile[name])
	}
	f.Add(testpdf.Text("Sampling theory studies estimators.", "Deuxième page, en français."))
	f.Add(testpdf.Illustrations(testpdf.Illustrated{
		Body:    "A page with a figure.",
		Figures: []testpdf.Figure{{X: 100, Y: 200, W: 300, H: 300, PNG: grayPNG()}},
	}))
	f.Fuzz(func(t *testing.T, data []byte) {
		const limit = 60 * time.Second
		watchdog := time.AfterFunc(limit, func() {
			panic(fmt.Sprintf("ingest: an input of %d bytes took more than %s (hang)", len(data), limit))
		})
		defer watchdog.Stop()
		res, err := Run(context.Background(), "fuzz.pdf", data, fuzzOptions, nil)
		if err != nil {
			for _, s := range []error{pdf.ErrEmpty, pdf.ErrNotPDF, pdf.ErrEncrypted, pdf.ErrCorrupt, pdf.ErrNoPages, pdf.ErrTooLarge} {
				if errors.Is(err, s) {
					return
				}
			}
			t.Fatalf("Run error %q wraps none of pdf's sentinels", err)
		}
		if len(res.Pages) != res.Doc.Pages || res.Doc.Pages > fuzzOptions.Limits.MaxPages {
			t.Fatalf("%d pages for a document of %d", len(res.Pages), res.Doc.Pages)
		}
	})
}

// grayPNG is a 200 x 200 picture of dark strokes on white, like a figure.
func grayPNG() []byte {
	img := image.NewGray(image.Rect(0, 0, 200, 200))
	for i := range img.Pix {
		img.Pix[i] = 255
		if x, y := i%200, i/200; y%20 < 3 && x%30 < 20 {
			img.Pix[i] = 20
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}
