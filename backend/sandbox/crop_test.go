package sandbox

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"testing"
	"time"

	"vika/backend/ingest"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// TestCropInWorker: a crop is rendered in a worker as a PNG of the
// region at the dpi asked; a page that does not exist is an error; a
// worker that crashes or hangs while cropping costs that crop only, and
// the next crop is served by a fresh worker.
func TestCropInWorker(t *testing.T) {
	o := newOpener(t, Config{PageTimeout: 2 * time.Second})
	ctx := context.Background()
	r, err := o.Open(ctx, testpdf.Text("A formula: y = f(x) + e, set in the middle of the page."), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c, ok := r.(ingest.Cropper)
	if !ok {
		t.Fatal("the sandbox's reader does not crop")
	}
	b, err := c.Crop(ctx, 1, pdf.Rect{X0: 50, Y0: 40, X1: 350, Y1: 100}, 300)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w < 1248 || w > 1252 || h < 248 || h > 252 {
		t.Errorf("crop %dx%d, want 1250x250 (300 x 60 pt at 300 dpi)", w, h)
	}
	if _, err := c.Crop(ctx, 9, pdf.Rect{X0: 0, Y0: 0, X1: 10, Y1: 10}, 300); !errors.Is(err, pdf.ErrPage) {
		t.Errorf("page 9 of 1: %v", err)
	}

	// Workers honour faults only when started for a test that sets them.
	var fault string
	o2 := newOpener(t, Config{PageTimeout: 2 * time.Second})
	o2.fault = func(op string, _ int) string {
		if op == opCrop {
			return fault
		}
		return ""
	}
	r2, err := o2.Open(ctx, testpdf.Text("A formula: y = f(x) + e."), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	c2 := r2.(ingest.Cropper)
	for _, f := range []string{"crash", "hang"} {
		fault = f
		start := time.Now()
		if _, err := c2.Crop(ctx, 1, pdf.Rect{X0: 50, Y0: 40, X1: 350, Y1: 100}, 300); err == nil {
			t.Errorf("%s: no error", f)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("%s: took %v with a 2 s budget", f, took)
		}
		fault = ""
		if b, err := c2.Crop(ctx, 1, pdf.Rect{X0: 50, Y0: 40, X1: 350, Y1: 100}, 150); err != nil || len(b) == 0 {
			t.Errorf("after a %s: %v", f, err)
		}
	}
}
