package engine

import (
	"context"
	"image"
	"os"
	"runtime"
	"sync"

	"vika/backend/ocr"
)

// lazyOCR starts the Tesseract pool on the first page that needs OCR, so
// sessions without scans never pay for it. A failed start (missing
// language data, say) is returned to that page and retried on the next.
type lazyOCR struct {
	mu   sync.Mutex
	pool *ocr.Pool // guarded by mu
	err  error     // configuration error, final; guarded by mu
	cfg  ocr.Config
}

func newLazyOCR() *lazyOCR {
	cfg, err := ocr.ConfigFromEnv(ocr.Config{}, os.Getenv)
	return &lazyOCR{cfg: cfg, err: err}
}

func (l *lazyOCR) get() (*ocr.Pool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil || l.pool != nil {
		return l.pool, l.err
	}
	p, err := ocr.NewPool(l.cfg)
	if err != nil {
		return nil, err
	}
	l.pool = p
	return p, nil
}

// Recognize implements ocr.Recognizer.
func (l *lazyOCR) Recognize(ctx context.Context, img image.Image) (ocr.Result, error) {
	p, err := l.get()
	if err != nil {
		return ocr.Result{}, err
	}
	return p.Recognize(ctx, img)
}

// workers is the number of images recognised at once.
func (l *lazyOCR) workers() int {
	if l.cfg.Workers > 0 {
		return l.cfg.Workers
	}
	return runtime.NumCPU() // the pool's own default
}

func (l *lazyOCR) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pool == nil {
		return nil
	}
	err := l.pool.Close()
	l.pool = nil
	return err
}
