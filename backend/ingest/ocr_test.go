package ingest

import (
	"context"
	"strings"
	"testing"
	"time"

	"vika/backend/message"
	"vika/backend/ocr"
	"vika/backend/testpdf"
	"vika/backend/testpdf/scanned"
)

// scan is a PDF of one page that is an image of text, without text layer.
func scan(t *testing.T) []byte {
	t.Helper()
	return testpdf.Illustrations(testpdf.Illustrated{Figures: []testpdf.Figure{{X: 0, Y: 0, W: 595, H: 842, PNG: scanned.PNG(t, "The quick brown fox jumps over the lazy dog.")}}},
		testpdf.Illustrated{Body: "A second page with its text layer."})
}

func newPool(t *testing.T) *ocr.Pool {
	t.Helper()
	p, err := ocr.NewPool(ocr.Config{Workers: 1})
	if err != nil {
		t.Fatalf("Tesseract: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// In process, a scanned page is OCRed, one image at a time.
func TestOCRInProcess(t *testing.T) {
	res, err := Run(context.Background(), "scan.pdf", scan(t), Options{OCR: newPool(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Doc.OCRPages != 1 || !strings.Contains(strings.ToLower(res.Pages[0].Text), "quick brown fox") {
		t.Errorf("doc %+v, page 1 %q", res.Doc, res.Pages[0].Text)
	}
}

// OCR over its budget fails the scanned page with the reason and keeps
// the rest of the document.
func TestOCRTimeoutInProcess(t *testing.T) {
	start := time.Now()
	res, err := Run(context.Background(), "scan.pdf", scan(t), Options{OCR: newPool(t), OCRTimeout: time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %v", took)
	}
	if p := res.Pages[0]; p.Problem == nil || p.Problem.Code != message.PageOCRFailed ||
		!strings.HasPrefix(p.Problem.English(), "OCR failed: cannot render the page for OCR: page 1 took too long") {
		t.Errorf("page 1 problem %+v", p.Problem)
	}
	if p := res.Pages[1]; p.Failed() || !strings.Contains(p.Text, "second page") {
		t.Errorf("page 2: %+v", p)
	}
}
