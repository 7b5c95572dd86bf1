package sandbox

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"vika/backend/ingest"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// newOpener returns an Opener with cfg, closed with the test.
func newOpener(t *testing.T, cfg Config) *Opener {
	t.Helper()
	o := New(cfg)
	t.Cleanup(func() { o.Close() })
	return o
}

// run ingests data through o.
func run(ctx context.Context, o *Opener, name string, data []byte) (ingest.Result, error) {
	return ingest.Run(ctx, name, data, ingest.Options{Opener: o}, nil)
}

// checkAround checks that pages 1 and 3 of a testpdf hostile file kept
// their text and returns page 2's error.
func checkAround(t *testing.T, res ingest.Result) string {
	t.Helper()
	if len(res.Pages) != 3 {
		t.Fatalf("%d pages, want 3", len(res.Pages))
	}
	for _, i := range []int{0, 2} {
		if p := res.Pages[i]; p.Failed() || !strings.Contains(p.Text, "keeps its text") {
			t.Errorf("page %d: text %q, problem %+v", i+1, p.Text, p.Problem)
		}
	}
	if len(res.Doc.FailedPages) != 1 || res.Doc.FailedPages[0] != 2 {
		t.Errorf("failed pages %v, want [2]", res.Doc.FailedPages)
	}
	if res.Pages[1].Problem == nil {
		t.Fatal("page 2 has no problem")
	}
	return res.Pages[1].Problem.English()
}

// A page whose forms fan out 10 wide and 8 deep (days of work) is cut at
// its budget and the document keeps its other pages.
func TestFanOutPageCutAtBudget(t *testing.T) {
	o := newOpener(t, Config{PageTimeout: time.Second})
	start := time.Now()
	res, err := run(context.Background(), o, "fanout.pdf", testpdf.FanOut(10, 8))
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("ingest took %v with a 1 s page budget", took)
	}
	if msg := checkAround(t, res); !strings.Contains(msg, "page 2 took too long and was skipped") {
		t.Errorf("page 2 error %q", msg)
	}
}

// A thin huge page and an image flood end as failed pages; the workers'
// peak resident set stays far below the limit.
func TestHostilePagesFailAlone(t *testing.T) {
	o := newOpener(t, Config{})
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"thin.pdf", testpdf.ThinPage(1e20, 100), "larger than the 14400 pt"},
		{"flood.pdf", testpdf.ImageFlood(400, 2000), "draws 400 images"},
	} {
		res, err := run(context.Background(), o, c.name, c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if msg := checkAround(t, res); !strings.Contains(msg, c.want) {
			t.Errorf("%s: page 2 error %q, want %q", c.name, msg, c.want)
		}
	}
	o.Close()
	if peak := o.PeakWorkerRSS(); peak > 1500<<20 {
		t.Errorf("worker peak RSS %d MiB, want under 1500", peak>>20)
	} else {
		t.Logf("worker peak RSS %d MiB", peak>>20)
	}
}

// A worker made to crash fails one page; the next document ingests
// normally.
func TestCrashFailsOnePage(t *testing.T) {
	o := newOpener(t, Config{})
	o.fault = func(op string, page int) string {
		if op == opPage && page == 2 {
			return "crash"
		}
		return ""
	}
	res, err := run(context.Background(), o, "crash.pdf", testpdf.FlateBomb(10))
	if err != nil {
		t.Fatal(err)
	}
	if msg := checkAround(t, res); !strings.Contains(msg, "page 2 crashed the PDF reader and was skipped") || !strings.Contains(msg, "exit status 2") {
		t.Errorf("page 2 error %q", msg)
	}
	o.fault = nil
	res, err = run(context.Background(), o, "next.pdf", testpdf.Text("The next document is read normally.", "Its second page too."))
	if err != nil || len(res.Doc.FailedPages) != 0 || !strings.Contains(res.Pages[1].Text, "second page") {
		t.Fatalf("next document: %+v, %v", res.Doc, err)
	}
}

// Repeated failures fail the document with ErrReader.
func TestRepeatedCrashesFailDocument(t *testing.T) {
	o := newOpener(t, Config{MaxFailures: 3})
	o.fault = func(op string, page int) string {
		if op == opPage {
			return "crash"
		}
		return ""
	}
	_, err := run(context.Background(), o, "bad.pdf", testpdf.Text("a", "b", "c", "d"))
	if !errors.Is(err, ingest.ErrReader) || !strings.Contains(err.Error(), "3 pages crashed it") {
		t.Fatalf("err = %v, want ErrReader after 3 failures", err)
	}
}

// A worker exceeding its memory limit dies and fails its page only.
func TestMemoryLimit(t *testing.T) {
	o := newOpener(t, Config{MemoryBytes: 1 << 30})
	o.fault = func(op string, page int) string {
		if op == opPage && page == 2 {
			return "alloc"
		}
		return ""
	}
	res, err := run(context.Background(), o, "alloc.pdf", testpdf.FlateBomb(10))
	if err != nil {
		t.Fatal(err)
	}
	if msg := checkAround(t, res); !strings.Contains(msg, "crashed the PDF reader") {
		t.Errorf("page 2 error %q", msg)
	}
	o.Close()
	if peak := o.PeakWorkerRSS(); peak > 1<<30+200<<20 {
		t.Errorf("worker peak RSS %d MiB, over its 1024 MiB limit", peak>>20)
	} else {
		t.Logf("worker peak RSS %d MiB with a 1024 MiB limit", peak>>20)
	}
}

// Cancelling mid-page returns within 2 s whatever the worker does.
func TestCancelMidPage(t *testing.T) {
	o := newOpener(t, Config{PageTimeout: time.Hour})
	o.fault = func(op string, page int) string {
		if op == opPage && page == 2 {
			return "hang"
		}
		return ""
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	start := time.Now()
	_, err := run(ctx, o, "hang.pdf", testpdf.FanOut(2, 2))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if took := time.Since(start) - 500*time.Millisecond; took > 2*time.Second {
		t.Errorf("Run returned %v after the cancel", took)
	}
}

// Open errors keep their sentinels across the pipe.
func TestOpenErrors(t *testing.T) {
	o := newOpener(t, Config{})
	for _, c := range []struct {
		data []byte
		want error
	}{
		{[]byte("hello"), pdf.ErrNotPDF},
		{testpdf.Encrypted("secret", "x"), pdf.ErrEncrypted},
		{testpdf.ZeroPages(), pdf.ErrNoPages},
	} {
		if _, err := run(context.Background(), o, "x.pdf", c.data); !errors.Is(err, c.want) {
			t.Errorf("err = %v, want %v", err, c.want)
		}
	}
}

// measureChild, set by the -tags tune measurement, runs a child's part of
// it when the test binary is re-executed for that.
var measureChild func() (ran bool, code int)

func TestMain(m *testing.M) {
	// The workers are this test binary, re-executed (see init).
	if measureChild != nil {
		if ran, code := measureChild(); ran {
			os.Exit(code)
		}
	}
	os.Exit(m.Run())
}
