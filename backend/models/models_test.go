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
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"vika/backend/message"
)

// The served files are the tiny BERT fixtures of package embed.
const fixtures = "../../testdata/bert"

var hex64, hex40 = regexp.MustCompile(`^[0-9a-f]{64}$`), regexp.MustCompile(`^[0-9a-f]{40}$`)

func TestRegistry(t *testing.T) {
	want := map[string]struct {
		role string
		dim  int
		max  int
	}{
		"bge-small-en-v1.5":                     {RoleEmbedder, 384, 512},
		"multilingual-e5-small":                 {RoleEmbedder, 384, 512},
		"all-MiniLM-L6-v2":                      {RoleEmbedder, 384, 256},
		"paraphrase-multilingual-MiniLM-L12-v2": {RoleEmbedder, 384, 128},
		"ms-marco-MiniLM-L-6-v2":                {RoleReranker, 0, 512},
	}
	reg := Entries()
	if len(reg) != len(want) {
		t.Fatalf("registry has %d models, want %d", len(reg), len(want))
	}
	pinned := func(m Model, f File) {
		// Every file pinned: sha256, size, and a commit for the repository it comes from.
		if !hex64.MatchString(f.SHA256) || f.Size <= 0 || (f.Repo != "" && !hex40.MatchString(f.Revision)) || (f.Repo == "") != (f.Revision == "") {
			t.Errorf("%s: %s not pinned: %+v", m.Name, f.Path, f)
		}
	}
	for _, m := range reg {
		w, ok := want[m.Name]
		if !ok {
			t.Errorf("unexpected model %s", m.Name)
			continue
		}
		if m.Role != w.role || m.Dimensions != w.dim || m.MaxTokens != w.max {
			t.Errorf("%s: role %s dim %d max %d, want %+v", m.Name, m.Role, m.Dimensions, m.MaxTokens, w)
		}
		if m.License == "" || m.Repo == "" || m.Tokenizer == "" || m.Pooling == "" || m.Output == "" || len(m.Files) != 2 {
			t.Errorf("%s: incomplete entry %+v", m.Name, m)
		}
		if !hex40.MatchString(m.Revision) || m.SHA256Status != Pinned {
			t.Errorf("%s: revision %q, status %q: want a commit, pinned", m.Name, m.Revision, m.SHA256Status)
		}
		for _, f := range m.Files {
			pinned(m, f)
		}
		for _, v := range m.Variants {
			pinned(m, v.File)
			if !isONNX(v.File.Path) || len(v.RequiresAny) == 0 || v.Name == "" {
				t.Errorf("%s: variant %+v", m.Name, v)
			}
		}
		if got := m.URL(DefaultBaseURL, m.Files[0]); got != "https://huggingface.co/"+m.Repo+"/resolve/"+m.Revision+"/onnx/model.onnx" {
			t.Errorf("%s: URL %s", m.Name, got)
		}
	}
	if err := checkPinned(Model{Name: "x", Files: []File{{Path: "a.onnx"}}}); !errors.Is(err, ErrUnverified) {
		t.Errorf("checkPinned(unpinned) = %v", err)
	}
	if m, err := Lookup("SENTENCE-TRANSFORMERS/all-minilm-l6-v2"); err != nil || m.Name != "all-MiniLM-L6-v2" {
		t.Errorf("Lookup by repo: %v %v", m.Name, err)
	}
	if _, err := Lookup("gpt-17"); !errors.Is(err, ErrUnknown) {
		t.Errorf("Lookup(unknown) = %v", err)
	}
	if r := Rerankers(); len(r) != 1 || r[0].Name != "ms-marco-MiniLM-L-6-v2" {
		t.Errorf("Rerankers = %v", r)
	}
	if m, _ := Lookup("multilingual-e5-small"); m.QueryPrefix != "query: " || m.PassagePrefix != "passage: " {
		t.Errorf("e5 prefixes %q %q", m.QueryPrefix, m.PassagePrefix)
	}
}

// TestForCPU: the quantized export where the CPU has what it needs, full
// precision otherwise, with the download size of the files chosen.
func TestForCPU(t *testing.T) {
	entry := func(name string) Model {
		for _, m := range Entries() {
			if m.Name == name {
				return m
			}
		}
		t.Fatalf("no %s", name)
		return Model{}
	}
	for _, c := range []struct {
		model   string
		f       Features
		variant string
		onnx    string
		mb      int
	}{
		{"all-MiniLM-L6-v2", Features{}, Full, "onnx/model.onnx", 91},
		{"all-MiniLM-L6-v2", Features{FeatureAVX2: true}, "quint8-avx2", "onnx/model_quint8_avx2.onnx", 24},
		{"all-MiniLM-L6-v2", Features{FeatureAVX2: true, FeatureAVX512VNNI: true}, "qint8-avx512-vnni", "onnx/model_qint8_avx512_vnni.onnx", 23},
		{"all-MiniLM-L6-v2", Features{FeatureARM64: true}, "qint8-arm64", "onnx/model_qint8_arm64.onnx", 23},
		{"paraphrase-multilingual-MiniLM-L12-v2", Features{FeatureARM64: true}, Full, "onnx/model.onnx", 479},
		{"paraphrase-multilingual-MiniLM-L12-v2", Features{FeatureAVX2: true}, "quint8-avx2", "onnx/model_quint8_avx2.onnx", 128},
		{"bge-small-en-v1.5", Features{FeatureAVX2: true}, "int8", "onnx/model_quantized.onnx", 35},
		{"multilingual-e5-small", Features{FeatureAVX2: true, FeatureAVX512VNNI: true}, Full, "onnx/model.onnx", 487},
		{"ms-marco-MiniLM-L-6-v2", Features{}, Full, "onnx/model.onnx", 92},
		{"ms-marco-MiniLM-L-6-v2", Features{FeatureAVX2: true}, "int8", "onnx/model_quantized.onnx", 24},
	} {
		m := entry(c.model).ForCPU(c.f)
		if m.Variant != c.variant || m.Files[0].Path != c.onnx || m.ApproxSizeMB != c.mb || len(m.Files) != 2 {
			t.Errorf("%s on %v: variant %s, files %v, %d MB; want %s, %s, %d MB", c.model, c.f, m.Variant, m.Files, m.ApproxSizeMB, c.variant, c.onnx, c.mb)
		}
	}
	// A variant from another repository is fetched from there, at its revision.
	m := entry("ms-marco-MiniLM-L-6-v2").ForCPU(Features{FeatureAVX2: true})
	if got := m.URL(DefaultBaseURL, m.Files[0]); got != "https://huggingface.co/Xenova/ms-marco-MiniLM-L-6-v2/resolve/a09144355adeed5f58c8ed011d209bf8ee5a1fec/onnx/model_quantized.onnx" {
		t.Errorf("variant URL %s", got)
	}
	if got := m.URL(DefaultBaseURL, m.Files[1]); !strings.Contains(got, "/cross-encoder/ms-marco-MiniLM-L6-v2/resolve/233902d25c440f23af6f7d6e94d2946bac0bee0a/") {
		t.Errorf("tokenizer URL %s", got)
	}
}

