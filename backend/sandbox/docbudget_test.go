package sandbox

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"vika/backend/ingest"
	"vika/backend/message"
	"vika/backend/pdf"
	"vika/backend/testpdf"
	"vika/backend/testpdf/scanned"
)

// sharedScan is a file of n scanned pages drawing one picture of text.
func sharedScan(t *testing.T, n int) []byte {
	t.Helper()
	data, err := testpdf.SharedScan(n, scanned.PNG(t, scannedText))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestOCRStopsWhenTheDocumentFails: every OCR of a 12-page scan crashes
// its worker, so the document fails at the third crash; no page is sent
// to OCR after that (the one in flight on the other worker aside). The
// old code kept dispatching all 12 pages, each crashing a fresh worker.
func TestOCRStopsWhenTheDocumentFails(t *testing.T) {
	o := newOpener(t, Config{})
	var mu sync.Mutex
	sent := 0
	o.fault = func(op string, page int) string {
		if op != opOCR {
			return ""
		}
		mu.Lock()
		sent++
		mu.Unlock()
		return "crash"
	}
	_, err := ingest.Run(context.Background(), "scan.pdf", sharedScan(t, 12), ingest.Options{Opener: o, OCRParallel: 2}, nil)
	if !errors.Is(err, ingest.ErrReader) {
		t.Fatalf("err %v, want ErrReader", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if max := DefaultMaxFailures + 1; sent > max {
		t.Errorf("%d pages sent to OCR, want at most %d (the document fails at crash %d)", sent, max, DefaultMaxFailures)
	}
}

// TestDocTimeBudget: a 160-page scan under a document budget of 3 s is
// added at the budget with the pages read so far; the pages not OCRed are
// marked with a coded problem and the document with a coded warning, in
// well under the time its OCR would take. (Its pages are one small image:
// an idle machine here OCRs 40 of them in 4.8 s, two at a time, so 40
// pages under 6 s passed only while other tests loaded the CPUs.)
func TestDocTimeBudget(t *testing.T) {
	o := newOpener(t, Config{})
	const budget, pages = 3 * time.Second, 160
	start := time.Now()
	res, err := ingest.Run(context.Background(), "scan.pdf", sharedScan(t, pages), ingest.Options{Opener: o, OCRParallel: 2, Budget: ingest.Budget{DocTime: budget}}, nil)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if took > budget+10*time.Second {
		t.Errorf("took %v, the document's budget is %v", took, budget)
	}
	cut := 0
	for _, p := range res.Pages {
		if p.Problem != nil && p.Problem.Code == message.PageDocBudget {
			cut++
		}
	}
	w := res.Doc.Warning
	if cut == 0 || w == nil || w.Code != message.DocBudget || w.Params["pages"] != cut {
		t.Fatalf("%d pages marked, warning %+v", cut, w)
	}
	if res.Doc.OCRPages+cut != pages {
		t.Errorf("%d pages OCRed and %d marked, want %d in all", res.Doc.OCRPages, cut, pages)
	}
	t.Logf("%v: %d pages OCRed, %d marked", took, res.Doc.OCRPages, cut)
}

// TestOCRPageCap: with a cap of 3 OCR pages, a 5-page scan has pages 4
// and 5 marked, not OCRed, and a coded warning.
func TestOCRPageCap(t *testing.T) {
	o := newOpener(t, Config{})
	res, err := ingest.Run(context.Background(), "scan.pdf", sharedScan(t, 5), ingest.Options{Opener: o, OCRParallel: 2, Budget: ingest.Budget{OCRPages: 3}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Doc.OCRPages != 3 {
		t.Errorf("%d pages OCRed, want 3", res.Doc.OCRPages)
	}
	for _, n := range []int{4, 5} {
		if p := res.Pages[n-1].Problem; p == nil || p.Code != message.PageOCRCap {
			t.Errorf("page %d problem %+v, want %s", n, p, message.PageOCRCap)
		}
	}
	if w := res.Doc.Warning; w == nil || w.Code != message.OCRCap || w.Params["pages"] != 2 {
		t.Errorf("warning %+v", w)
	}
}

// TestDocumentCPUIsCounted: the reader reports the CPU its workers spent
// on the document's pages and OCR.
func TestDocumentCPUIsCounted(t *testing.T) {
	o := newOpener(t, Config{})
	r, err := o.Open(context.Background(), sharedScan(t, 2), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.OCR(context.Background(), ingest.OCRTarget{Page: 1, Full: true}); err != nil {
		t.Fatal(err)
	}
	if cpu := r.(ingest.CPUCounter).CPU(); cpu <= 0 {
		t.Errorf("CPU %v after an OCR", cpu)
	}
}

// TestBloatedWorkerRetired: a page that leaves its worker 300 MB bigger
// gets that worker ended after the page, not reused for the next page or
// the next document (before, it was kept while under half its CPU time).
func TestBloatedWorkerRetired(t *testing.T) {
	o := newOpener(t, Config{Workers: 1, RetireRSS: 200 << 20})
	o.fault = func(op string, page int) string {
		if op == opPage && page == 1 {
			return "bloat"
		}
		return ""
	}
	r, err := o.Open(context.Background(), testpdf.Text("one", "two"), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Page(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	rd := r.(*reader)
	rd.mu.Lock()
	idle := len(rd.idle)
	rd.mu.Unlock()
	if idle != 0 {
		t.Errorf("%d bloated workers kept for the next page", idle)
	}
	if _, err := r.Page(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	r.Close()
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.spare) != 1 || o.spare[0].rss > 200<<20 {
		t.Errorf("spare workers %d, want the fresh one only", len(o.spare))
	}
}

// TestCropBudgetInWorkers: through the workers, the figures past the
// document's crop budget come without crops (the workers are told to stop
// making them), and the warning counts them all.
func TestCropBudgetInWorkers(t *testing.T) {
	o := newOpener(t, Config{})
	res, err := ingest.Run(context.Background(), "figures.pdf", testpdf.SharedFigures(4, 8), ingest.Options{Opener: o, Regions: true, Budget: ingest.Budget{DocCropBytes: 1 << 20}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kept, bytes := 0, 0
	for _, p := range res.Pages {
		for _, r := range p.Regions {
			if len(r.Image) > 0 {
				kept++
				bytes += len(r.Image)
			}
		}
	}
	if bytes > 1<<20 || kept == 0 {
		t.Errorf("%d crops, %d bytes, want some within 1 MiB", kept, bytes)
	}
	if w := res.Doc.Warning; w == nil || w.Code != message.RegionBudget || w.Params["crops"] != 32-kept {
		t.Errorf("warning %+v, want %d figures without their crop", w, 32-kept)
	}
	if !res.Pages[3].Failed() && res.Pages[3].Regions[0].Image != nil {
		t.Errorf("the last page's figures were cropped after the budget was spent")
	}
}

// TestWorkerWordNotTaken: a worker that claims a billion pages when it
// opens a document is refused (the page limit is checked on its answer),
// and page numbers it puts in its page replies (the page, its OCR target,
// its regions) are replaced by the app's own.
func TestWorkerWordNotTaken(t *testing.T) {
	o := newOpener(t, Config{})
	o.fault = func(op string, page int) string {
		if op == opOpen {
			return "lie"
		}
		return ""
	}
	_, err := o.Open(context.Background(), testpdf.Text("one"), ingest.Options{Limits: pdf.Limits{MaxPages: 100}})
	if !errors.Is(err, pdf.ErrCorrupt) || !strings.Contains(err.Error(), "reported 1073741824 pages") {
		t.Fatalf("open with a worker claiming a billion pages: %v", err)
	}

	o.fault = func(op string, page int) string {
		if op == opPage {
			return "lie"
		}
		return ""
	}
	res, err := ingest.Run(context.Background(), "mixed.pdf", sharedScan(t, 2), ingest.Options{Opener: o, Regions: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range res.Pages {
		if p.Number != i+1 {
			t.Errorf("page %d numbered %d", i+1, p.Number)
		}
		for _, r := range p.Regions {
			if r.Page != i+1 {
				t.Errorf("a region of page %d placed on page %d", i+1, r.Page)
			}
		}
	}
	if res.Doc.OCRPages != 2 {
		t.Errorf("%d pages OCRed, want the 2 scanned pages (OCR targets renumbered)", res.Doc.OCRPages)
	}
}
