// Package pdf opens PDF bytes with MuPDF (through go-fitz), validates
// them, and turns each page into a layout, a clean text and a
// classification; it also renders pages and regions for OCR.
//
//   - Layout (stext.go, line.go, order.go): MuPDF's structured text with
//     image blocks, decoded from its JSON; fragments rebuilt into lines
//     with their dominant font; blocks put in reading order (columns
//     read one after the other, full-width titles and figures in place).
//   - Text (clean.go, text.go, layout.go): ligatures expanded, words
//     hyphenated across lines joined (real compounds kept), white space
//     collapsed; every Line knows its rune offsets in Page.Text, which is
//     what chunk offsets refer to. CleanText applies the same rules to
//     any text, such as OCR output.
//   - Classification (classify.go, images.go, textlike.go): the
//     text-density rule as a baseline, refined so that a page whose
//     text layer is complete is not OCRed and only image regions large
//     enough to hold text, without text layer over them, whose pixels show
//     text, are (Page.OCRRegions); scans are OCRed whole.
//   - Rendering (render.go): 8-bit gray pages and regions at any DPI.
//   - Regions (region.go, table.go, figure.go, formula.go): tables from
//     captions, ruling lines (vector paths, collected by a device of our
//     own in mupdf.c) and aligned cells, as Markdown; figures from
//     captions, images and clusters of vector paths, with a PNG crop;
//     display formulas from math fonts and operators. WordTables rebuilds
//     the tables of a scanned page from its OCR word boxes.
//   - Marks (marks.go) and annotations (annotate.go, annotread.go,
//     annotate.c): the fields, notes and links a page holds; Annotate
//     writes a copy of a PDF with highlights and text notes through
//     MuPDF, and Document.Annotations reads them back.
//
// Every MuPDF call that may throw runs inside fz_try in this package's
// own C (mupdf.c), so a malformed page yields an error, never an abort.
// Every drawing run gets an fz_cookie: Document.SetDeadline makes a run
// still going at the deadline stop cleanly (ErrTimeout), so a page of
// forms nested to billions of operations cannot hold a caller forever.
// Work is bounded on the other axes too: pages larger than MaxPageSide
// and renders over MaxRenderPixels (checked on the final pixel count)
// fail with ErrPageSize; the scanned-cover test unites image areas on a
// bounded grid; a page drawing more than MaxPageImages images is never
// OCRed. The process that calls this package is still exposed to crashes
// and memory use inside MuPDF: package sandbox runs it in a worker.
//
// Bad input is reported with sentinel errors (ErrEmpty, ErrNotPDF,
// ErrEncrypted, ErrCorrupt, ErrNoPages, ErrTooLarge) wrapped in a message
// that is safe to show to the user; test them with errors.Is. A page that
// cannot be read never fails the document: Page returns an error
// wrapping ErrPage (ErrTimeout and ErrPageSize wrap it) for that page only.
//
// MuPDF contexts are not goroutine safe: a Document belongs to the
// goroutine that opened it. Different Documents may be used concurrently.
package pdf

import (
	"errors"
	"fmt"

	"vika/backend/message"
)

// Sentinel errors. Each is returned wrapped with details (%w).
var (
	ErrEmpty     = errors.New("empty file (0 bytes)")
	ErrNotPDF    = errors.New("not a PDF")
	ErrEncrypted = errors.New("password-protected PDF")
	ErrCorrupt   = errors.New("damaged PDF")
	ErrNoPages   = errors.New("the PDF has no pages")
	ErrTooLarge  = errors.New("file too large")
	ErrPage      = errors.New("page cannot be read")
	// ErrTimeout: MuPDF was stopped at the page's deadline (SetDeadline).
	// It wraps ErrPage.
	ErrTimeout error = pageError("time limit reached")
	// ErrPageSize: a page larger than MaxPageSide, or a region too large
	// to render within MaxRenderPixels. It wraps ErrPage.
	ErrPageSize error = pageError("page too large")
)

// pageError is a kind of ErrPage with its own message.
type pageError string

func (e pageError) Error() string { return string(e) }
func (e pageError) Unwrap() error { return ErrPage }

// The codes of the sentinels, for the window (package message).
func init() {
	message.Register(ErrEmpty, message.Empty)
	message.Register(ErrNotPDF, message.NotPDF)
	message.Register(ErrEncrypted, message.Encrypted)
	message.Register(ErrCorrupt, message.Corrupt)
	message.Register(ErrNoPages, message.NoPages)
	message.Register(ErrTooLarge, message.TooLarge)
}

// MaxPageSide is the largest page side accepted, in points: 14400 pt
// (200 inches) is the limit the PDF specification gives. Larger pages
// (a 1e20 x 100 pt page is 711 bytes) fail with ErrPageSize.
const MaxPageSide = 14400

// Limits bounds what Open accepts. A zero or negative field means no limit.
type Limits struct {
	MaxBytes int64
	MaxPages int
}

// Check validates data without parsing it: not empty, within the size
// limit, and starting with the %PDF- header.
func Check(data []byte, lim Limits) error {
	if len(data) == 0 {
		return ErrEmpty
	}
	if err := CheckSize(int64(len(data)), lim); err != nil {
		return err
	}
	if !hasHeader(data) {
		id, _ := sniff(data)
		return message.Wrap(fmt.Errorf("%w: the file does not start with %%PDF-%s", ErrNotPDF, describe(data)),
			message.NotPDF, "looks", id)
	}
	return nil
}

// CheckSize reports ErrTooLarge when size exceeds lim.MaxBytes. Callers
// reading from disk use it on the file size before reading.
func CheckSize(size int64, lim Limits) error {
	if lim.MaxBytes > 0 && size > lim.MaxBytes {
		return message.Wrap(fmt.Errorf("%w: %s, the limit is %s", ErrTooLarge, humanBytes(size), humanBytes(lim.MaxBytes)),
			message.TooLarge, "size", humanBytes(size), "limit", humanBytes(lim.MaxBytes))
	}
	return nil
}

func checkPages(n int, lim Limits) error {
	if lim.MaxPages > 0 && n > lim.MaxPages {
		return message.Wrap(fmt.Errorf("%w: %d pages, the limit is %d", ErrTooLarge, n, lim.MaxPages),
			message.TooManyPages, "pages", n, "limit", lim.MaxPages)
	}
	return nil
}

func humanBytes(n int64) string {
	const (
		kib = 1 << 10
		mib = 1 << 20
	)
	switch {
	case n >= mib:
		return fmt.Sprintf("%.1f MiB", float64(n)/mib)
	case n >= kib:
		return fmt.Sprintf("%.1f KiB", float64(n)/kib)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
