package sandbox

import (
	"context"
	"errors"
	"fmt"

	"vika/backend/pdf"
)

// Crop renders r of page n at dpi as a PNG in a worker (ingest.Cropper),
// within the page's time budget: a crash or an overrun costs this crop,
// never the session.
func (r *reader) Crop(ctx context.Context, n int, box pdf.Rect, dpi float64) ([]byte, error) {
	p, _, err := r.acquire(ctx)
	if err != nil {
		return nil, r.openFailed(ctx, err)
	}
	budget := r.opts.PageTimeout
	resp, err := p.call(ctx, request{Op: opCrop, Page: n, Crop: box, DPI: dpi, Fault: r.o.faultFor(opCrop, n)}, budget+grace(budget))
	r.release(p, err == nil)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, errOverBudget):
		return nil, fmt.Errorf("%w: cropping page %d took more than %s", pdf.ErrTimeout, n, budget)
	case err != nil:
		return nil, fmt.Errorf("%w: cropping page %d crashed the PDF reader (%v)", pdf.ErrPage, n, err)
	case resp.Err != nil:
		return nil, resp.Err.err()
	}
	return resp.Image, nil
}
