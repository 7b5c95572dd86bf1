package sandbox

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/message"
	"vika/backend/ocr"
	"vika/backend/pdf"
)

// Config bounds the workers. Zero fields take the defaults below.
type Config struct {
	// PageTimeout bounds reading one page (text, layout, classification);
	// OCRTimeout bounds the OCR of one page.
	PageTimeout, OCRTimeout time.Duration
	// MemoryBytes is the address space each worker may add to what it
	// maps at start (RLIMIT_AS on Linux); CPUTime its CPU-time limit
	// (RLIMIT_CPU; a worker is retired at half of it).
	MemoryBytes int64
	CPUTime     time.Duration
	// Workers bounds the workers of one document (OCR runs on that many
	// pages at once), and the idle ones kept for the next document.
	Workers int
	// MaxFailures is how many pages may crash or run over budget before
	// the document fails.
	MaxFailures int
	// RetireRSS: a worker whose resident memory has grown past it (a
	// document bloated it) is ended rather than reused.
	RetireRSS int64

	peak *peakRSS // set by New
}

// Defaults of Config.
const (
	DefaultPageTimeout = 30 * time.Second
	DefaultOCRTimeout  = 90 * time.Second
	DefaultMemoryBytes = 1536 << 20
	DefaultCPUTime     = 10 * time.Minute
	DefaultWorkers     = 2
	DefaultMaxFailures = 3
	DefaultRetireRSS   = 512 << 20
)

func (c Config) withDefaults() Config {
	if c.PageTimeout <= 0 {
		c.PageTimeout = DefaultPageTimeout
	}
	if c.OCRTimeout <= 0 {
		c.OCRTimeout = DefaultOCRTimeout
	}
	if c.MemoryBytes <= 0 {
		c.MemoryBytes = DefaultMemoryBytes
	}
	if c.CPUTime <= 0 {
		c.CPUTime = DefaultCPUTime
	}
	if c.Workers <= 0 {
		c.Workers = DefaultWorkers
	}
	if c.MaxFailures <= 0 {
		c.MaxFailures = DefaultMaxFailures
	}
	if c.RetireRSS <= 0 {
		c.RetireRSS = DefaultRetireRSS
	}
	return c
}

// grace is how long past its budget a worker may take to answer (it
// aborts MuPDF itself at the budget) before it is killed.
func grace(budget time.Duration) time.Duration { return time.Second + budget/4 }

// Opener opens documents in workers. It implements ingest.Opener and is
// safe for concurrent use; Close it to end the idle workers.
type Opener struct {
	cfg Config
	// fault, set by tests only, makes the worker misbehave on a request:
	// it returns request.Fault for an operation and page.
	fault func(op string, page int) string

	mu     sync.Mutex
	spare  []*proc // idle workers, kept for the next document
	closed bool
	// copies bounds the annotated copies written at once (Annotate) to
	// cfg.Workers workers.
	copies chan struct{}
}

var _ ingest.Opener = (*Opener)(nil)

// New returns an Opener; no worker starts before the first document.
func New(cfg Config) *Opener {
	cfg = cfg.withDefaults()
	cfg.peak = &peakRSS{}
	return &Opener{cfg: cfg, copies: make(chan struct{}, cfg.Workers)}
}

// PeakWorkerRSS is the largest peak resident set, in bytes, of the
// workers: as each reported it after each request, and for one killed or
// crashed the kernel's figure (0 where the system reports neither).
func (o *Opener) PeakWorkerRSS() int64 {
	o.cfg.peak.mu.Lock()
	defer o.cfg.peak.mu.Unlock()
	return o.cfg.peak.max
}

// Config returns the configuration in use, defaults filled in.
func (o *Opener) Config() Config { return o.cfg }

// Close ends the idle workers. Workers in use end with their document.
func (o *Opener) Close() error {
	o.mu.Lock()
	spare := o.spare
	o.spare, o.closed = nil, true
	o.mu.Unlock()
	for _, p := range spare {
		p.close()
	}
	return nil
}

