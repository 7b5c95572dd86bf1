// Package pdf opens PDF bytes with MuPDF (through go-fitz), validates them
// and extracts each page's text layer, size and classification.
//
// Bad input is reported with sentinel errors (ErrEmpty, ErrNotPDF,
// ErrEncrypted, ErrCorrupt, ErrNoPages, ErrTooLarge) wrapped in a message
// that is safe to show to the user; test them with errors.Is. A page whose
// text cannot be extracted never fails the document: its Page carries Err.
//
// MuPDF contexts are not goroutine safe: a Document belongs to the
// goroutine that opened it. Different Documents may be used concurrently.
package pdf

import (
	"errors"
	"fmt"
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
)

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
		return fmt.Errorf("%w: the file does not start with %%PDF-%s", ErrNotPDF, describe(data))
	}
	return nil
}

// CheckSize reports ErrTooLarge when size exceeds lim.MaxBytes. Callers
// reading from disk use it on the file size before reading.
func CheckSize(size int64, lim Limits) error {
	if lim.MaxBytes > 0 && size > lim.MaxBytes {
		return fmt.Errorf("%w: %s, the limit is %s", ErrTooLarge, humanBytes(size), humanBytes(lim.MaxBytes))
	}
	return nil
}

func checkPages(n int, lim Limits) error {
	if lim.MaxPages > 0 && n > lim.MaxPages {
		return fmt.Errorf("%w: %d pages, the limit is %d", ErrTooLarge, n, lim.MaxPages)
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
