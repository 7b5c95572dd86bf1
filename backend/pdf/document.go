package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"time"

	fitz "github.com/gen2brain/go-fitz"
)

// Document is an open PDF. It is not safe for concurrent use; Close it.
type Document struct {
	fz        *fitz.Document
	pages     int
	truncated bool      // the file ends without %%EOF
	deadline  time.Time // MuPDF runs past it are aborted; zero: none
	noCrops   bool      // DetectRegions crops no figure (SkipCrops)
}

// SkipCrops makes DetectRegions find figures without rendering their
// crops: the document has spent its crop budget.
func (d *Document) SkipCrops() { d.noCrops = true }

// SetDeadline bounds the MuPDF work of the next calls (Page, Render,
// RenderRegion): a run still going at t is aborted cleanly through its
// fz_cookie and the call fails with ErrTimeout. The zero time removes
// the bound. Callers set a fresh deadline before each page.
func (d *Document) SetDeadline(t time.Time) { d.deadline = t }

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

// truncated reports whether the end-of-file marker is missing: no %%EOF
// at all, or bytes after the last one that hold PDF objects or a
// cross-reference section (an incremental update cut before its own
// %%EOF). Other bytes after it, however many (a signature's padding, the
// payload of a polyglot file), are not a truncation.
func truncated(data []byte) bool {
	i := bytes.LastIndex(data, []byte("%%EOF"))
	if i < 0 {
		return true
	}
	rest := data[i+len("%%EOF"):]
	return bytes.Contains(rest, []byte("xref")) || objHeader.Match(rest)
}

// objHeader is the start of an indirect object: "12 0 obj".
var objHeader = regexp.MustCompile(`[0-9]+[ \t\r\n]+[0-9]+[ \t\r\n]+obj\b`)

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
	js, bounds, err := stextJSON(d.fz, n-1, stextFlags, d.deadline)
	if err != nil {
		return Page{Number: n}, d.pageError(n, err)
	}
	if err := checkSide(n, bounds); err != nil {
		return Page{Number: n}, err
	}
	p, unreadable, err := layout(n, js, bounds)
	if err != nil {
		return Page{Number: n}, fmt.Errorf("page %d: %w (%v)", n, ErrPage, err)
	}
	if letterSpaced(p.Text) { // read it again with the layer's own spaces (spacing.go)
		if js2, _, err := stextJSON(d.fz, n-1, stextFlags|stextInhibitSpaces, d.deadline); err == nil {
			if p2, u2, err := layout(n, js2, bounds); err == nil && wordy(p2.Text) {
				p, unreadable = p2, u2
			}
		}
	}
	d.classify(&p, unreadable)
	// Fields, notes and links are extras: a page whose annotations cannot
	// be read keeps its text.
	_ = d.readMarks(&p)
	if p.rawImages > MaxPageImages && p.Class.Chars == 0 {
		return p, fmt.Errorf("page %d draws %d images, more than the %d Vika reads on one page, and has no text layer: it was skipped (%w)", n, p.rawImages, MaxPageImages, ErrPage)
	}
	return p, nil
}

// pageError wraps an error of MuPDF on page n.
func (d *Document) pageError(n int, err error) error {
	if errors.Is(err, errAborted) {
		return fmt.Errorf("page %d took too long and was skipped (%w)", n, ErrTimeout)
	}
	return fmt.Errorf("page %d: %w (%v)", n, ErrPage, err)
}

// checkSide fails a page larger than MaxPageSide.
func checkSide(n int, b Rect) error {
	if !(b.Dx() <= MaxPageSide && b.Dy() <= MaxPageSide) { // NaN fails too
		return fmt.Errorf("page %d is %.4g x %.4g pt, larger than the %d pt a side a PDF page may have, and was skipped (%w)", n, b.Dx(), b.Dy(), MaxPageSide, ErrPageSize)
	}
	return nil
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