// Open starts (or reuses) a worker and opens data in it. The options'
// limits, OCR resolution and budgets apply (their zero budgets take the
// Opener's); opts.OCR is not used: the worker runs its own Tesseract.
func (o *Opener) Open(ctx context.Context, data []byte, opts ingest.Options) (ingest.Reader, error) {
	r := &reader{o: o, data: data, slots: make(chan struct{}, o.cfg.Workers)}
	r.opts = options{Limits: opts.Limits, OCRDPI: opts.OCRDPI, PageTimeout: opts.PageTimeout, OCRTimeout: opts.OCRTimeout, Regions: opts.Regions}
	if r.opts.PageTimeout <= 0 {
		r.opts.PageTimeout = o.cfg.PageTimeout
	}
	if r.opts.OCRTimeout <= 0 {
		r.opts.OCRTimeout = o.cfg.OCRTimeout
	}
	p, resp, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	if resp.Pages < 1 || opts.Limits.MaxPages > 0 && resp.Pages > opts.Limits.MaxPages {
		// The worker checks the limit itself; its word is not taken for it.
		r.release(p, false)
		p.kill()
		return nil, fmt.Errorf("%w: the PDF reader reported %d pages", pdf.ErrCorrupt, resp.Pages)
	}
	r.pages, r.truncated = resp.Pages, resp.Truncated
	r.meta, r.outline = resp.Meta, boundOutline(resp.Outline, r.pages)
	r.release(p, true)
	return r, nil
}

// boundOutline keeps the first pdf.MaxOutline entries of a worker's
// outline, pages outside the document set to 0: the worker bounds and
// cleans it, and the parent does not rely on that for its size.
func boundOutline(list []corpus.OutlineEntry, pages int) []corpus.OutlineEntry {
	list = list[:min(len(list), pdf.MaxOutline)]
	for i := range list {
		if list[i].Page < 0 || list[i].Page > pages {
			list[i].Page = 0
		}
		list[i].Depth = min(max(list[i].Depth, 0), pdf.MaxOutlineDepth-1)
	}
	return list
}

// take returns an idle worker, or nil.
func (o *Opener) take() *proc {
	o.mu.Lock()
	defer o.mu.Unlock()
	if n := len(o.spare); n > 0 {
		p := o.spare[n-1]
		o.spare = o.spare[:n-1]
		return p
	}
	return nil
}

// keep puts an idle worker aside for the next document, or ends it.
func (o *Opener) keep(p *proc) {
	o.mu.Lock()
	if !o.closed && len(o.spare) < o.cfg.Workers && !o.worn(p) {
		o.spare = append(o.spare, p)
		p = nil
	}
	o.mu.Unlock()
	if p != nil {
		p.close()
	}
}

// worn reports whether a worker has used half its CPU time or grown past
// RetireRSS: it is ended, not reused.
func (o *Opener) worn(p *proc) bool {
	return p.cpu >= o.cfg.CPUTime/2 || p.rss > o.cfg.RetireRSS
}

// reader is a document open in one or more workers.
type reader struct {
	o         *Opener
	data      []byte
	opts      options
	pages     int
	truncated bool
	meta      corpus.Meta
	outline   []corpus.OutlineEntry
	slots     chan struct{} // workers in use, at most cfg.Workers

	mu       sync.Mutex
	idle     []*proc // workers with this document open
	failures int
	closed   bool
	parked   bool          // the document waits for its place in the queue: workers go back to the Opener
	cpu      time.Duration // CPU time the workers spent on the document's pages and OCR
	noCrops  bool          // the document spent its crop budget (StopCrops)
}

var _ ingest.CropStopper = (*reader)(nil)

// StopCrops makes the workers read the next pages without figure crops.
func (r *reader) StopCrops() {
	r.mu.Lock()
	r.noCrops = true
	r.mu.Unlock()
}

var _ ingest.Parker = (*reader)(nil)

