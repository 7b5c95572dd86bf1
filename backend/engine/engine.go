// Package engine holds one session's documents: the in-memory store, the
// lexical and dense indexes, the ingest pipeline run in supervised PDF
// workers, and the jobs that run it. Package session composes it with the
// keyring, the LLM service and the assistant; the window and the command
// line reach it only through a session. Its surface, job by job:
//
//   - adding PDFs: Ingest waits (the command line); StartFile and
//     StartBytes run in the background as jobs with progress (the window);
//     Cancel stops a job. Each add ends in one Progress done, failed or
//     cancelled.
//   - the documents: Documents, Pages, Chunks, Regions, RegionOf,
//     RegionsOn, DocumentFile (the PDF bytes, for the viewer),
//     RemoveDocument.
//   - searching: Search (a question, with its expansions when an answer
//     has them, in a mode, reranked on request, within a scope), with
//     DenseUnavailable and Reranker saying what it can use.
//   - models: Reembed puts embedding models installed since the session
//     began to use, embedding the passages again in the background.
//   - describing figures, tables and formulas with a vision model:
//     Describe waits, StartDescribe is a job.
//   - the processed-document cache: SetCache (a cache the caller opened:
//     the session, as its settings say), CacheInfo, ForgetCached,
//     ClearCache; what is kept of a PDF, and where it comes from (kept.go,
//     outputs.go).
//   - course files: SaveCourse, OpenCourse, ReadCourse, and Setup (the
//     pipeline's fingerprint a course entry is checked against).
//   - the metrics of answers: AddMetric, Metrics.
//   - New (Config from ConfigFromEnv or DefaultConfig) and Close.
package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"vika/backend/cache"
	"vika/backend/chunk"
	"vika/backend/config"
	"vika/backend/convert"
	"vika/backend/corpus"
	"vika/backend/index"
	"vika/backend/ingest"
	"vika/backend/jobs"
	"vika/backend/kept"
	"vika/backend/message"
	"vika/backend/models"
	"vika/backend/ocr"
	"vika/backend/pdf"
	"vika/backend/sandbox"
	"vika/backend/store"
)

// Errors callers can test with errors.Is. The pdf ones are re-exported so
// that callers need not import backend/pdf.
var (
	ErrDuplicate = errors.New("already added")
	ErrClosed    = errors.New("the session is closed")
	ErrEmpty     = pdf.ErrEmpty
	ErrNotPDF    = pdf.ErrNotPDF
	ErrEncrypted = pdf.ErrEncrypted
	ErrCorrupt   = pdf.ErrCorrupt
	ErrNoPages   = pdf.ErrNoPages
	ErrTooLarge  = pdf.ErrTooLarge
)

func init() {
	message.Register(ErrDuplicate, message.Duplicate)
	message.Register(ErrClosed, message.SessionClosed)
}

// Defaults of Config, overridden by VIKA_MAX_FILE_MB, VIKA_MAX_PAGES,
// VIKA_PAGE_TIMEOUT_S, VIKA_OCR_PAGE_TIMEOUT_S, VIKA_WORKER_MEMORY_MB and
// VIKA_WORKER_CPU_S.
const (
	DefaultMaxFileBytes = 200 << 20
	DefaultMaxPages     = 3000
	DefaultPageTimeout  = sandbox.DefaultPageTimeout
	DefaultOCRTimeout   = sandbox.DefaultOCRTimeout
	DefaultWorkerMemory = sandbox.DefaultMemoryBytes
	DefaultWorkerCPU    = sandbox.DefaultCPUTime
	// MaxJobs is how many adds read PDFs at once (places in the reading
	// queue, ingest.Queue: a long document gives its place to a waiting
	// one at its share), and how many embed at once (2-core machines): an
	// add leaves its reading place when its text is read, so the next
	// document is read while it is embedded.
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
	// PDFs are read in a supervised worker process (package sandbox).
	// PageTimeout bounds reading one page, OCRTimeout OCRing one page;
	// WorkerMemory is the memory a worker may add after it starts (bytes),
	// WorkerCPU its CPU time.
	PageTimeout, OCRTimeout time.Duration
	WorkerMemory            int64
	WorkerCPU               time.Duration
	// DocTime and DocCPU bound the wall time of reading and OCRing one
	// document and the CPU time its workers spend on it; MaxOCRPages the
	// pages of one document sent to OCR (ingest.Budget).
	DocTime, DocCPU time.Duration
	MaxOCRPages     int
	// NoRegions skips the detection of tables, figures and formulas
	// (VIKA_REGIONS=off).
	NoRegions bool
	// Office is LibreOffice's soffice, which converts Office files
	// (package convert); "off" for none (MuPDF's handler alone), "" for
	// the one found (VIKA_SOFFICE, else PATH and the usual places).
	Office string
	// OCR holds the VIKA_OCR_* settings (ocr.ConfigFromEnv): the pages
	// OCRed at once (Workers), and what changes an OCR's result (its
	// Languages), part of the pipeline's fingerprint (setup). The PDF
	// workers, processes of their own, read the same variables.
	OCR ocr.Config
}

