// Package engine is the session facade shared by the CLI (main.go) and the
// Wails bound methods (app.go): it composes the in-memory session store,
// the lexical index and the ingest pipeline, runs ingest jobs in the
// background with progress and cancellation, and answers searches.
package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"vika/backend/chunk"
	"vika/backend/corpus"
	"vika/backend/embed"
	"vika/backend/index"
	"vika/backend/ingest"
	"vika/backend/models"
	"vika/backend/pdf"
	"vika/backend/retrieve"
	"vika/backend/session"
)

// Errors callers can test with errors.Is. The pdf ones are re-exported so
// that callers need not import backend/pdf.
var (
	ErrDuplicate = errors.New("already added")
	ErrClosed    = errors.New("the session is closed")
	ErrNotFound  = session.ErrNotFound
	ErrEmpty     = pdf.ErrEmpty
	ErrNotPDF    = pdf.ErrNotPDF
	ErrEncrypted = pdf.ErrEncrypted
	ErrCorrupt   = pdf.ErrCorrupt
	ErrNoPages   = pdf.ErrNoPages
	ErrTooLarge  = pdf.ErrTooLarge
)

// Defaults of Config, overridden by VIKA_MAX_FILE_MB and VIKA_MAX_PAGES.
const (
	DefaultMaxFileBytes = 200 << 20
	DefaultMaxPages     = 3000
	// MaxJobs is how many background jobs run at once (2-core machines).
	MaxJobs = 2
)

// Config bounds what the engine accepts and what it loads.
type Config struct {
	MaxFileBytes int64
	MaxPages     int
	// NoEmbeddings skips loading the embedding model: only BM25 search
	// works (for headless commands that need no dense retrieval).
	NoEmbeddings bool
	// ModelsRoot is where downloaded models live; "" means models.Root().
	ModelsRoot string
}

func (c Config) modelsRoot() string {
	if c.ModelsRoot != "" {
		return c.ModelsRoot
	}
	return models.Root()
}

// DefaultConfig returns 200 MiB and 3000 pages, or the values of the
// environment variables VIKA_MAX_FILE_MB and VIKA_MAX_PAGES when they hold
// positive integers (other values are ignored).
func DefaultConfig() Config {
	cfg := Config{MaxFileBytes: DefaultMaxFileBytes, MaxPages: DefaultMaxPages}
	if mb, err := strconv.ParseInt(os.Getenv("VIKA_MAX_FILE_MB"), 10, 64); err == nil && mb > 0 && mb < 1<<30 {
		cfg.MaxFileBytes = mb << 20
	}
	if n, err := strconv.Atoi(os.Getenv("VIKA_MAX_PAGES")); err == nil && n > 0 {
		cfg.MaxPages = n
	}
	return cfg
}

// Engine is one session. Its methods are safe for concurrent use.
type Engine struct {
	cfg   Config
	opts  ingest.Options
	store *session.Store
	lex   *index.Lexical
	ret   *retrieve.Retriever // over lex and, when models loaded, their dense indexes
	embs  []embed.Embedder    // empty when embeddings are off or failed to load
	// embErr says why dense retrieval is unavailable (nil when it is);
	// multiErr why the configured multilingual model is not loaded.
	embErr, multiErr error
	rr               *lazyReranker
	ocr              *lazyOCR
	slots            chan struct{} // semaphore of MaxJobs background jobs
	now              func() time.Time

	ctx    context.Context    // cancelled by Close: stops every add in flight
	cancel context.CancelFunc //
	wg     sync.WaitGroup     // adds in flight, background or not

	// mu guards the small bookkeeping maps and flags below; it is never
	// held during I/O longer than a duplicate lookup.
	mu      sync.Mutex
	closed  bool                          // guarded by mu
	pending map[string]string             // doc id -> file name being added; guarded by mu
	jobs    map[string]context.CancelFunc // running jobs by id; guarded by mu
	nextJob int                           // guarded by mu

	// commitMu serialises changes to the set of documents (commit of an
	// add, removal) so that labels stay unique and store and index agree.
	commitMu sync.Mutex
}

// New opens an empty session. Zero fields of cfg take DefaultConfig's.
func New(ctx context.Context, cfg Config) (*Engine, error) {
	def := DefaultConfig()
	if cfg.MaxFileBytes <= 0 {
		cfg.MaxFileBytes = def.MaxFileBytes
	}
	if cfg.MaxPages <= 0 {
		cfg.MaxPages = def.MaxPages
	}
	store, err := session.Open(ctx)
	if err != nil {
		return nil, err
	}
	lex, err := index.NewLexical()
	if err != nil {
		store.Close()
		return nil, err
	}
	lm := newRetriever(lex, cfg)
	recognizer := newLazyOCR()
	e := &Engine{
		cfg: cfg,
		opts: ingest.Options{
			Limits:      pdf.Limits{MaxBytes: cfg.MaxFileBytes, MaxPages: cfg.MaxPages},
			Chunk:       chunk.Options{},
			OCR:         recognizer,
			OCRParallel: recognizer.workers(),
		},
		ocr:      recognizer,
		ret:      lm.ret,
		embs:     lm.embs,
		embErr:   lm.embErr,
		multiErr: lm.multiErr,
		rr:       &lazyReranker{root: cfg.modelsRoot()},
		store:    store,
		lex:      lex,
		slots:    make(chan struct{}, MaxJobs),
		now:      time.Now,
		pending:  map[string]string{},
		jobs:     map[string]context.CancelFunc{},
	}
	e.ctx, e.cancel = context.WithCancel(context.Background())
	return e, nil
}

// Config returns the limits in force.
func (e *Engine) Config() Config { return e.cfg }

// Close cancels the jobs and adds in flight, waits for them, and discards
// the session. Later calls fail with ErrClosed.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	e.mu.Unlock()
	e.cancel()
	e.wg.Wait()
	embClose := loadedModels{embs: e.embs}.closeModels()
	return errors.Join(e.ret.Close(), e.lex.Close(), e.store.Close(), e.ocr.Close(), embClose, e.rr.Close())
}

func (e *Engine) isClosed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closed
}

// Documents lists the session's documents in the order they were added.
func (e *Engine) Documents(ctx context.Context) ([]corpus.Document, error) {
	if e.isClosed() {
		return nil, ErrClosed
	}
	docs, err := e.store.Documents(ctx)
	if docs == nil && err == nil {
		docs = []corpus.Document{} // JSON [] rather than null for the UI
	}
	return docs, err
}

// Pages returns the extracted pages of a document (for the viewer).
func (e *Engine) Pages(ctx context.Context, docID string) ([]corpus.Page, error) {
	if e.isClosed() {
		return nil, ErrClosed
	}
	return e.store.Pages(ctx, docID)
}

// RemoveDocument removes a document from the store and the index.
func (e *Engine) RemoveDocument(ctx context.Context, docID string) error {
	if e.isClosed() {
		return ErrClosed
	}
	e.commitMu.Lock()
	defer e.commitMu.Unlock()
	if _, err := e.store.DocumentByID(ctx, docID); err != nil {
		return err
	}
	if err := e.ret.DeleteDoc(ctx, docID); err != nil {
		return err
	}
	return e.store.DeleteDocument(ctx, docID)
}

// uniqueLabel returns name, or "name (n)" with the smallest n >= 2 that no
// document uses yet.
func uniqueLabel(name string, docs []corpus.Document) string {
	taken := make(map[string]bool, len(docs))
	for _, d := range docs {
		taken[d.Label] = true
	}
	label := name
	for n := 2; taken[label]; n++ {
		label = fmt.Sprintf("%s (%d)", name, n)
	}
	return label
}