// Park hands the document's idle workers, and those that finish a call
// while it waits for its place in the queue, to the Opener (for the
// document that reads meanwhile, or to end); the next call takes a worker
// and opens the document in it again.
func (r *reader) Park() {
	r.mu.Lock()
	idle := r.idle
	r.idle, r.parked = nil, true
	r.mu.Unlock()
	for _, p := range idle {
		r.o.keep(p)
	}
}

// Unpark ends Park: the document has its place again, and its workers
// stay with it after each call.
func (r *reader) Unpark() {
	r.mu.Lock()
	r.parked = false
	r.mu.Unlock()
}

var _ ingest.CPUCounter = (*reader)(nil)

// CPU is the CPU time the workers spent on this document's pages and
// OCR so far (a call that ended the worker counts its wall time).
func (r *reader) CPU() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cpu
}

// timed runs one call on p and adds what it cost to the document's CPU.
func (r *reader) timed(ctx context.Context, p *proc, req request, budget time.Duration) (response, error) {
	before, start := p.cpu, time.Now()
	resp, err := p.call(ctx, req, budget)
	spent := p.cpu - before
	if err != nil || spent < 0 {
		spent = time.Since(start)
	}
	r.mu.Lock()
	r.cpu += spent
	r.mu.Unlock()
	return resp, err
}

func (r *reader) NumPages() int   { return r.pages }
func (r *reader) Truncated() bool { return r.truncated }
func (r *reader) About() (corpus.Meta, []corpus.OutlineEntry) {
	return r.meta, r.outline
}

// acquire returns a worker with the document open, taking a slot. The
// first open's response is returned too (its page count).
func (r *reader) acquire(ctx context.Context) (*proc, response, error) {
	select {
	case r.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, response{}, ctx.Err()
	}
	r.mu.Lock()
	if n := len(r.idle); n > 0 {
		p := r.idle[n-1]
		r.idle = r.idle[:n-1]
		r.mu.Unlock()
		return p, response{Pages: r.pages, Truncated: r.truncated}, nil
	}
	r.mu.Unlock()
	p := r.o.take()
	if p == nil {
		var err error
		if p, err = startProc(r.o.cfg, r.o.fault != nil); err != nil {
			<-r.slots
			return nil, response{}, err
		}
	}
	req := request{Op: opOpen, Data: r.data, Opts: r.opts, Fault: r.o.faultFor(opOpen, 0)}
	budget := 4 * r.opts.PageTimeout // opening may repair a damaged file
	resp, err := p.call(ctx, req, budget)
	switch {
	case errors.Is(err, errOverBudget):
		err = fmt.Errorf("%w: opening it took more than %s", pdf.ErrCorrupt, budget)
	case errors.Is(err, errCrashed):
		err = fmt.Errorf("%w: it crashed the PDF reader (%v)", pdf.ErrCorrupt, err)
	case err == nil && resp.Err != nil:
		r.o.keep(p) // the worker is fine; the file is not
		err = resp.Err.err()
	}
	if err == nil && r.pages > 0 && resp.Pages != r.pages {
		p.kill()
		err = fmt.Errorf("a fresh PDF reader counts %d pages, the first counted %d", resp.Pages, r.pages)
	}
	if err != nil {
		<-r.slots
		return nil, response{}, err
	}
	return p, resp, nil
}

// release returns a worker after a call: to the document's idle list if
// it is healthy, else nowhere (it was killed). A worker that has used half
// its CPU time is ended.
func (r *reader) release(p *proc, healthy bool) {
	if healthy && r.o.worn(p) {
		p.close() // retired before RLIMIT_CPU kills it mid-page, or bloated
		healthy = false
	}
	if healthy {
		r.mu.Lock()
		if r.closed || r.parked {
			r.mu.Unlock()
			r.o.keep(p)
		} else {
			r.idle = append(r.idle, p)
			r.mu.Unlock()
		}
	}
	<-r.slots
}

