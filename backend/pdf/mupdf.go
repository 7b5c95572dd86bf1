package pdf

// go-fitz calls a few MuPDF functions outside fz_try. An exception thrown
// there has no handler and MuPDF terminates the whole process ("aborting
// process from uncaught error!"); fz_count_pages does that on a page tree
// with a negative /Count. This package therefore calls MuPDF itself, inside
// fz_try (mupdf.c, declarations in mupdf.h), against the MuPDF library that
// go-fitz links statically, using the context and document handles of the
// go-fitz Document.

/*
#include <stdlib.h>
#include "mupdf.h"
*/
import "C"

import (
	"errors"
	"reflect"
	"unsafe"

	fitz "github.com/gen2brain/go-fitz"
)

// errNoHandles means the go-fitz Document layout is not the expected one
// (TestHandles catches this on upgrades).
var errNoHandles = errors.New("cannot reach the MuPDF handles of go-fitz")

const errLen = 256

// handles returns the MuPDF context and document of d, or ok=false if
// this go-fitz version lays out its Document differently.
func handles(d *fitz.Document) (ctx, doc unsafe.Pointer, ok bool) {
	v := reflect.ValueOf(d).Elem()
	c, f := v.FieldByName("ctx"), v.FieldByName("doc")
	if !c.IsValid() || !f.IsValid() || c.Kind() != reflect.Pointer || f.Kind() != reflect.Pointer {
		return nil, nil, false
	}
	ctx, doc = c.UnsafePointer(), f.UnsafePointer()
	return ctx, doc, ctx != nil && doc != nil
}

// countPages returns the number of pages, or -1 if MuPDF cannot count them.
func countPages(d *fitz.Document) int {
	ctx, doc, ok := handles(d)
	if !ok {
		return d.NumPage() // unguarded fallback; TestHandles catches layout changes
	}
	return int(C.vika_count_pages((*C.fz_context)(ctx), (*C.fz_document)(doc)))
}

// quiet stops MuPDF printing warnings and errors to stderr; failures are
// reported through errors instead.
func quiet(d *fitz.Document) {
	if ctx, _, ok := handles(d); ok {
		C.vika_quiet((*C.fz_context)(ctx))
	}
}

// stext flags (structured-text.h).
const (
	stextPreserveImages = 4
	stextMediaboxClip   = 64
)

// stextJSON runs page index i (0-based) through MuPDF's structured-text
// device and returns its JSON rendering and the page bounds (points).
func stextJSON(d *fitz.Document, i, flags int) ([]byte, Rect, error) {
	ctx, doc, ok := handles(d)
	if !ok {
		return nil, Rect{}, errNoHandles
	}
	var bounds [4]C.float
	var buf *C.fz_buffer
	msg := (*C.char)(C.malloc(errLen))
	defer C.free(unsafe.Pointer(msg))
	if C.vika_stext_json((*C.fz_context)(ctx), (*C.fz_document)(doc), C.int(i), C.int(flags), &bounds[0], &buf, msg, errLen) != 0 {
		return nil, Rect{}, errors.New(C.GoString(msg))
	}
	defer C.vika_drop_buffer((*C.fz_context)(ctx), buf)
	var data *C.uchar
	n := C.vika_buffer_data((*C.fz_context)(ctx), buf, &data)
	r := Rect{float64(bounds[0]), float64(bounds[1]), float64(bounds[2]), float64(bounds[3])}
	return C.GoBytes(unsafe.Pointer(data), C.int(n)), r, nil
}

// boundPage returns the bounds of page index i (0-based), in points.
func boundPage(d *fitz.Document, i int) (Rect, error) {
	ctx, doc, ok := handles(d)
	if !ok {
		return Rect{}, errNoHandles
	}
	var b [4]C.float
	msg := (*C.char)(C.malloc(errLen))
	defer C.free(unsafe.Pointer(msg))
	if C.vika_bound_page((*C.fz_context)(ctx), (*C.fz_document)(doc), C.int(i), &b[0], msg, errLen) != 0 {
		return Rect{}, errors.New(C.GoString(msg))
	}
	return Rect{float64(b[0]), float64(b[1]), float64(b[2]), float64(b[3])}, nil
}

// renderGray draws page index i scaled by scale into pix, an 8-bit gray
// buffer of the device-space rectangle area (x0, y0, x1, y1 in pixels).
func renderGray(d *fitz.Document, i int, scale float64, area [4]int, pix []byte) error {
	ctx, doc, ok := handles(d)
	if !ok {
		return errNoHandles
	}
	msg := (*C.char)(C.malloc(errLen))
	defer C.free(unsafe.Pointer(msg))
	ir := C.fz_irect{C.int(area[0]), C.int(area[1]), C.int(area[2]), C.int(area[3])}
	if C.vika_render_gray((*C.fz_context)(ctx), (*C.fz_document)(doc), C.int(i), C.float(scale), ir, (*C.uchar)(unsafe.Pointer(&pix[0])), msg, errLen) != 0 {
		return errors.New(C.GoString(msg))
	}
	return nil
}
