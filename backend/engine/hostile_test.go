package engine

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"vika/backend/message"
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
	d, err := docOf(e.add(context.Background(), "", "fanout.pdf", fanOut, nil))
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
	if why := pages[1].Problem; why == nil || why.Code != message.PageTimeout || why.English() != "page 2 took too long and was skipped (more than 1s)" ||
		!strings.Contains(pages[2].Text, "page after") {
		t.Errorf("pages = %+v", pages)
	}
}

// A thin huge page and an image flood fail alone, with their reason;
// the process stays alive and its peak resident memory, and the workers',
// stay under 1.5 GB. Other odd files are added or refused as damaged.
// It runs in a process of its own (runAlone): what earlier tests of the
// package left resident (SQLite's and ONNX Runtime's C heaps are not
// given back) would count, and a worker's peak as the kernel reports it
// includes its parent's resident set when it was started (vfork).
func TestHostileFilesFailAlone(t *testing.T) {
	if !runAlone(t) {
		return
	}
	resetPeakRSS(t)
	e := newEngine(t, Config{PageTimeout: 2 * time.Second})
	for _, c := range []struct {
		name    string
		data    []byte
		pageErr string // page 2's error, if it must fail
	}{
		{"thin.pdf", testpdf.ThinPage(1e20, 100), "larger than the 14400 pt"},
		{"flood.pdf", testpdf.ImageFlood(400, 2000), "draws 400 images"},
		{"bomb.pdf", testpdf.FlateBomb(64 << 20), ""},
		{"huge.pdf", testpdf.HugeStream(), ""},
		{"deep.pdf", testpdf.DeepNesting(5000), ""},
		{"xref.pdf", testpdf.BrokenXref(), ""},
	} {
		d, err := docOf(e.add(context.Background(), "", c.name, c.data, nil))
		if err != nil {
			if c.pageErr != "" || !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if c.pageErr == "" {
			continue
		}
		pages, err := e.Pages(context.Background(), d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(pages) != 3 || !pages[1].Failed() || !strings.Contains(pages[1].Problem.English(), c.pageErr) || pages[0].Failed() || pages[2].Failed() {
			t.Errorf("%s: pages %+v, want page 2 failed with %q", c.name, pages, c.pageErr)
		}
	}
	mustAdd(t, e, "a.pdf", paperA)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if peak := peakRSS(t); peak > 1500<<20 {
		t.Errorf("peak RSS %d MiB, want under 1500", peak>>20)
	}
	if peak := e.reader.PeakWorkerRSS(); peak > 1500<<20 {
		t.Errorf("workers' peak RSS %d MiB, want under 1500", peak>>20)
	}
}

// runAlone runs the calling test again in a child process of this test
// binary, alone, and reports false (the parent's part is done: the
// child's result is the test's); in the child it reports true.
func runAlone(t *testing.T) bool {
	t.Helper()
	const env = "VIKA_ENGINE_TEST_ALONE"
	if os.Getenv(env) != "" {
		return true
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^"+t.Name()+"$", "-test.v", "-test.short="+flag.Lookup("test.short").Value.String())
	cmd.Env = append(os.Environ(), env+"=1")
	out, err := cmd.CombinedOutput()
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		t.Log(line)
	}
	if err != nil {
		t.Fatalf("%s alone: %v", t.Name(), err)
	}
	return false
}

// resetPeakRSS returns the memory earlier tests of this binary left
// (TestBoxModels loads the box's three models) and resets the process's
// peak resident set (VmHWM, through /proc/self/clear_refs), so that the
// peak measured is this test's. A worker's peak counts what its parent
// held when it was forked (Linux keeps the higher water mark across exec),
// so the parent's memory is returned first.
func resetPeakRSS(t *testing.T) {
	debug.FreeOSMemory()
	if runtime.GOOS == "linux" {
		if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
			t.Logf("the peak RSS could not be reset (%v): it counts the earlier tests", err)
		}
	}
}

// peakRSS is this process's peak resident set (VmHWM on Linux).
func peakRSS(t *testing.T) int64 {
	if runtime.GOOS != "linux" {
		t.Skip("the peak RSS is read from Linux's /proc/self/status")
	}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err) // Linux always has it
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
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
		if p.Stage != StageFailed || !strings.Contains(p.Error, "boom in the chunking stage") || p.Problem == nil || p.Problem.Code != message.Internal {
			t.Errorf("final = %+v", p)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no final event")
	}
	mustAdd(t, e, "b.pdf", paperB)
}
