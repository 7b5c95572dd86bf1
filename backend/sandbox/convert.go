package sandbox

import (
	"context"
	"errors"
	"fmt"
	"time"

	"vika/backend/pdf"
)

// Convert writes data, a file of the given kind that MuPDF opens (an
// image, an EPUB, an XPS, a CBZ, ...; pdf.WritePDF), as a PDF in a
// worker, within timeout (zero: the Opener's PageTimeout) and the
// worker's memory and CPU limits: a file that crashes MuPDF or runs over
// fails with pdf.ErrCorrupt or pdf.ErrTimeout, never the caller. The
// worker's PDF is checked against lim (its size, its pages, its header)
// before it is returned.
func (o *Opener) Convert(ctx context.Context, data []byte, kind string, maxSide float64, lim pdf.Limits, timeout time.Duration) ([]byte, error) {
	if timeout <= 0 {
		timeout = o.cfg.PageTimeout
	}
	p := o.take()
	if p == nil {
		var err error
		if p, err = startProc(o.cfg, o.fault != nil); err != nil {
			return nil, err
		}
	}
	req := request{Op: opConvert, Data: data, Kind: kind, MaxSide: maxSide,
		Opts: options{Limits: lim, PageTimeout: timeout}, Fault: o.faultFor(opConvert, 0)}
	resp, err := p.call(ctx, req, timeout+grace(timeout))
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, errOverBudget):
		return nil, fmt.Errorf("%w: converting the %s file took more than %s", pdf.ErrTimeout, kind, timeout)
	case errors.Is(err, errCrashed):
		return nil, fmt.Errorf("%w: the %s file crashed the reader (%v)", pdf.ErrCorrupt, kind, err)
	case err != nil:
		return nil, err
	}
	// One conversion per worker: what MuPDF kept of a hostile file goes
	// with it.
	p.close()
	if resp.Err != nil {
		return nil, resp.Err.err()
	}
	if err := pdf.Check(resp.PDF, lim); err != nil {
		return nil, fmt.Errorf("the reader's PDF of the %s file: %w", kind, err)
	}
	if resp.Pages < 1 || lim.MaxPages > 0 && resp.Pages > lim.MaxPages {
		return nil, fmt.Errorf("%w: the reader reported %d pages", pdf.ErrCorrupt, resp.Pages)
	}
	return resp.PDF, nil
}
