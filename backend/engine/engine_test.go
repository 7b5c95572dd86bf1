package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/assets/assetstest"
	"vika/backend/convert"
	"vika/backend/corpus"
	"vika/backend/imagehead"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// newEngine opens a session for a test. Unless cfg names a models root,
// it gets an empty one: the session runs the built-in USE-lite and no
// cross-encoder whatever models the machine has installed (the box's are
// tested by TestBoxModels), so that the tests' figures do not depend on it.
func newEngine(t *testing.T, cfg Config) *Engine {
	t.Helper()
	if cfg.ModelsRoot == "" {
		cfg.ModelsRoot = t.TempDir()
	}
	e, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func mustAdd(t *testing.T, e *Engine, name string, data []byte) corpus.Document {
	t.Helper()
	d, err := docOf(e.add(context.Background(), "", name, data, nil))
	if err != nil {
		t.Fatalf("add %s: %v", name, err)
	}
	return d
}

var (
	paperA = testpdf.Pages(
		testpdf.Page{Heading: "1 Introduction", Body: "Sampling distributions describe how an estimator varies from sample to sample."},
		testpdf.Page{Heading: "2 Zebras", Body: "The plains zebra, or quagga, lives in the savannah of East Africa."},
	)
	paperB = testpdf.Text("Lecture on entropy and information.", "Channel capacity bounds the rate of reliable communication.")
	tiny   = testpdf.Text("tiny")
)

func labels(hits []corpus.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Label)
	}
	return out
}

func TestAddAndSearch(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{})
	a := mustAdd(t, e, "stats.pdf", paperA)
	mustAdd(t, e, "/home/user/info.pdf", paperB)

	hits, err := hitsOf(ctx, e, "quagga savannah", 5)
	if err != nil || len(hits) == 0 {
		t.Fatalf("Search = %v, %v", hits, err)
	}
	foundBy := "both"
	if e.DenseUnavailable() != nil {
		foundBy = "bm25"
	}
	want := corpus.Hit{File: "stats.pdf", Page: 2, ChunkID: a.ID[:12] + "-p2-c1", Label: "[stats.pdf p.2]",
		Text: "2 Zebras\nThe plains zebra, or quagga, lives in the savannah of East Africa.", FoundBy: foundBy, DocID: a.ID, PageType: corpus.PageText, Kind: corpus.ChunkBody}
	scores := cmp.FilterPath(func(p cmp.Path) bool {
		s := p.Last().String()
		return s == ".Score" || s == ".DenseScore" || s == ".LexicalScore" || s == ".Band" // the band follows the dense score
	}, cmp.Ignore())
	if diff := cmp.Diff(want, hits[0], scores); diff != "" {
		t.Errorf("first hit (-want +got):\n%s", diff)
	}
	if h := hits[0]; h.LexicalScore == nil || (h.DenseScore != nil) != (e.DenseUnavailable() == nil) {
		t.Errorf("first hit: lexical score %v, dense score %v (dense unavailable: %v)", h.LexicalScore, h.DenseScore, e.DenseUnavailable())
	}
	if h := hits[0]; (h.Band != "") != (h.DenseScore != nil) {
		t.Errorf("first hit: band %q with dense score %v", h.Band, h.DenseScore)
	}

	// Bad files fail and leave the session as it was.
	for name, data := range map[string][]byte{"photo.pdf": []byte("\x89PNG\r\n\x1a\n0000000000"), "cut.pdf": paperB[:len(paperB)/3]} {
		if _, err := docOf(e.add(ctx, "", name, data, nil)); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	docs, _ := e.Documents(ctx)
	if got := []string{docs[0].Label, docs[1].Label}; len(docs) != 2 || !cmp.Equal(got, []string{"stats.pdf", "info.pdf"}) {
		t.Errorf("documents = %+v", docs)
	}
	for q, label := range map[string]string{"quagga": "[stats.pdf p.2]", "channel capacity": "[info.pdf p.2]"} {
		if hits, _ := hitsOf(ctx, e, q, 3); len(hits) == 0 || hits[0].Label != label {
			t.Errorf("Search(%q) = %v, want %s first", q, labels(hits), label)
		}
	}
}

