package models

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"vika/backend/message"
)

// events collects a manager's events and signals the final one.
type events struct {
	mu   sync.Mutex
	all  []Event
	done chan Event
}

func newEvents() *events { return &events{done: make(chan Event, 1)} }

func (e *events) emit(ev Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
	if ev.Finished {
		e.done <- ev
	}
}

func (e *events) wait(t *testing.T) Event {
	t.Helper()
	select {
	case ev := <-e.done:
		return ev
	case <-time.After(30 * time.Second):
		t.Fatal("the download never finished")
		return Event{}
	}
}

// TestManagerRefusesUnpinnedBytes: the window's downloads trust nothing
// on first download: bytes other than the pinned ones are refused with a
// coded message and nothing is installed.
func TestManagerRefusesUnpinnedBytes(t *testing.T) {
	m, files := tinyModel(t, false)
	m.Files[0].SHA256 = sum([]byte("another revision"))
	srv := newServer(t, files)
	mgr := &Manager{Downloader: Downloader{BaseURL: srv.URL, Root: t.TempDir()}, Models: []Model{m}}
	defer mgr.Close()
	ev := newEvents()
	if err := mgr.Start("tiny", ev.emit); err != nil {
		t.Fatal(err)
	}
	last := ev.wait(t)
	if last.Problem == nil || last.Problem.Code != message.ModelChecksum || !strings.Contains(last.Error, "sha256") {
		t.Fatalf("final event %+v, want %s", last, message.ModelChecksum)
	}
	if st := mgr.Statuses(); st[0].Installed {
		t.Fatalf("installed after a refusal: %+v", st)
	}
	unpinned, _ := tinyModel(t, true)
	mgr2 := &Manager{Downloader: Downloader{BaseURL: srv.URL, Root: t.TempDir()}, Models: []Model{unpinned}}
	defer mgr2.Close()
	if st := mgr2.Statuses(); st[0].Pinned {
		t.Errorf("unpinned entry reported pinned: %+v", st)
	}
	ev = newEvents()
	if err := mgr2.Start("tiny", ev.emit); err != nil {
		t.Fatal(err)
	}
	if last := ev.wait(t); !strings.Contains(last.Error, "does not pin") {
		t.Fatalf("unpinned entry: %+v", last)
	}
}

func TestManagerDownloadsAndReportsIt(t *testing.T) {
	m, files := tinyModel(t, false)
	srv := newServer(t, files)
	mgr := &Manager{Downloader: Downloader{BaseURL: srv.URL, Root: t.TempDir(), ProgressEvery: time.Nanosecond}, Models: []Model{m}}
	defer mgr.Close()

	if st := mgr.Statuses(); len(st) != 1 || st[0].Installed || !st[0].Pinned || st[0].Name != "tiny" {
		t.Fatalf("before: %+v", st)
	}
	ev := newEvents()
	if err := mgr.Start("tiny", ev.emit); err != nil {
		t.Fatal(err)
	}
	if last := ev.wait(t); last.Error != "" || last.Files != 2 {
		t.Fatalf("final event %+v", last)
	}
	checkInstalled(t, mgr.Downloader.Root, m, files)
	if st := mgr.Statuses(); !st[0].Installed || st[0].Downloading {
		t.Fatalf("after: %+v", st)
	}
	seen := map[string]Event{}
	for _, e := range ev.all {
		if !e.Finished {
			seen[e.File] = e
		}
	}
	for p, data := range files {
		if e := seen[p]; e.DoneBytes != int64(len(data)) || e.FileIndex == 0 || e.Name != "tiny" {
			t.Errorf("last progress of %s: %+v", p, e)
		}
	}
}

func TestManagerErrors(t *testing.T) {
	m, files := tinyModel(t, false)
	srv := newServer(t, files)
	srv.status["tokenizer.json"] = 500
	mgr := &Manager{Downloader: Downloader{BaseURL: srv.URL, Root: t.TempDir(), Retries: -1}, Models: []Model{m}}
	defer mgr.Close()

	if err := mgr.Start("nope", func(Event) {}); !errors.Is(err, ErrUnknown) {
		t.Fatalf("unknown model: %v", err)
	}
	ev := newEvents()
	if err := mgr.Start("tiny", ev.emit); err != nil {
		t.Fatal(err)
	}
	last := ev.wait(t)
	if !last.Finished || !strings.Contains(last.Error, "500") {
		t.Fatalf("final event %+v, want an HTTP 500 error", last)
	}
	if st := mgr.Statuses(); st[0].Installed || st[0].Downloading {
		t.Fatalf("after a failure: %+v", st)
	}
	if mgr.Cancel("tiny") {
		t.Error("Cancel reported a download that had ended")
	}
}
