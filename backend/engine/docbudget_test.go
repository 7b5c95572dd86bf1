package engine

import (
	"bytes"
	"image/png"
	"slices"
	"testing"
	"time"

	"vika/backend/message"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// slowScan is a file of n scanned pages sharing one picture of text: OCR
// of every page at about 2 s a page.
func slowScan(t *testing.T, n int) []byte {
	t.Helper()
	d, err := pdf.Open(testpdf.Text("The quick brown fox jumps over the lazy dog, page after page."), pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	img, err := d.Render(1, 150)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	data, err := testpdf.SharedScan(n, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDocBudgetFreesTheQueue: two slow scans (300 and 301 pages, some
// ten minutes of OCR each) take both job slots; a small PDF added after
// them is added within 2 minutes, because each slow file ends at its
// document budget (15 s) with a coded warning and the pages it read. A
// third slow file is then cancelled mid-OCR, within 2 s.
func TestDocBudgetFreesTheQueue(t *testing.T) {
	e := newEngine(t, Config{DocTime: 15 * time.Second})
	r := newRecorder()
	slow := []string{e.StartBytes("slow1.pdf", slowScan(t, 300), r.progress), e.StartBytes("slow2.pdf", slowScan(t, 301), r.progress)}
	waitFor(t, "both slow files in OCR", func() bool {
		return slices.Contains(r.stages(slow[0]), StageOCR) && slices.Contains(r.stages(slow[1]), StageOCR)
	})
	start := time.Now()
	small := e.StartBytes("a.pdf", paperA, r.progress)
	deadline := time.After(2 * time.Minute)
	finals := map[string]Progress{}
	for finals[small].Stage == "" {
		select {
		case p := <-r.final:
			finals[p.JobID] = p
		case <-deadline:
			t.Fatalf("the small PDF was not added within 2 minutes of two slow ones (finals %+v)", finals)
		}
	}
	t.Logf("the small PDF was added %v after it was queued", time.Since(start))
	if p := finals[small]; p.Stage != StageDone {
		t.Fatalf("small PDF: %+v", p)
	}
	// A slow file is added with the pages OCRed within its budget or, on
	// a machine so busy that none was, fails with the budget's code.
	for _, id := range slow {
		p, ok := finals[id]
		if ok && p.Stage != StageDone && (p.Stage != StageFailed || p.Problem == nil || p.Problem.Code != message.DocTimeOut) {
			t.Errorf("slow file %s: %+v, want added at its budget or failed with %s", id, p, message.DocTimeOut)
		}
	}
	docs, err := e.Documents(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if d.File != "a.pdf" && (d.Warning == nil || d.Warning.Code != "ingest.doc_budget") {
			t.Errorf("%s: warning %+v, want ingest.doc_budget", d.File, d.Warning)
		}
	}

	third := e.StartBytes("slow3.pdf", slowScan(t, 302), r.progress)
	waitFor(t, "the third slow file in OCR", func() bool { return slices.Contains(r.stages(third), StageOCR) })
	time.Sleep(time.Second)
	cancelled := time.Now()
	if !e.Cancel(third) {
		t.Fatal("Cancel = false")
	}
	for {
		p := r.wait(t)
		if p.JobID != third {
			continue
		}
		if took := time.Since(cancelled); took > 2*time.Second || p.Stage != StageCancelled {
			t.Errorf("after Cancel: %+v in %v, want cancelled within 2 s", p, took)
		}
		break
	}
}