func (c Config) modelsRoot() string {
	if c.ModelsRoot != "" {
		return c.ModelsRoot
	}
	return models.Root()
}

// DefaultConfig is ConfigFromEnv of the process environment, a bad value
// taking its default.
func DefaultConfig() Config {
	cfg, _ := ConfigFromEnv(nil)
	return cfg
}

// ConfigFromEnv returns the defaults above, or the values of the
// environment variables VIKA_MAX_FILE_MB, VIKA_MAX_PAGES,
// VIKA_PAGE_TIMEOUT_S, VIKA_OCR_PAGE_TIMEOUT_S, VIKA_WORKER_MEMORY_MB and
// VIKA_WORKER_CPU_S (positive integers; VIKA_REGIONS=off sets NoRegions)
// and VIKA_OCR_WORKERS, VIKA_OCR_TIMEOUT and VIKA_OCR_LANGUAGES (OCR)
// read from getenv (the process environment when nil). A bad value takes
// its default and is reported in the error, with the others.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = config.Getenv
	}
	var errs []error
	num := func(v config.Var, def, hi int64) int64 {
		n, err := v.Int(getenv, def, 1, hi)
		errs = append(errs, err)
		return n
	}
	cfg := Config{
		MaxFileBytes: num(config.MaxFileMB, DefaultMaxFileBytes>>20, 1<<30-1) << 20,
		MaxPages:     int(num(config.MaxPages, DefaultMaxPages, 1<<31-1)),
		PageTimeout:  time.Duration(num(config.PageTimeoutS, int64(DefaultPageTimeout/time.Second), 1<<20-1)) * time.Second,
		OCRTimeout:   time.Duration(num(config.OCRPageTimeout, int64(DefaultOCRTimeout/time.Second), 1<<20-1)) * time.Second,
		WorkerMemory: num(config.WorkerMemoryMB, DefaultWorkerMemory>>20, 1<<30-1) << 20,
		WorkerCPU:    time.Duration(num(config.WorkerCPUS, int64(DefaultWorkerCPU/time.Second), 1<<30-1)) * time.Second,
		DocTime:      time.Duration(num(config.DocTimeMin, int64(ingest.DocTime/time.Minute), 1<<20-1)) * time.Minute,
		DocCPU:       time.Duration(num(config.DocCPUMin, int64(ingest.DocCPU/time.Minute), 1<<20-1)) * time.Minute,
		MaxOCRPages:  int(num(config.MaxOCRPages, ingest.MaxOCRPages, 1<<31-1)),
		NoRegions:    config.Regions.Get(getenv) == "off",
		Office:       convert.FindOffice(config.Soffice.Get(getenv), getenv),
	}
	if cfg.Office == "" {
		cfg.Office = "off"
	}
	var err error
	cfg.OCR, err = ocr.ConfigFromEnv(ocr.Config{}, getenv)
	if err != nil {
		cfg.OCR = ocr.Config{} // every VIKA_OCR_* setting takes its default, as the workers' OCR would fail on it
	}
	return cfg, errors.Join(append(errs, err)...)
}

// withDefaults fills cfg's zero fields from def.
func (c Config) withDefaults(def Config) Config {
	if c.MaxFileBytes <= 0 {
		c.MaxFileBytes = def.MaxFileBytes
	}
	if c.MaxPages <= 0 {
		c.MaxPages = def.MaxPages
	}
	if c.PageTimeout <= 0 {
		c.PageTimeout = def.PageTimeout
	}
	if c.OCRTimeout <= 0 {
		c.OCRTimeout = def.OCRTimeout
	}
	if c.WorkerMemory <= 0 {
		c.WorkerMemory = def.WorkerMemory
	}
	if c.WorkerCPU <= 0 {
		c.WorkerCPU = def.WorkerCPU
	}
	if c.DocTime <= 0 {
		c.DocTime = def.DocTime
	}
	if c.DocCPU <= 0 {
		c.DocCPU = def.DocCPU
	}
	if c.MaxOCRPages <= 0 {
		c.MaxOCRPages = def.MaxOCRPages
	}
	if c.OCR.Workers <= 0 && c.OCR.Timeout == 0 && len(c.OCR.Languages) == 0 {
		c.OCR = def.OCR
	}
	if c.Office == "" {
		c.Office = def.Office
	}
	return c
}

