package ocr

import (
	"context"
	"fmt"
	"image"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"vika/backend/config"
)

func init() {
	// Belt and braces for singleThreadOpenMP (see openmp.go): this is too
	// late for libgomp in this process, which read its environment when
	// libtesseract was loaded, but it reaches OpenMP runtimes that read it
	// lazily and every child process (a tesseract CLI, a re-exec). A value
	// the user set is kept.
	if _, ok := config.LookupEnv("OMP_THREAD_LIMIT"); !ok {
		os.Setenv("OMP_THREAD_LIMIT", "1")
	}
}

// Pool recognises images with up to Config.Workers Tesseract clients at
// once. Clients are created on first use (loading the language models
// takes a fraction of a second and tens of MB each) and live until Close.
// A Pool is safe for concurrent use.
type Pool struct {
	cfg  Config
	jobs chan job      // unbuffered: a send succeeds when a worker takes the job
	done chan struct{} // closed by Close

	finished atomic.Int64 // images the workers have finished (for tests)

	mu      sync.Mutex
	started int  // guarded by mu: workers started
	closed  bool // guarded by mu
}

// job is one image for a worker. reply has room for the outcome, so a
// worker never blocks on a caller that has given up.
type job struct {
	img     []byte
	bilevel bool
	langs   []string // Tesseract languages (Config.languagesFor)
	dpi     int
	reply   chan outcome
}

type outcome struct {
	res Result
	err error
}

var _ Recognizer = (*Pool)(nil)

// NewPool checks cfg (zero fields take their defaults) and that the
// language data is installed, and returns a Pool. It starts no Tesseract
// client yet. A missing language is reported as ErrNoLanguageData naming
// the file and the package that provides it.
func NewPool(cfg Config) (*Pool, error) {
	cfg = cfg.withDefaults()
	dir, err := resolveTessdata(cfg, config.Getenv)
	if err != nil {
		return nil, err
	}
	cfg.TessdataDir = dir
	return &Pool{cfg: cfg, jobs: make(chan job), done: make(chan struct{})}, nil
}

// Config returns the configuration in use, defaults filled in.
func (p *Pool) Config() Config {
	c := p.cfg
	c.Languages = slices.Clone(c.Languages)
	c.Variables = maps.Clone(c.Variables)
	return c
}

// Recognize returns the text of img, read with the language and at the
// resolution h gives (zero fields: the configuration's). It converts img
// to grey at once (img is not retained), waits for a free client as long
// as ctx allows, then for at most Config.Timeout. On timeout it returns
// ErrTimeout and on cancellation an error wrapping ctx.Err(); in both
// cases the client finishes the image in the background and only then
// takes new work.
func (p *Pool) Recognize(ctx context.Context, img image.Image, h Hints) (Result, error) {
	return p.recognize(ctx, img, h, p.cfg.Timeout)
}

func (p *Pool) recognize(ctx context.Context, img image.Image, h Hints, timeout time.Duration) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("OCR cancelled: %w", err)
	}
	dpi := h.DPI
	if dpi <= 0 {
		dpi = p.cfg.DPI
	}
	data, bilevel, err := encode(img, p.cfg.Binarize, dpi)
	if err != nil {
		return Result{}, err
	}
	j := job{img: data, bilevel: bilevel, langs: p.cfg.languagesFor(h), dpi: dpi, reply: make(chan outcome, 1)}
	if err := p.submit(ctx, j); err != nil {
		return Result{}, err
	}
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case o := <-j.reply:
		return o.res, o.err
	case <-expired:
		b := img.Bounds()
		return Result{}, fmt.Errorf("%w: recognising a %dx%d image took more than %s", ErrTimeout, b.Dx(), b.Dy(), timeout)
	case <-ctx.Done():
		return Result{}, fmt.Errorf("OCR cancelled: %w", ctx.Err())
	}
}

// submit hands j to an idle worker, starting one if fewer than Workers
// run, or waits for one to become idle.
func (p *Pool) submit(ctx context.Context, j job) error {
	select {
	case <-p.done:
		return ErrClosed
	default:
	}
	select {
	case p.jobs <- j:
		return nil
	default:
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return ErrClosed
	}
	if p.started < p.cfg.Workers {
		p.started++
		go p.work()
	}
	p.mu.Unlock()
	select {
	case p.jobs <- j:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("OCR cancelled while waiting for a free OCR worker: %w", ctx.Err())
	case <-p.done:
		return ErrClosed
	}
}

// work owns Tesseract clients on one locked OS thread (Tesseract's
// OpenMP setting is per thread, see openmp.go) and runs jobs one at a
// time until Close: one client per set of languages asked for (all of
// Config.Languages, or one of them), each created on first use and kept,
// so a worker loads each language's models once. The thread is never
// unlocked, so Go discards it when the worker ends.
func (p *Pool) work() {
	runtime.LockOSThread()
	singleThreadOpenMP()
	clients := map[string]*client{}
	defer func() {
		for _, c := range clients {
			c.close()
		}
	}()
	for {
		select {
		case j := <-p.jobs:
			key := strings.Join(j.langs, "+")
			c, ok := clients[key]
			if !ok {
				cfg := p.cfg
				cfg.Languages = j.langs
				var err error
				if c, err = newClient(cfg); err != nil {
					j.reply <- outcome{err: err}
					continue
				}
				clients[key] = c
			}
			res, rerr := c.recognize(j.img, j.bilevel, j.dpi)
			p.finished.Add(1)
			j.reply <- outcome{res: res, err: rerr}
		case <-p.done:
			return
		}
	}
}

// Close stops the pool: later calls return ErrClosed, idle clients are
// freed at once and busy ones when they finish their image. Close does
// not wait for them. It is safe to call more than once.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		close(p.done)
	}
	return nil
}
