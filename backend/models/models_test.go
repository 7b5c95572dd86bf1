package models

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"vika/backend/message"
)

// The served files are the tiny BERT fixtures of package embed.
const fixtures = "../../testdata/bert"

// server serves the fixtures under /<repo>/resolve/main/<path> with Range
// support; cut, when set for a path, makes the first request of that path
// stop after that many bytes (the connection is closed mid-file).
type server struct {
	*httptest.Server
	mu     sync.Mutex
	files  map[string][]byte
	cut    map[string]int // guarded by mu
	ranges []string       // Range headers received; guarded by mu
	hits   map[string]int // requests per path; guarded by mu
	status map[string]int // forced status per path
}

func newServer(t *testing.T, files map[string][]byte) *server {
	s := &server{files: files, cut: map[string]int{}, hits: map[string]int{}, status: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/test/tiny/resolve/main/")
	s.mu.Lock()
	s.hits[path]++
	if rg := r.Header.Get("Range"); rg != "" {
		s.ranges = append(s.ranges, rg)
	}
	cut, status := s.cut[path], s.status[path]
	delete(s.cut, path)
	s.mu.Unlock()
	data, ok := s.files[path]
	if !ok && status == 0 {
		status = http.StatusNotFound
	}
	if status != 0 {
		http.Error(w, "no", status)
		return
	}
	// A strong ETag, as Hugging Face sends: the validator of If-Range.
	w.Header().Set("ETag", `"`+sum(data)[:16]+`"`)
	if cut > 0 {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.WriteHeader(http.StatusOK)
		w.Write(data[:cut])
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	http.ServeContent(w, r, path, time.Time{}, bytes.NewReader(data))
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// tinyModel is a registry entry for the fixtures, pinned unless unverified.
func tinyModel(t *testing.T, unverified bool) (Model, map[string][]byte) {
	files := map[string][]byte{
		"onnx/model.onnx": fixture(t, "encoder.onnx"),
		"tokenizer.json":  fixture(t, "tokenizer.json"),
	}
	m := Model{Name: "tiny", Repo: "test/tiny", Revision: "main", Role: RoleEmbedder, SHA256Status: Pinned}
	for _, p := range []string{"onnx/model.onnx", "tokenizer.json"} {
		f := File{Path: p, SHA256: sum(files[p]), Size: int64(len(files[p]))}
		if unverified {
			f = File{Path: p}
			m.SHA256Status = ""
		}
		m.Files = append(m.Files, f)
	}
	return m, files
}

func checkInstalled(t *testing.T, root string, m Model, files map[string][]byte) {
	t.Helper()
	paths, err := Verify(root, m)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range files {
		got, err := os.ReadFile(paths[p])
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, err %v; want %d bytes", p, len(got), err, len(want))
		}
		if _, err := os.Stat(paths[p] + ".part"); err == nil {
			t.Errorf("%s.part left behind", p)
		}
	}
}

func TestDownloadWithProgress(t *testing.T) {
	m, files := tinyModel(t, false)
	srv := newServer(t, files)
	root := t.TempDir()
	var mu sync.Mutex
	last := map[string]Progress{}
	d := &Downloader{BaseURL: srv.URL, Root: root, ProgressEvery: time.Nanosecond, Progress: func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := last[p.File]; ok && p.Done < prev.Done {
			t.Errorf("progress went back: %+v after %+v", p, prev)
		}
		last[p.File] = p
	}}
	if err := d.Download(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	checkInstalled(t, root, m, files)
	for p, data := range files {
		if got := last[p]; got.Done != int64(len(data)) || got.Total != int64(len(data)) || got.Model != "tiny" {
			t.Errorf("last progress of %s = %+v, want %d/%d", p, got, len(data), len(data))
		}
	}
	// A second download finds the files intact and fetches nothing.
	if err := d.Download(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	if srv.hits["tokenizer.json"] != 1 || srv.hits["onnx/model.onnx"] != 1 {
		t.Errorf("requests %v, want one per file", srv.hits)
	}
	if !Installed(root, m) {
		t.Error("Installed = false")
	}
}

func TestDownloadResumesAfterCut(t *testing.T) {
	m, files := tinyModel(t, false)
	srv := newServer(t, files)
	srv.cut["onnx/model.onnx"] = 1000
	root := t.TempDir()
	d := &Downloader{BaseURL: srv.URL, Root: root}
	if err := d.Download(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	checkInstalled(t, root, m, files)
	if len(srv.ranges) != 1 || srv.ranges[0] != "bytes=1000-" {
		t.Errorf("Range requests %q, want [bytes=1000-]", srv.ranges)
	}
	if srv.hits["onnx/model.onnx"] != 2 {
		t.Errorf("%d requests for the model, want 2", srv.hits["onnx/model.onnx"])
	}
}

func TestDownloadResumesAcrossRuns(t *testing.T) {
	m, files := tinyModel(t, false)
	srv := newServer(t, files)
	srv.cut["onnx/model.onnx"] = 700
	root := t.TempDir()
	d := &Downloader{BaseURL: srv.URL, Root: root, Retries: -1}
	if err := d.Download(context.Background(), m); err == nil {
		t.Fatal("cut transfer without retries succeeded")
	}
	part := m.FilePath(root, "onnx/model.onnx") + ".part"
	if info, err := os.Stat(part); err != nil || info.Size() != 700 {
		t.Fatalf("part file after the cut: %v %v", info, err)
	}
	if err := d.Download(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	checkInstalled(t, root, m, files)
	if len(srv.ranges) != 1 || srv.ranges[0] != "bytes=700-" {
		t.Errorf("Range requests %q", srv.ranges)
	}
}

func TestDownloadChecksumMismatch(t *testing.T) {
	m, files := tinyModel(t, false)
	m.Files[1].SHA256 = strings.Repeat("0", 64)
	srv := newServer(t, files)
	root := t.TempDir()
	err := (&Downloader{BaseURL: srv.URL, Root: root}).Download(context.Background(), m)
	if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "removed") {
		t.Fatalf("err = %v, want ErrChecksum", err)
	}
	if msg := message.Of(err); msg.Code != message.ModelChecksum || msg.Params["file"] != "tokenizer.json" {
		t.Errorf("message %+v, want %s", msg, message.ModelChecksum)
	}
	dest := m.FilePath(root, "tokenizer.json")
	for _, p := range []string{dest, dest + ".part"} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists after a checksum mismatch", p)
		}
	}
	if _, err := Verify(root, m); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("Verify = %v, want ErrNotInstalled", err)
	}
}

func TestDownloadOffline(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there now: connection refused
	t.Setenv("VIKA_MODELS_BASE_URL", base)
	m, _ := tinyModel(t, false)
	err = (&Downloader{Root: t.TempDir()}).Download(context.Background(), m)
	if !errors.Is(err, ErrOffline) {
		t.Fatalf("err = %v, want ErrOffline", err)
	}
	want := "cannot reach " + ln.Addr().String() + ": you are offline; the default model USE-lite keeps working"
	if err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

// TestDownloadUnverified: an entry without pins is refused before any
// request; there is no trust on first download.
func TestDownloadUnverified(t *testing.T) {
	m, files := tinyModel(t, true)
	srv := newServer(t, files)
	root := t.TempDir()
	err := (&Downloader{BaseURL: srv.URL, Root: root}).Download(context.Background(), m)
	if !errors.Is(err, ErrUnverified) || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("err = %v, want ErrUnverified", err)
	}
	if len(srv.hits) != 0 {
		t.Errorf("refused download still made requests: %v", srv.hits)
	}
	if _, err := os.Stat(m.Dir(root)); !os.IsNotExist(err) {
		t.Errorf("model dir created: %v", err)
	}
}

// TestDownloadSizeMismatch: a server whose file is shorter than the pin
// (another revision, say) is refused by its Content-Length with a coded
// error, before any byte is written.
func TestDownloadSizeMismatch(t *testing.T) {
	m, files := tinyModel(t, false)
	m.Files[1].Size++ // the pin says one byte more than the server has
	srv := newServer(t, files)
	root := t.TempDir()
	err := (&Downloader{BaseURL: srv.URL, Root: root, Retries: -1}).Download(context.Background(), m)
	if !errors.Is(err, ErrSize) || errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the registry pins") {
		t.Fatalf("err = %v, want ErrSize", err)
	}
	if msg := message.Of(err); msg.Code != message.ModelSize || msg.Params["file"] != "tokenizer.json" || msg.Params["model"] != "tiny" {
		t.Errorf("message %+v", msg)
	}
	dest := m.FilePath(root, "tokenizer.json")
	for _, p := range []string{dest, dest + ".part", dest + ".part" + validatorExt} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists after a size mismatch", p)
		}
	}
	// The installed file of the right size but tampered with fails Verify.
	m, _ = tinyModel(t, false)
	if err := (&Downloader{BaseURL: srv.URL, Root: root}).Download(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	tok := m.FilePath(root, "tokenizer.json")
	raw, _ := os.ReadFile(tok)
	raw[0] ^= 1
	if err := os.WriteFile(tok, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(root, m); !errors.Is(err, ErrChecksum) {
		t.Errorf("Verify after tampering = %v, want ErrChecksum", err)
	}
	if err := os.WriteFile(tok, raw[1:], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(root, m); !errors.Is(err, ErrSize) {
		t.Errorf("Verify of a cut file = %v, want ErrSize", err)
	}
}

func TestDownloadHTTPError(t *testing.T) {
	m, files := tinyModel(t, false)
	srv := newServer(t, files)
	srv.status["tokenizer.json"] = http.StatusForbidden
	err := (&Downloader{BaseURL: srv.URL, Root: t.TempDir()}).Download(context.Background(), m)
	if !errors.Is(err, ErrHTTP) || !strings.Contains(err.Error(), "403") {
		t.Errorf("err = %v, want ErrHTTP 403", err)
	}
}

func TestDownloadCancelled(t *testing.T) {
	m, files := tinyModel(t, false)
	srv := newServer(t, files)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := (&Downloader{BaseURL: srv.URL, Root: t.TempDir()}).Download(ctx, m); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestContentRange(t *testing.T) {
	for _, c := range []struct {
		in          string
		start, size int64
		ok          bool
	}{
		{"bytes 10-99/100", 10, 100, true},
		{"bytes 0-9/*", 0, -1, true},
		{"bytes */100", 0, 0, false},
		{"items 1-2/3", 0, 0, false},
	} {
		s, n, ok := contentRange(c.in)
		if s != c.start || n != c.size || ok != c.ok {
			t.Errorf("contentRange(%q) = %d %d %v", c.in, s, n, ok)
		}
	}
}