// Engine is one session. Its methods are safe for concurrent use.
type Engine struct {
	cfg   Config
	opts  ingest.Options
	store *store.Store
	lex   *index.Lexical
	// models holds the retriever over lex and the loaded embedding
	// models' dense indexes; switchModels replaces it whole (a search
	// holds the one it started with: acquire).
	models     atomic.Pointer[modelSet]
	switchMu   sync.Mutex // one switchModels at a time
	rr         *lazyReranker
	cache      atomic.Pointer[cache.Cache] // the processed-document cache, nil when off (SetCache)
	reader     *sandbox.Opener             // the PDF workers
	conv       *convert.Converter          // files that are not PDFs to PDFs (convert.go)
	embedSlots chan struct{}               // semaphore of MaxJobs embeddings
	now        func() time.Time

	ctx    context.Context    // cancelled by Close: stops every add in flight
	cancel context.CancelFunc //
	wg     sync.WaitGroup     // adds in flight, background or not
	jobs   jobs.Runner        // the background adds (jobs.go)

	// mu guards the small bookkeeping maps and flags below; it is never
	// held during I/O longer than a duplicate lookup.
	mu      sync.Mutex
	closed  bool              // guarded by mu
	pending map[string]string // doc id -> file name being added; guarded by mu
	nextJob int               // guarded by mu
	// embedding holds the documents stored and searchable by BM25 whose
	// vectors are not indexed yet; vectorsReady (on mu) is signalled when
	// it empties. Both guarded by mu.
	embedding map[string]bool
	// reading holds, for the documents stored while their OCR runs
	// (commitInterim), the pages still to be read.
	reading      map[string]int
	vectorsReady *sync.Cond
	// claimed holds the documents whose OCR text a course file gave
	// (claims.go); guarded by mu.
	claimed map[string]bool
	// outputs holds the models' outputs about each document, made this
	// session or given by a course file, by key (outputs.go); guarded
	// by mu.
	outputs map[string]map[string]kept.Output

	// commitMu serialises changes to the set of documents (commit of an
	// add, removal) so that labels stay unique and store and index agree.
	commitMu sync.Mutex

	chunkMu  sync.Mutex
	chunking chunk.Options // how documents added from now on are cut (rechunk.go)
}

// New opens an empty session. Zero fields of cfg take DefaultConfig's.
func New(ctx context.Context, cfg Config) (*Engine, error) {
	cfg = cfg.withDefaults(DefaultConfig())
	store, err := store.Open(ctx)
	if err != nil {
		return nil, err
	}
	lex, err := index.NewLexical()
	if err != nil {
		store.Close()
		return nil, err
	}
	lm := newRetriever(lex, cfg)
	// VIKA_OCR_WORKERS, when set, is the number of pages OCRed at once
	// (workers per document).
	reader := sandbox.New(sandbox.Config{
		PageTimeout: cfg.PageTimeout, OCRTimeout: cfg.OCRTimeout,
		MemoryBytes: cfg.WorkerMemory, CPUTime: cfg.WorkerCPU,
		Workers: cfg.OCR.Workers,
	})
	e := &Engine{
		cfg: cfg,
		opts: ingest.Options{
			Limits:      pdf.Limits{MaxBytes: cfg.MaxFileBytes, MaxPages: cfg.MaxPages},
			Chunk:       chunk.Options{},
			Opener:      reader,
			OCRParallel: reader.Config().Workers,
			Regions:     !cfg.NoRegions,
			Budget:      ingest.Budget{DocTime: cfg.DocTime, DocCPU: cfg.DocCPU, OCRPages: cfg.MaxOCRPages},
			// MaxJobs documents read at once, a long one giving its place
			// to the next at its share (ingest.ReadShare).
			Queue: ingest.NewQueue(MaxJobs, ingest.ReadShare),
		},
		reader:     reader,
		conv:       newConverter(cfg, reader),
		rr:         &lazyReranker{root: cfg.modelsRoot()},
		store:      store,
		lex:        lex,
		embedSlots: make(chan struct{}, MaxJobs),
		jobs:       jobs.Runner{Prefix: "job-"},
		now:        time.Now,
		pending:    map[string]string{},
		embedding:  map[string]bool{},
		reading:    map[string]int{},
	}
	e.vectorsReady = sync.NewCond(&e.mu)
	e.models.Store(&modelSet{loadedModels: lm})
	e.ctx, e.cancel = context.WithCancel(context.Background())
	return e, nil
}

// Close cancels the jobs and adds in flight, waits for them (a job in a
// PDF worker returns at once: cancelling kills the worker), and discards
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
	e.jobs.Close()
	e.wg.Wait()
	e.switchMu.Lock() // a switchModels called directly ends first
	defer e.switchMu.Unlock()
	set := e.models.Load()
	set.use.Lock() // and so do the searches
	defer set.use.Unlock()
	e.cache.Store(nil) // the caller closes it
	return errors.Join(set.close(), e.lex.Close(), e.store.Close(), e.reader.Close(), e.rr.Close())
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
	e.mu.Lock()
	for i := range docs {
		docs[i].Embedding = e.embedding[docs[i].ID]
		docs[i].Reading = e.reading[docs[i].ID]
	}
	e.mu.Unlock()
	if len(docs) > 0 {
		set, release := e.acquire()
		for i := range docs {
			docs[i].Vectors = set.ret.DocVectors(docs[i].ID)
		}
		release()
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

// Regions returns a document's tables, figures and formulas in page
// order; figures carry their PNG crop when withImages is set.
func (e *Engine) Regions(ctx context.Context, docID string, withImages bool) ([]corpus.Region, error) {
	if e.isClosed() {
		return nil, ErrClosed
	}
	if _, err := e.store.DocumentByID(ctx, docID); err != nil {
		return nil, err
	}
	return e.store.Regions(ctx, docID, withImages)
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
	if err := e.models.Load().ret.DeleteDoc(ctx, docID); err != nil {
		return err
	}
	e.forgetOutputs(docID)
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
