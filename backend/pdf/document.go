package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	fitz "github.com/gen2brain/go-fitz"

	"vika/backend/corpus"
)

// Document is an open PDF. It is not safe for concurrent use; Close it.
type Document struct {
	fz    *fitz.Document
	pages int
}

// Page is one extracted page.
type Page struct {
	Number    int // 1-based
	Text      string
	Width     float64 // points
	Height    float64 // points
	Chars     int     // non-space characters of Text
	Density   float64 // Chars / (Width*Height)
	HasImages bool    // not detected yet: always false (see Classify)
	Type      corpus.PageType
	Err       error // wraps ErrPage when the page could not be read
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
	return &Document{fz: fz, pages: n}, nil
}

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

// Page extracts page n (1-based). Failures are reported in Page.Err.
func (d *Document) Page(n int) Page {
	p := Page{Number: n, Type: corpus.PageText}
	if n < 1 || n > d.pages {
		p.Err = fmt.Errorf("%w: page %d does not exist (the document has %d)", ErrPage, n, d.pages)
		return p
	}
	r, err := d.fz.Bound(n - 1)
	if err != nil {
		p.Err = fmt.Errorf("page %d: %w (%v)", n, ErrPage, err)
		return p
	}
	p.Width, p.Height = float64(r.Dx()), float64(r.Dy())
	text, err := d.fz.Text(n - 1)
	if err != nil {
		p.Err = fmt.Errorf("page %d: %w (%v)", n, ErrPage, err)
		return p
	}
	p.Text = CleanText(text)
	p.Chars = countChars(p.Text)
	p.Density = Density(p.Chars, p.Width*p.Height)
	p.Type = Classify(p.Chars, p.Width*p.Height, p.HasImages)
	return p
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

// CleanText makes extracted text safe to store and index: valid UTF-8, no
// NUL or other control characters except newlines and tabs, \r\n and \r
// turned into \n, trailing spaces of lines and of the page removed.
func CleanText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for _, line := range strings.Split(s, "\n") {
		line = strings.Map(func(r rune) rune {
			switch {
			case r == '\r':
				return '\n'
			case r == '\t':
				return ' '
			case unicode.IsControl(r), r == '\uFEFF':
				return -1
			}
			return r
		}, line)
		b.WriteString(strings.TrimRightFunc(line, unicode.IsSpace))
		b.WriteByte('\n')
	}
	return strings.TrimRightFunc(b.String(), unicode.IsSpace)
}

func countChars(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}