func TestAddErrors(t *testing.T) {
	tests := []struct {
		name     string
		cfg      Config
		data     []byte
		want     error
		contains string
	}{
		{"empty", Config{}, nil, ErrEmpty, "empty file (0 bytes)"},
		{"text file", Config{}, []byte("just some notes\n"), ErrNotPDF, "not a PDF: the file does not start with %PDF- (it looks like a plain text file)"},
		// An image is read (package convert): a damaged one says so.
		{"png", Config{}, []byte("\x89PNG\r\n\x1a\n0000000000"), convert.ErrUnreadable, "cannot read this png file"},
		{"heic", Config{}, []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"), imagehead.ErrHEIC, "HEIC"},
		{"huge png", Config{}, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x00\x00\x00\x00"), imagehead.ErrTooLarge, "100000 x 100000 pixels"},
		{"truncated", Config{}, paperA[:len(paperA)/4], ErrCorrupt, "truncated"},
		{"encrypted", Config{}, testpdf.Encrypted("pw", "secret"), ErrEncrypted, "password"},
		{"zero pages", Config{}, testpdf.ZeroPages(), ErrNoPages, "no pages"},
		{"over size", Config{MaxFileBytes: int64(len(tiny))}, paperA, ErrTooLarge, "file too large: 1.9 KiB, the limit is 1.0 KiB"},
		{"over pages", Config{MaxPages: 1}, paperA, ErrTooLarge, "file too large: 2 pages, the limit is 1"},
		{"duplicate", Config{}, tiny, ErrDuplicate, "already added as info.pdf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(t, tt.cfg)
			mustAdd(t, e, "info.pdf", tiny)
			_, err := docOf(e.add(context.Background(), "", "new.pdf", tt.data, nil))
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.contains) {
				t.Fatalf("AddBytes = %v, want %v containing %q", err, tt.want, tt.contains)
			}
			docs, _ := e.Documents(context.Background())
			if len(docs) != 1 {
				t.Errorf("session has %d documents, want 1", len(docs))
			}
		})
	}
}

func TestSameNameDifferentBytes(t *testing.T) {
	e := newEngine(t, Config{})
	first := mustAdd(t, e, "cours.pdf", paperA)
	second := mustAdd(t, e, "cours.pdf", paperB)
	third := mustAdd(t, e, "cours.pdf", testpdf.Text("third"))
	got := [][2]string{{first.File, first.Label}, {second.File, second.Label}, {third.File, third.Label}}
	want := [][2]string{{"cours.pdf", "cours.pdf"}, {"cours.pdf", "cours.pdf (2)"}, {"cours.pdf", "cours.pdf (3)"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("file/label (-want +got):\n%s", diff)
	}
	hits, _ := hitsOf(context.Background(), e, "entropy", 1)
	if len(hits) != 1 || hits[0].File != "cours.pdf" || hits[0].Label != "[cours.pdf (2) p.1]" {
		t.Errorf("hits = %+v", hits)
	}
}

func TestAddFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.pdf", paperA)
	big := write("big.pdf", append(append([]byte{}, paperA...), make([]byte, 5000)...))
	ctx := context.Background()
	e := newEngine(t, Config{MaxFileBytes: int64(len(paperA)) + 100})

	d, err := docOf(e.Ingest(ctx, ok, nil))
	if err != nil || d.File != "ok.pdf" || d.Pages != 2 || d.Bytes != int64(len(paperA)) {
		t.Fatalf("AddFile = %+v, %v", d, err)
	}
	for path, want := range map[string]error{big: ErrTooLarge, dir: ErrNotPDF, filepath.Join(dir, "missing.pdf"): os.ErrNotExist} {
		if _, err := docOf(e.Ingest(ctx, path, nil)); !errors.Is(err, want) {
			t.Errorf("AddFile(%s) = %v, want %v", filepath.Base(path), err, want)
		}
	}
}

func TestRemoveDocument(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{})
	a := mustAdd(t, e, "stats.pdf", paperA)
	mustAdd(t, e, "info.pdf", paperB)
	if err := e.RemoveDocument(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if res, err := e.Search(ctx, retrieve.Query{Question: "quagga"}, SearchOptions{Mode: retrieve.ModeBM25, K: 5}); err != nil || res.Hits == nil || len(res.Hits) != 0 {
		t.Errorf("removed document: BM25 search = %#v, %v; want empty non-nil", res.Hits, err)
	}
	// Dense retrieval always returns its nearest chunks: none may be of
	// the removed document.
	hits, err := hitsOf(ctx, e, "quagga", 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.DocID == a.ID {
			t.Errorf("removed document still found: %+v", h)
		}
	}
	if err := e.RemoveDocument(ctx, a.ID); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("second remove = %v", err)
	}
	// Removed bytes can be added again, and the label is free again.
	if d := mustAdd(t, e, "stats.pdf", paperA); d.Label != "stats.pdf" {
		t.Errorf("label = %q", d.Label)
	}
}