// failed counts a page failure and returns ingest.ErrReader once there
// have been too many.
func (r *reader) failed(what string) error {
	r.mu.Lock()
	r.failures++
	n := r.failures
	r.mu.Unlock()
	log.Printf("sandbox: %s", what)
	if n >= r.o.cfg.MaxFailures {
		return fmt.Errorf("%w: %d pages crashed it or ran over their time limit (the last: %s)", ingest.ErrReader, n, what)
	}
	return nil
}

func (r *reader) Page(ctx context.Context, n int) (ingest.PageResult, error) {
	p, _, err := r.acquire(ctx)
	if err != nil {
		return ingest.PageResult{}, r.openFailed(ctx, err)
	}
	budget := r.opts.PageTimeout
	r.mu.Lock()
	noCrops := r.noCrops
	r.mu.Unlock()
	resp, err := r.timed(ctx, p, request{Op: opPage, Page: n, NoCrops: noCrops, Fault: r.o.faultFor(opPage, n)}, budget+grace(budget))
	r.release(p, err == nil)
	res := resp.Page
	var why message.Message
	switch {
	case ctx.Err() != nil:
		return ingest.PageResult{}, ctx.Err()
	case errors.Is(err, errOverBudget):
		why = message.New(message.PageTimeout, "page", n, "limit", budget.String())
	case err != nil:
		why = message.New(message.PageCrashed, "page", n, "detail", err.Error())
	case resp.Err != nil:
		return ingest.PageResult{}, resp.Err.err()
	case res.Over && res.Page.Problem != nil:
		if err := r.failed(res.Page.Problem.English()); err != nil {
			return ingest.PageResult{}, err
		}
		return res, nil
	default:
		return res, nil
	}
	if err := r.failed(why.English()); err != nil {
		return ingest.PageResult{}, err
	}
	return ingest.PageResult{Page: corpus.Page{Number: n, Type: corpus.PageText, Problem: &why}}, nil
}

// openFailed turns a failure to re-open the document in a fresh worker
// into a document failure.
func (r *reader) openFailed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("%w: cannot open it again in a fresh reader: %v", ingest.ErrReader, err)
}

func (r *reader) OCR(ctx context.Context, t ingest.OCRTarget) (ingest.OCRText, error) {
	p, _, err := r.acquire(ctx)
	if err != nil {
		return ingest.OCRText{}, r.openFailed(ctx, err)
	}
	budget := r.opts.OCRTimeout
	resp, err := r.timed(ctx, p, request{Op: opOCR, Target: t, Fault: r.o.faultFor(opOCR, t.Page)}, budget+grace(budget))
	timedOut := err == nil && resp.Err != nil && isTimeout(resp.Err.err())
	// A worker whose Tesseract ran past the budget may still be busy with
	// it: it is not reused.
	if timedOut {
		p.kill()
	}
	r.release(p, err == nil && !timedOut)
	var why message.Message
	switch {
	case ctx.Err() != nil:
		return ingest.OCRText{}, ctx.Err()
	case errors.Is(err, errOverBudget) || timedOut:
		why = message.New(message.PageOCRTimeout, "page", t.Page, "limit", budget.String())
	case err != nil:
		why = message.New(message.PageOCRCrashed, "page", t.Page, "detail", err.Error())
	case resp.Err != nil:
		return ingest.OCRText{}, resp.Err.err()
	default:
		return resp.Text, nil
	}
	msg := why.English()
	if err := r.failed(msg); err != nil {
		return ingest.OCRText{}, err
	}
	return ingest.OCRText{}, &message.Error{Msg: why, Err: errors.New(msg)}
}

// Close hands the document's idle workers to the Opener for the next
// document. Workers still in a call come back through release.
func (r *reader) Close() error {
	r.mu.Lock()
	idle := r.idle
	r.idle, r.closed = nil, true
	r.mu.Unlock()
	for _, p := range idle {
		r.o.keep(p)
	}
	return nil
}

func isTimeout(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ocr.ErrTimeout) || errors.Is(err, pdf.ErrTimeout)
}

func (o *Opener) faultFor(op string, page int) string {
	if o.fault == nil {
		return ""
	}
	return o.fault(op, page)
}
