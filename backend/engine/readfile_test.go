//go:build unix

package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"vika/backend/message"
	"vika/backend/pdf"
)

// TestAddFIFORefused: a "lecture.pdf" that is a named pipe with no writer
// is refused at once as not a regular file (opening it would block).
func TestAddFIFORefused(t *testing.T) {
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	path := filepath.Join(t.TempDir(), "lecture.pdf")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := docOf(e.Ingest(context.Background(), path, nil)); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, pdf.ErrNotPDF) || message.Of(err).Code != message.NotAFile {
			t.Errorf("error = %v (code %q), want %s", err, message.Of(err).Code, message.NotAFile)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("adding a FIFO did not return within 5 s")
	}
}

// TestReadHonoursCancel: a read that does not return (a FIFO swapped in
// after the check stands for a stalled network mount) gives way to
// cancel within 2 s.
func TestReadHonoursCancel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stalled.pdf")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	w, err := os.OpenFile(path, os.O_RDWR, 0) // a writer that never writes: reads block
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err = readWithin(ctx, func() ([]byte, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		b := make([]byte, 10)
		_, err = f.Read(b)
		return b, err
	})
	if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
		t.Errorf("error %v after %v, want cancelled within 2 s", err, time.Since(start))
	}
}

// TestFileNameCleaned: what reaches the UI, the logs, the prompt's cite
// attribute and the citations holds no control, bidi, zero-width or tag
// character, and no square bracket.
func TestFileNameCleaned(t *testing.T) {
	for in, want := range map[string]string{
		"lecture\n[sat.pdf p.1]\r\n.pdf":         "lecture (sat.pdf p.1) .pdf",
		"esc\x1b[31mred.pdf":                     "esc (31mred.pdf",
		"report\u202efdp.exe":                    "reportfdp.exe",
		"a\u2066b\u2069\u200bc\u200d\ufeffd.pdf": "abcd.pdf",
		"tag\U000E0041\U000E0042s.pdf":           "tags.pdf",
		"  spaced \t out  .pdf ":                 "spaced out .pdf",
		"dir/sub\\évaluation (2).pdf":            "évaluation (2).pdf",
		"\u2028":                                 "document.pdf",
		"line\u2028sep\u0085next.pdf":            "line sep next.pdf",
	} {
		if got := fileName(in); got != want {
			t.Errorf("fileName(%q) = %q, want %q", in, got, want)
		}
	}
}
