package ingest

import (
	"context"
	"fmt"

	"vika/backend/pdf"
)

// Cropper is a Reader that also renders a region of a page as a PNG: the
// crop of a formula a vision model is asked to transcribe, made when the
// student asks for it rather than at every ingest.
type Cropper interface {
	// Crop renders r (page points) of page n at dpi, or at the lower
	// resolution that bounds its size, as a gray PNG.
	Crop(ctx context.Context, n int, r pdf.Rect, dpi float64) ([]byte, error)
}

// Crop renders a region of a page within the page's time budget.
func (l *local) Crop(ctx context.Context, n int, r pdf.Rect, dpi float64) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.doc.SetDeadline(deadline(l.pageTime))
	png, err := l.doc.Crop(n, r, dpi)
	if err != nil {
		return nil, fmt.Errorf("cannot crop page %d: %w", n, err)
	}
	return png, nil
}
