package models

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"vika/backend/message"
)

// TestManagerPanicFailsTheDownload: a panic in a download's goroutine
// (here in the progress callback) fails that download with a message;
// the manager goes on and the next download works.
func TestManagerPanicFailsTheDownload(t *testing.T) {
	m, files := tinyModel(t, false)
	srv := newServer(t, files)
	mgr := &Manager{Downloader: Downloader{BaseURL: srv.URL, Root: t.TempDir(), ProgressEvery: time.Nanosecond}, Models: []Model{m}}
	defer mgr.Close()

	ev := newEvents()
	if err := mgr.Start("tiny", func(e Event) {
		if !e.Finished {
			var p *Progress
			_ = p.Done // nil pointer dereference
		}
		ev.emit(e)
	}); err != nil {
		t.Fatal(err)
	}
	last := ev.wait(t)
	if last.Problem == nil || last.Problem.Code != message.Internal || !strings.Contains(last.Error, "nil pointer") {
		t.Fatalf("final event %+v, want the panic as an error", last)
	}
	if st := mgr.Statuses(); st[0].Downloading || st[0].Installed {
		t.Fatalf("after the panic: %+v", st)
	}
	ev = newEvents()
	if err := mgr.Start("tiny", ev.emit); err != nil {
		t.Fatal(err)
	}
	if last := ev.wait(t); last.Error != "" {
		t.Fatalf("the next download: %+v", last)
	}
	checkInstalled(t, mgr.Downloader.Root, m, files)
}

// versioned serves one file whose content (and strong ETag) can change
// between requests, with Range and If-Range as http.ServeContent does;
// cutAt makes the next full response stop after that many bytes.
type versioned struct {
	mu      sync.Mutex
	data    []byte
	etag    string
	cutAt   int
	headers []http.Header
}

func (v *versioned) set(data []byte, etag string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.data, v.etag = data, etag
}

func (v *versioned) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	v.mu.Lock()
	data, etag, cut := v.data, v.etag, v.cutAt
	v.cutAt = 0
	v.headers = append(v.headers, r.Header.Clone())
	v.mu.Unlock()
	w.Header().Set("ETag", etag)
	if cut > 0 {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.WriteHeader(http.StatusOK)
		w.Write(data[:cut])
		w.(http.Flusher).Flush()
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	http.ServeContent(w, r, "model.onnx", time.Time{}, bytes.NewReader(data))
}

// oneFile is a model of one file pinned to data, for the transfer tests.
func oneFile(data []byte) Model {
	return Model{Name: "one", Repo: "test/one", Revision: "main", Role: RoleEmbedder, SHA256Status: Pinned,
		Files: []File{{Path: "onnx/model.onnx", SHA256: sum(data), Size: int64(len(data))}}}
}

