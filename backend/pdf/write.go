package pdf

/*
#include <stdlib.h>
#include "write.h"
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"
)

// Page geometry of documents MuPDF lays out itself (EPUB, FB2, MOBI, the
// Office handler's HTML): A4 at 11 pt, the size of a printed course.
const (
	reflowWidth  = 595
	reflowHeight = 842
	reflowEm     = 11
)

// MaxImageSide is the longer side, in points, that a page of an image
// file is scaled down to when written as PDF: a photo's page comes out
// the size of an A4 page with its pixels kept (a 4,000-pixel photo at
// 340 pixels per inch), so that OCR at 300 DPI reads it near its own
// resolution instead of rendering a poster.
const MaxImageSide = 842

// writeStore is the MuPDF store of a conversion's own context.
const writeStore = 64 << 20

// WritePDF opens data as a document of the given kind (a file extension
// or MIME type MuPDF's handlers know: "png", "epub", "xps", "cbz", "fb2",
// "docx", ...) and writes it as PDF, text kept as text: images become
// one page each (scaled down to maxSide points on their longer side when
// maxSide > 0), reflowable documents are laid out on A4 pages. It returns
// the PDF and its page count. The document is refused with ErrTooLarge
// past lim.MaxPages pages or when the PDF grows past lim.MaxBytes, with
// ErrEncrypted when it needs a password, ErrNoPages or ErrCorrupt when
// MuPDF cannot read it; past deadline (zero: none) MuPDF is stopped and
// the call fails with ErrTimeout. It needs no go-fitz document: it runs
// in a MuPDF context of its own.
func WritePDF(data []byte, kind string, maxSide float64, lim Limits, deadline time.Time) ([]byte, int, error) {
	if len(data) == 0 {
		return nil, 0, ErrEmpty
	}
	if err := CheckSize(int64(len(data)), lim); err != nil {
		return nil, 0, err
	}
	ckind := C.CString(kind)
	defer C.free(unsafe.Pointer(ckind))
	msg := (*C.char)(C.malloc(errLen))
	defer C.free(unsafe.Pointer(msg))
	*msg = 0
	w, err := watch(deadline)
	if err != nil {
		return nil, 0, ErrTimeout
	}
	var out *C.uchar
	var outLen C.size_t
	var pages C.int
	cdata := C.CBytes(data)
	defer C.free(cdata)
	rc := C.vika_write_pdf(ckind, (*C.uchar)(cdata), C.size_t(len(data)), writeStore,
		reflowWidth, reflowHeight, reflowEm, C.float(maxSide), C.int(lim.MaxPages), C.size_t(max(lim.MaxBytes, 0)),
		w.cookie, &out, &outLen, &pages, msg, errLen)
	w.stop()
	reason := C.GoString(msg)
	switch rc {
	case 0:
		defer C.free(unsafe.Pointer(out))
		return C.GoBytes(unsafe.Pointer(out), C.int(outLen)), int(pages), nil
	case C.VIKA_ABORTED:
		return nil, 0, fmt.Errorf("%w: converting the %s file to PDF", ErrTimeout, kind)
	case C.VIKA_WRITE_PASSWORD:
		return nil, 0, fmt.Errorf("%w: the %s file needs a password", ErrEncrypted, kind)
	case C.VIKA_WRITE_NOPAGES:
		return nil, 0, fmt.Errorf("%w: MuPDF found no page in the %s file", ErrNoPages, kind)
	case C.VIKA_WRITE_PAGES:
		return nil, 0, checkPages(int(pages), lim)
	case C.VIKA_WRITE_BYTES:
		return nil, 0, fmt.Errorf("%w: its PDF grows past %s", ErrTooLarge, humanBytes(lim.MaxBytes))
	default:
		return nil, 0, fmt.Errorf("%w: MuPDF cannot read this %s file (%s)", ErrCorrupt, kind, reason)
	}
}