func TestDefaultConfig(t *testing.T) {
	t.Setenv("VIKA_MAX_FILE_MB", "")
	t.Setenv("VIKA_MAX_PAGES", "")
	t.Setenv("VIKA_SOFFICE", "off")
	for _, v := range []string{"VIKA_PAGE_TIMEOUT_S", "VIKA_OCR_PAGE_TIMEOUT_S", "VIKA_WORKER_MEMORY_MB", "VIKA_WORKER_CPU_S", "VIKA_OCR_WORKERS", "VIKA_OCR_TIMEOUT", "VIKA_OCR_LANGUAGES"} {
		t.Setenv(v, "")
	}
	def := Config{MaxFileBytes: 200 << 20, MaxPages: 3000, PageTimeout: 30 * time.Second, OCRTimeout: 90 * time.Second, WorkerMemory: 1536 << 20, WorkerCPU: 10 * time.Minute,
		DocTime: 30 * time.Minute, DocCPU: time.Hour, MaxOCRPages: 500, Office: "off"}
	if got := DefaultConfig(); !cmp.Equal(got, def) {
		t.Errorf("DefaultConfig = %+v", got)
	}
	t.Setenv("VIKA_MAX_FILE_MB", "5")
	t.Setenv("VIKA_MAX_PAGES", "oops")
	t.Setenv("VIKA_PAGE_TIMEOUT_S", "4")
	t.Setenv("VIKA_OCR_PAGE_TIMEOUT_S", "-1")
	t.Setenv("VIKA_WORKER_MEMORY_MB", "900")
	t.Setenv("VIKA_WORKER_CPU_S", "60")
	want := def
	want.MaxFileBytes, want.PageTimeout, want.WorkerMemory, want.WorkerCPU = 5<<20, 4*time.Second, 900<<20, time.Minute
	if got := DefaultConfig(); !cmp.Equal(got, want) {
		t.Errorf("DefaultConfig with env = %+v", got)
	}
	e := newEngine(t, Config{MaxPages: 7})
	want.MaxPages = 7
	want.ModelsRoot = e.cfg.ModelsRoot // newEngine's empty root
	if got := e.cfg; !cmp.Equal(got, want) {
		t.Errorf("Config = %+v", got)
	}
}

func TestThrottle(t *testing.T) {
	now := time.Unix(0, 0)
	th := throttle{every: 100 * time.Millisecond, now: func() time.Time { return now }}
	step := func(stage string, done, total int, advance time.Duration) bool {
		now = now.Add(advance)
		return th.allow(stage, done, total)
	}
	got := []bool{
		step("extracting", 0, 10, 0),                   // stage change
		step("extracting", 1, 10, 10*time.Millisecond), // too soon
		step("extracting", 2, 10, 95*time.Millisecond), // 105 ms since last
		step("extracting", 3, 10, 1*time.Millisecond),  // too soon
		step("extracting", 10, 10, 1*time.Millisecond), // last page
		step("chunking", 0, 0, 0),                      // stage change
		step("indexing", 0, 5, 0),                      // stage change
	}
	if diff := cmp.Diff([]bool{true, false, true, false, true, true, true}, got); diff != "" {
		t.Errorf("allow (-want +got):\n%s", diff)
	}
}

func TestRealPaper(t *testing.T) {
	path := testpdf.SharedPDF(t, "devlin2019_bert.pdf")
	ctx := context.Background()
	e := newEngine(t, Config{})
	start := time.Now()
	d, err := docOf(e.Ingest(ctx, path, nil))
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	hits, err := hitsOf(ctx, e, "masked language model pre-training objective", 3)
	if err != nil || len(hits) == 0 {
		t.Fatalf("Search = %v, %v", hits, err)
	}
	t.Logf("BERT: %d pages, %d chunks, added in %v; top hit %s %.2f: %.100q", d.Pages, d.Chunks, took, hits[0].Label, hits[0].Score, hits[0].Text)
	if !strings.HasPrefix(hits[0].Label, "[devlin2019_bert.pdf p.") {
		t.Errorf("label = %s", hits[0].Label)
	}
}

// TestDefaultModeFollowsLanguages: hybrid for English documents; BM25
// once a document in a language the embedding model does not cover is in
// the session.
func TestDefaultModeFollowsLanguages(t *testing.T) {
	ctx := context.Background()
	assetstest.RequireAll(t)
	e := newEngine(t, Config{ModelsRoot: t.TempDir()}) // USE-lite alone: English only
	if err := e.DenseUnavailable(); err != nil {
		t.Fatalf("the assets are installed, yet: %v", err)
	}
	mustAdd(t, e, "stats.pdf", testpdf.Text("Sampling distributions describe how an estimator varies from one random sample to the next one."))
	res, err := e.Search(ctx, retrieve.Query{Question: "sampling distribution"}, SearchOptions{})
	if err != nil || res.Stats.Mode != retrieve.ModeHybrid {
		t.Fatalf("English session: mode %q, %v; want hybrid", res.Stats.Mode, err)
	}
	mustAdd(t, e, "cours.pdf", testpdf.Text("Les distributions d'échantillonnage décrivent comment un estimateur varie d'un échantillon aléatoire à un autre."))
	res, err = e.Search(ctx, retrieve.Query{Question: "distribution d'échantillonnage"}, SearchOptions{})
	if err != nil || res.Stats.Mode != retrieve.ModeBM25 {
		t.Fatalf("session with French: mode %q, %v; want bm25", res.Stats.Mode, err)
	}
}

// hitsOf is the window's plain search: the k best passages for query in
// the default mode, reranked when a cross-encoder is installed.
func hitsOf(ctx context.Context, e *Engine, query string, k int) ([]corpus.Hit, error) {
	res, err := e.Search(ctx, retrieve.Query{Question: query}, SearchOptions{K: k, Rerank: true})
	return res.Hits, err
}

// docOf is the document of an add's report.
func docOf(r Report, err error) (corpus.Document, error) { return r.Doc, err }
