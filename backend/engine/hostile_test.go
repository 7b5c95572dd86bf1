package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"vika/backend/testpdf"
)

// fanOut is a page whose forms fan out 10 wide and 12 deep: without a
// budget MuPDF reads it for days.
var fanOut = testpdf.FanOut(10, 12)

// Cancelling a job stuck in a page returns within 2 s, and the next
// document is added normally.
func TestCancelMidPage(t *testing.T) {
	e := newEngine(t, Config{PageTimeout: time.Hour})
	r := newRecorder()
	id := e.StartBytes("fanout.pdf", fanOut, r.progress)
	waitFor(t, "the job extracting", func() bool { return slices.Contains(r.stages(id), StageExtracting) })
	time.Sleep(500 * time.Millisecond) // page 1 takes milliseconds: the worker is in page 2
	start := time.Now()
	if !e.Cancel(id) {
		t.Fatal("Cancel = false")
	}
	p := r.wait(t)
	if took := time.Since(start); took > 2*time.Second || p.Stage != StageCancelled {
		t.Errorf("after Cancel: %+v in %v, want cancelled within 2 s", p, took)
	}
	mustAdd(t, e, "a.pdf", paperA)
}

// Close with a job stuck in a page returns within 2 s.
func TestCloseWithStuckJob(t *testing.T) {
	e, err := New(context.Background(), Config{PageTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder()
	id := e.StartBytes("fanout.pdf", fanOut, r.progress)
	waitFor(t, "the job extracting", func() bool { return slices.Contains(r.stages(id), StageExtracting) })
	time.Sleep(500 * time.Millisecond) // page 1 takes milliseconds: the worker is in page 2
	start := time.Now()
	if err := e.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Close took %v with a stuck job, want under 2 s", took)
	}
	if p := r.wait(t); p.Stage != StageCancelled {
		t.Errorf("stuck job after Close = %+v", p)
	}
}

// A fan-out page is cut at its budget; the document keeps its other pages
// and is searchable.
func TestFanOutPageBudget(t *testing.T) {
	e := newEngine(t, Config{PageTimeout: time.Second})
	start := time.Now()
	d, err := e.AddBytes(context.Background(), "fanout.pdf", fanOut, nil)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("add took %v with a 1 s page budget", took)
	}
	if len(d.FailedPages) != 1 || d.FailedPages[0] != 2 {
		t.Errorf("failed pages %v, want [2]", d.FailedPages)
	}
	pages, err := e.Pages(context.Background(), d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pages[1].Error, "page 2 took too long and was skipped") || !strings.Contains(pages[2].Text, "page after") {
		t.Errorf("pages = %+v", pages)
	}
}

// Hostile files fail alone: the engine goes on.
func TestHostileFilesFailAlone(t *testing.T) {
	e := newEngine(t, Config{PageTimeout: 2 * time.Second})
	for name, data := range map[string][]byte{
		"thin.pdf":  testpdf.ThinPage(1e20, 100),
		"flood.pdf": testpdf.ImageFlood(400, 2000),
		"bomb.pdf":  testpdf.FlateBomb(64 << 20),
		"huge.pdf":  testpdf.HugeStream(),
		"deep.pdf":  testpdf.DeepNesting(5000),
		"xref.pdf":  testpdf.BrokenXref(),
	} {
		if _, err := e.AddBytes(context.Background(), name, data, nil); err != nil && !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
	}
	mustAdd(t, e, "a.pdf", paperA)
}

// A panic inside a job fails that job with a message; the engine goes on.
func TestJobPanicFailsJob(t *testing.T) {
	e := newEngine(t, Config{})
	final := make(chan Progress, 1)
	e.StartBytes("a.pdf", paperA, func(p Progress) {
		switch p.Stage {
		case StageChunking:
			panic("boom in the chunking stage")
		case StageDone, StageFailed, StageCancelled:
			final <- p
		}
	})
	select {
	case p := <-final:
		if p.Stage != StageFailed || !strings.Contains(p.Error, "internal error while adding this file (boom in the chunking stage)") {
			t.Errorf("final = %+v", p)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no final event")
	}
	mustAdd(t, e, "b.pdf", paperB)
}
