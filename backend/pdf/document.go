package pdf

import (
	"bytes"
	"errors"
	"fmt"

	fitz "github.com/gen2brain/go-fitz"
)

// Document is an open PDF. It is not safe for concurrent use; Close it.
type Document struct {
	fz        *fitz.Document
	pages     int
	truncated bool // the file ends without %%EOF
}

// Open validates data (see Check) and opens it. It keeps a reference to
// data until Close; the caller must not modify it meanwhile.
func Open(data []byte, lim Limits) (*Document, error) {
	if err := Check(data, lim); err != nil {
		return nil, err
	}
	fz, err := fitz.NewFromMemory(data)
	if err != nil {
		if fz != nil {
			fz.Close()
		}
		if errors.Is(err, fitz.ErrNeedsPassword) {
			return nil, fmt.Errorf("%w: it cannot be read without its password; remove the protection (for example print it to a new PDF) and add it again", ErrEncrypted)
		}
		return nil, fmt.Errorf("%w: it cannot be opened%s", ErrCorrupt, truncationHint(data))
	}
	quiet(fz)
	n := countPages(fz)
	switch {
	case n < 0:
		fz.Close()
		return nil, fmt.Errorf("%w: its page tree cannot be read%s", ErrCorrupt, truncationHint(data))
	case n == 0 && truncated(data):
		fz.Close()
		return nil, fmt.Errorf("%w: no page could be read%s", ErrCorrupt, truncationHint(data))
	case n == 0:
		fz.Close()
		return nil, ErrNoPages
	}
	if err := checkPages(n, lim); err != nil {
		fz.Close()
		return nil, err
	}
	return &Document{fz: fz, pages: n, truncated: truncated(data)}, nil
}

// Truncated reports whether the file ends without %%EOF: MuPDF repaired
// it, and pages past the cut may be empty or incomplete.
func (d *Document) Truncated() bool { return d.truncated }

// truncated reports whether the end-of-file marker is missing.
func truncated(data []byte) bool {
	tail := data
	if len(tail) > 1024 {
		tail = tail[len(tail)-1024:]
	}
	return !bytes.Contains(tail, []byte("%%EOF"))
}

// truncationHint explains why a file may be damaged.
func truncationHint(data []byte) string {
	if truncated(data) {
		return " (the file ends without %%EOF: it looks truncated, e.g. an incomplete download)"
	}
	return " (truncated or corrupted file)"
}

// NumPages returns the number of pages.
func (d *Document) NumPages() int { return d.pages }

// Page extracts page n (1-based): its layout, cleaned text and
// classification. An error wraps ErrPage; it concerns this page only.
func (d *Document) Page(n int) (Page, error) {
	if err := d.checkPage(n); err != nil {
		return Page{Number: n}, err
	}
	js, bounds, err := stextJSON(d.fz, n-1, stextFlags)
	if err != nil {
		return Page{Number: n}, fmt.Errorf("page %d: %w (%v)", n, ErrPage, err)
	}
	p, unreadable, err := layout(n, js, bounds)
	if err != nil {
		return Page{Number: n}, fmt.Errorf("page %d: %w (%v)", n, ErrPage, err)
	}
	d.classify(&p, unreadable)
	return p, nil
}

// Close releases the MuPDF document and context. It is safe to call twice.
func (d *Document) Close() error {
	if d.fz == nil {
		return nil
	}
	err := d.fz.Close()
	d.fz = nil
	return err
}