func TestEmbedderFromEnv(t *testing.T) {
	t.Setenv("VIKA_DATA_DIR", t.TempDir()) // nothing installed
	t.Setenv(EnvModelEN, "")
	t.Setenv(EnvModelMulti, "")
	if c, err := Embedder(true); err != nil || c.Name != UseLite || c.Model != nil || c.Explicit || c.Multilingual() {
		t.Errorf("Embedder(en) = %+v, %v", c, err)
	}
	if c, err := Embedder(false); err != nil || c.Name != DefaultMulti || c.Model == nil || c.Explicit || !c.Multilingual() {
		t.Errorf("Embedder(multi) = %+v, %v", c, err)
	}
	t.Setenv(EnvModelEN, "paraphrase-multilingual-MiniLM-L12-v2")
	if c, err := Embedder(true); err != nil || c.Name != "paraphrase-multilingual-MiniLM-L12-v2" || !c.Explicit || !c.Multilingual() {
		t.Errorf("Embedder(en) with env = %+v, %v", c, err)
	}
	t.Setenv(EnvModelEN, "all-MiniLM-L6-v2")
	if c, err := Embedder(true); err != nil || c.Name != "all-MiniLM-L6-v2" || c.Multilingual() || c.Languages()[0] != "en" {
		t.Errorf("Embedder(en) with env = %+v, %v", c, err)
	}
	t.Setenv(EnvModelMulti, "USE-Lite")
	if c, err := Embedder(false); err != nil || c.Name != UseLite || !c.Explicit || c.Model != nil {
		t.Errorf("Embedder(multi) = use-lite: %+v, %v", c, err)
	}
	t.Setenv(EnvModelMulti, "nope")
	if _, err := Embedder(false); !errors.Is(err, ErrNoModelForEnv) || !strings.Contains(err.Error(), EnvModelMulti) {
		t.Errorf("Embedder(bad env) = %v", err)
	}
	t.Setenv(EnvModelEN, "ms-marco-MiniLM-L-6-v2")
	if _, err := Embedder(true); err == nil {
		t.Error("a reranker was accepted as embedder")
	}
}

// TestEmbedderPrefersInstalled: with the variables unset, an installed
// preferred model replaces the default (bge-small-en-v1.5 for English,
// multilingual-e5-small before the paraphrase MiniLM for the others).
func TestEmbedderPrefersInstalled(t *testing.T) {
	t.Setenv(EnvModelEN, "")
	t.Setenv(EnvModelMulti, "")
	root := t.TempDir()
	installAs := func(name string) {
		t.Helper()
		m, files := tinyModel(t, false)
		entry, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		// Served by the test server, pinned to the fixtures, for this test.
		entry.Repo, entry.Revision, entry.Files = "test/tiny", "main", m.Files
		t.Cleanup(Replace(entry))
		srv := newServer(t, files)
		if err := (&Downloader{BaseURL: srv.URL, Root: root}).Download(context.Background(), entry); err != nil {
			t.Fatal(err)
		}
	}
	pick := func(english bool) string {
		t.Helper()
		c, err := EmbedderIn(root, english)
		if err != nil || c.Explicit {
			t.Fatalf("EmbedderIn(%v) = %+v, %v", english, c, err)
		}
		return c.Name
	}
	if en, multi := pick(true), pick(false); en != UseLite || multi != DefaultMulti {
		t.Fatalf("nothing installed: %s, %s", en, multi)
	}
	installAs("paraphrase-multilingual-MiniLM-L12-v2")
	if multi := pick(false); multi != "paraphrase-multilingual-MiniLM-L12-v2" {
		t.Errorf("paraphrase installed: multi %s", multi)
	}
	installAs("multilingual-e5-small")
	installAs("bge-small-en-v1.5")
	if en, multi := pick(true), pick(false); en != "bge-small-en-v1.5" || multi != "multilingual-e5-small" {
		t.Errorf("all installed: %s, %s", en, multi)
	}
	t.Setenv(EnvModelEN, "use-lite") // the variable still wins
	if c, _ := EmbedderIn(root, true); c.Name != UseLite || !c.Explicit {
		t.Errorf("named use-lite: %+v", c)
	}
}

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
