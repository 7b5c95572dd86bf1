package engine

import (
	"bytes"
	"image/png"
	"slices"
	"testing"
	"time"

	"vika/backend/message"
	"vika/backend/pdf"
	"vika/backend/retrieve"
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

// TestLongDocumentsShareTheQueue: two slow scans (300 and 301 pages, some
// ten minutes of OCR each) added first take both reading places, at the
// default budgets (30 minutes a document); a small PDF added after them
// is searchable within 2 minutes while both are still being read,
// because a document that has read for its share (ingest.ReadShare) while
// another waits gives its place up. (Before the queue, the small PDF
// waited for a slow one to end: its OCR or its 30-minute budget.) The
// slow files are then cancelled, each within 2 s.
func TestLongDocumentsShareTheQueue(t *testing.T) {
	e := newEngine(t, Config{})
	r := newRecorder()
	slow := []string{e.StartBytes("slow1.pdf", slowScan(t, 300), r.progress), e.StartBytes("slow2.pdf", slowScan(t, 301), r.progress)}
	waitFor(t, "both slow files in OCR", func() bool {
		return slices.Contains(r.stages(slow[0]), StageOCR) && slices.Contains(r.stages(slow[1]), StageOCR)
	})
	start := time.Now()
	small := e.StartBytes("a.pdf", paperA, r.progress)
	deadline := time.Now().Add(2 * time.Minute)
	for !slices.Contains(r.stages(small), StageSearchable) {
		select {
		case p := <-r.final:
			if p.JobID != small || p.Stage != StageDone {
				t.Fatalf("a job ended before the small PDF was searchable: %+v", p)
			}
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the small PDF was not searchable within 2 minutes of two slow ones (stages %v; slow ones %v, %v)", r.stages(small), r.stages(slow[0]), r.stages(slow[1]))
		}
	}
	t.Logf("the small PDF was searchable %v after it was queued", time.Since(start))
	res, err := e.Search(t.Context(), retrieve.Query{Question: "quagga savannah"}, SearchOptions{Mode: retrieve.ModeBM25, K: 3})
	if err != nil || len(res.Hits) == 0 || res.Hits[0].File != "a.pdf" {
		t.Fatalf("search for the small PDF: %+v, %v", res.Hits, err)
	}
	for _, id := range slow {
		if st := r.stages(id); slices.ContainsFunc(st, func(s string) bool { return slices.Contains(TerminalStages, s) }) {
			t.Fatalf("slow file %s ended (%v): it should still be read", id, st)
		}
	}
	for _, id := range slow {
		cancelled := time.Now()
		if !e.Cancel(id) {
			t.Fatalf("Cancel(%s) = false", id)
		}
		for {
			p := r.wait(t)
			if p.JobID == small {
				continue
			}
			if took := time.Since(cancelled); took > 2*time.Second || p.JobID != id || p.Stage != StageCancelled {
				t.Errorf("after Cancel(%s): %+v in %v, want it cancelled within 2 s", id, p, took)
			}
			break
		}
	}
}
