package sandbox

import (
	"context"
	"strings"
	"testing"
	"time"

	"vika/backend/ingest"
	"vika/backend/message"
	"vika/backend/testpdf"
	"vika/backend/testpdf/scanned"
)

const scannedText = "The quick brown fox jumps over the lazy dog. Probabilistic counting with stochastic averaging."

// twoScans is a PDF of two pages, each an image of text without text layer.
func twoScans(t *testing.T) []byte {
	png := scanned.PNG(t, scannedText)
	fig := []testpdf.Figure{{X: 0, Y: 0, W: 595, H: 842, PNG: png}}
	return testpdf.Illustrations(testpdf.Illustrated{Figures: fig}, testpdf.Illustrated{Figures: fig})
}

// mixed is a page of text with a figure that is a picture of text.
func mixed(t *testing.T) []byte {
	png := scanned.PNG(t, scannedText)
	return testpdf.Illustrations(testpdf.Illustrated{
		Body:    "This page has a text layer and a figure whose words are only pixels. " + testpdf.Words("body", 40),
		Figures: []testpdf.Figure{{X: 50, Y: 300, W: 500, H: 400, PNG: png}},
	})
}

func runOCR(t *testing.T, o *Opener, name string, data []byte) ingest.Result {
	t.Helper()
	res, err := ingest.Run(context.Background(), name, data, ingest.Options{Opener: o, OCRParallel: o.Config().Workers}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Scanned pages are OCRed in the workers, two at a time.
func TestOCRScannedPages(t *testing.T) {
	o := newOpener(t, Config{})
	res := runOCR(t, o, "scan.pdf", twoScans(t))
	if res.Doc.OCRPages != 2 || len(res.Doc.FailedPages) != 0 {
		t.Fatalf("doc %+v, want 2 pages OCRed", res.Doc)
	}
	for _, p := range res.Pages {
		if !strings.Contains(strings.ToLower(p.Text), "quick brown fox") || p.OCRConfidence == nil {
			t.Errorf("page %d OCR text %q", p.Number, p.Text)
		}
	}
}

// OCR over its budget fails the scanned page with a specific message;
// the worker is replaced and the other page is OCRed.
func TestOCRTimeoutFailsScannedPage(t *testing.T) {
	o := newOpener(t, Config{OCRTimeout: 8 * time.Second})
	o.fault = func(op string, page int) string {
		if op == opOCR && page == 1 {
			return "hang"
		}
		return ""
	}
	start := time.Now()
	res := runOCR(t, o, "scan.pdf", twoScans(t))
	if took := time.Since(start); took > 40*time.Second {
		t.Errorf("took %v", took)
	}
	if res.Doc.OCRPages != 1 || len(res.Doc.FailedPages) != 1 || res.Doc.FailedPages[0] != 1 {
		t.Fatalf("doc %+v, want page 1 failed and page 2 OCRed", res.Doc)
	}
	if why := res.Pages[0].Problem; why == nil || why.Code != message.PageOCRTimeout || !strings.Contains(why.English(), "OCR of page 1 took too long") {
		t.Errorf("page 1 problem %+v", why)
	}
	if !strings.Contains(strings.ToLower(res.Pages[1].Text), "quick brown fox") {
		t.Errorf("page 2 text %q", res.Pages[1].Text)
	}
}

// OCR that crashes on a mixed page keeps its text layer, without error;
// a scanned page whose OCR crashes fails with the reason.
func TestOCRCrash(t *testing.T) {
	o := newOpener(t, Config{})
	o.fault = func(op string, page int) string {
		if op == opOCR {
			return "crash"
		}
		return ""
	}
	res := runOCR(t, o, "mixed.pdf", mixed(t))
	p := res.Pages[0]
	if p.Type != "mixed" {
		t.Fatalf("page type %s, want mixed (the test needs a figure holding text)", p.Type)
	}
	if p.Failed() || !strings.Contains(p.Text, "text layer") || strings.Contains(strings.ToLower(p.Text), "quick brown") {
		t.Errorf("mixed page after an OCR crash: problem %+v, text %q", p.Problem, p.Text)
	}
	o.fault = func(op string, page int) string {
		if op == opOCR && page == 1 {
			return "crash"
		}
		return ""
	}
	res = runOCR(t, o, "scan.pdf", twoScans(t))
	if why := res.Pages[0].Problem; why == nil || why.Code != message.PageOCRCrashed || !strings.Contains(why.English(), "OCR of page 1 crashed the reader") {
		t.Errorf("scanned page problem %+v", why)
	}
	if res.Doc.OCRPages != 1 {
		t.Errorf("%d pages OCRed, want page 2's", res.Doc.OCRPages)
	}
}

// Without faults the mixed page gets its figure's text.
func TestOCRMixedPage(t *testing.T) {
	o := newOpener(t, Config{})
	p := runOCR(t, o, "mixed.pdf", mixed(t)).Pages[0]
	if p.Failed() || !strings.Contains(strings.ToLower(p.Text), "quick brown fox") || !strings.Contains(p.Text, "text layer") {
		t.Errorf("mixed page: problem %+v, text %q", p.Problem, p.Text)
	}
}