// TestResumeNeverSplicesTwoVersions: a transfer cut in the middle, then
// resumed after the file changed on the server, restarts from zero (the
// If-Range validator does not match) and installs the new version whole.
func TestResumeNeverSplicesTwoVersions(t *testing.T) {
	v1 := bytes.Repeat([]byte("version one. "), 4000)
	v2 := bytes.Repeat([]byte("VERSION TWO! "), 4000)
	srv := &versioned{}
	srv.set(v1, `"v1"`)
	srv.cutAt = 20000
	ts := httptest.NewServer(srv)
	defer ts.Close()
	root := t.TempDir()
	m := oneFile(v2) // the pin is the version published last
	d := &Downloader{BaseURL: ts.URL, Root: root, Retries: -1}
	if err := d.Download(context.Background(), m); err == nil {
		t.Fatal("the cut transfer succeeded")
	}
	part := m.Path(root, m.Files[0]) + ".part"
	if info, err := os.Stat(part); err != nil || info.Size() != 20000 {
		t.Fatalf("partial file: %v %v", info, err)
	}
	srv.set(v2, `"v2"`) // a new version is published
	if err := d.Download(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(m.Path(root, m.Files[0]))
	if err != nil || !bytes.Equal(got, v2) {
		t.Fatalf("installed %d bytes (err %v): spliced versions? want version two whole", len(got), err)
	}
	last := srv.headers[len(srv.headers)-1]
	if last.Get("Range") != "bytes=20000-" || last.Get("If-Range") != `"v1"` {
		t.Errorf("resume request: Range %q, If-Range %q; want bytes=20000- and \"v1\"", last.Get("Range"), last.Get("If-Range"))
	}
	if _, err := os.Stat(part + validatorExt); !os.IsNotExist(err) {
		t.Errorf("validator left behind: %v", err)
	}
}

// TestResumeSameVersion: with the file unchanged, the resumed request is
// answered 206 and appended.
func TestResumeSameVersion(t *testing.T) {
	v1 := bytes.Repeat([]byte("version one. "), 4000)
	srv := &versioned{}
	srv.set(v1, `"v1"`)
	srv.cutAt = 20000
	ts := httptest.NewServer(srv)
	defer ts.Close()
	root := t.TempDir()
	m := oneFile(v1)
	var dones []int64
	d := &Downloader{BaseURL: ts.URL, Root: root, ProgressEvery: time.Hour,
		Progress: func(p Progress) { dones = append(dones, p.Done) }}
	if err := d.Download(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(m.Path(root, m.Files[0]))
	if !bytes.Equal(got, v1) || len(srv.headers) != 2 || srv.headers[1].Get("If-Range") != `"v1"` {
		t.Errorf("%d bytes, %d requests, headers %v", len(got), len(srv.headers), srv.headers)
	}
}

// TestDownloadTooLarge: a body above the pinned size is refused, by its
// Content-Length or, without one, when it passes the size; nothing is left
// on disk.
func TestDownloadTooLarge(t *testing.T) {
	big := bytes.Repeat([]byte{7}, 3<<20)
	for _, chunked := range []bool{false, true} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if chunked {
				for i := 0; i < len(big); i += 64 << 10 {
					w.Write(big[i : i+64<<10])
					w.(http.Flusher).Flush()
				}
				return
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(big)))
			w.Write(big)
		}))
		root := t.TempDir()
		m := oneFile(big[:2<<20]) // 2 MB pinned, 3 MB sent
		d := &Downloader{BaseURL: ts.URL, Root: root}
		err := d.Download(context.Background(), m)
		ts.Close()
		if !errors.Is(err, ErrTooLarge) || !errors.Is(err, ErrSize) || !strings.Contains(err.Error(), "2097152") {
			t.Errorf("chunked %v: err = %v, want ErrTooLarge naming the pinned size", chunked, err)
		}
		if msg := message.Of(err); msg.Code != message.ModelSize || msg.Params["want"] != int64(2<<20) {
			t.Errorf("chunked %v: message %+v, want %s with the pinned size", chunked, msg, message.ModelSize)
		}
		part := m.Path(root, m.Files[0]) + ".part"
		if _, err := os.Stat(part); !os.IsNotExist(err) {
			t.Errorf("chunked %v: partial file left: %v", chunked, err)
		}
	}
}

// TestDownloadStalls: a server that sends part of the file and then
// nothing fails the download with ErrStalled after IdleTimeout instead
// of hanging.
func TestDownloadStalls(t *testing.T) {
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		w.Write(make([]byte, 1000))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer ts.Close()
	defer close(release)
	d := &Downloader{BaseURL: ts.URL, Root: t.TempDir(), Retries: -1, IdleTimeout: 300 * time.Millisecond}
	start := time.Now()
	err := d.Download(context.Background(), oneFile(make([]byte, 100000)))
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the stalled download took %s", took)
	}
	if !errors.Is(err, ErrStalled) || !strings.Contains(err.Error(), "sent nothing for 300ms") {
		t.Errorf("err = %v, want ErrStalled", err)
	}
}
