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
	"sync"
	"time"
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
func stextJSON(d *fitz.Document, i, flags int, deadline time.Time) ([]byte, Rect, error) {
	ctx, doc, ok := handles(d)
	if !ok {
		return nil, Rect{}, errNoHandles
	}
	var bounds [4]C.float
	var buf *C.fz_buffer
	msg := (*C.char)(C.malloc(errLen))
	defer C.free(unsafe.Pointer(msg))
	w, err := watch(deadline)
	if err != nil {
		return nil, Rect{}, err
	}
	rc := C.vika_stext_json((*C.fz_context)(ctx), (*C.fz_document)(doc), C.int(i), C.int(flags), w.cookie, &bounds[0], &buf, msg, errLen)
	w.stop()
	switch {
	case rc == C.VIKA_ABORTED:
		return nil, Rect{}, errAborted
	case rc != 0:
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
func renderGray(d *fitz.Document, i int, scale float64, area [4]int, pix []byte, deadline time.Time) error {
	ctx, doc, ok := handles(d)
	if !ok {
		return errNoHandles
	}
	msg := (*C.char)(C.malloc(errLen))
	defer C.free(unsafe.Pointer(msg))
	w, err := watch(deadline)
	if err != nil {
		return err
	}
	ir := C.fz_irect{C.int(area[0]), C.int(area[1]), C.int(area[2]), C.int(area[3])}
	rc := C.vika_render_gray((*C.fz_context)(ctx), (*C.fz_document)(doc), C.int(i), C.float(scale), ir, w.cookie, (*C.uchar)(unsafe.Pointer(&pix[0])), msg, errLen)
	w.stop()
	switch {
	case rc == C.VIKA_ABORTED:
		return errAborted
	case rc != 0:
		return errors.New(C.GoString(msg))
	}
	return nil
}

// errAborted: the run passed its deadline and MuPDF stopped it.
var errAborted = errors.New("aborted at the time limit")

// watcher aborts one MuPDF run at a deadline through its fz_cookie: a Go
// timer sets cookie->abort, which the interpreter checks as it goes (also
// inside nested form XObjects), so the run stops cleanly, its objects
// dropped, and the context stays usable.
type watcher struct {
	cookie *C.fz_cookie
	timer  *time.Timer
	mu     sync.Mutex // orders the timer's write against stop's free
	done   bool       // guarded by mu
}

// watch returns a watcher for a run that must end by deadline (zero: no
// limit), or errAborted if the deadline has passed already.
func watch(deadline time.Time) (*watcher, error) {
	if !deadline.IsZero() && !time.Now().Before(deadline) {
		return nil, errAborted
	}
	w := &watcher{cookie: (*C.fz_cookie)(C.calloc(1, C.sizeof_fz_cookie))}
	if !deadline.IsZero() {
		w.timer = time.AfterFunc(time.Until(deadline), func() {
			w.mu.Lock()
			if !w.done {
				w.cookie.abort = 1
			}
			w.mu.Unlock()
		})
	}
	return w, nil
}

// stop ends the watch and frees the cookie.
func (w *watcher) stop() {
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Lock()
	w.done = true
	C.free(unsafe.Pointer(w.cookie))
	w.cookie = nil
	w.mu.Unlock()
}

// maxPaths bounds the path boxes kept for one page; a page drawing more
// (a plot of a million points) keeps the first maxPaths.
const maxPaths = 8192

// pathBox is the bounding box of one filled or stroked vector path.
type pathBox struct {
	Box    Rect
	Stroke bool
}

// pathBoxes runs page index i (0-based) through a device that records
// every vector path's box (at most maxPaths) and returns them with the
// number of paths drawn.
func pathBoxes(d *fitz.Document, i int, deadline time.Time) ([]pathBox, int, error) {
	ctx, doc, ok := handles(d)
	if !ok {
		return nil, 0, errNoHandles
	}
	buf := (*[maxPaths * 5]C.float)(C.malloc(C.size_t(maxPaths * 5 * C.sizeof_float)))
	defer C.free(unsafe.Pointer(buf))
	msg := (*C.char)(C.malloc(errLen))
	defer C.free(unsafe.Pointer(msg))
	w, err := watch(deadline)
	if err != nil {
		return nil, 0, err
	}
	var total C.int
	rc := C.vika_path_boxes((*C.fz_context)(ctx), (*C.fz_document)(doc), C.int(i), w.cookie, &buf[0], maxPaths, &total, msg, errLen)
	w.stop()
	switch {
	case rc == C.VIKA_ABORTED:
		return nil, 0, errAborted
	case rc != 0:
		return nil, 0, errors.New(C.GoString(msg))
	}
	n := min(int(total), maxPaths)
	out := make([]pathBox, n)
	for k := range n {
		b := buf[5*k : 5*k+5]
		out[k] = pathBox{Box: Rect{float64(b[0]), float64(b[1]), float64(b[2]), float64(b[3])}, Stroke: b[4] != 0}
	}
	return out, int(total), nil
}

// maxImageDraws bounds the image draws kept for one page (a page
// drawing more than MaxPageImages is never OCRed anyway).
const maxImageDraws = MaxPageImages

// imageDraw is one image drawn on a page: its box, the lengths of its
// sides as placed (points) and its size in pixels.
type imageDraw struct {
	Box            Rect
	Width, Height  float64 // points
	PixelW, PixelH int
}

// ppi returns the image's resolution as drawn: the smaller of its pixels
// per inch along its two sides (0 for a degenerate draw).
func (im imageDraw) ppi() float64 {
	if im.Width <= 0 || im.Height <= 0 || im.PixelW <= 0 || im.PixelH <= 0 {
		return 0
	}
	return min(float64(im.PixelW)*72/im.Width, float64(im.PixelH)*72/im.Height)
}

// imageDraws runs page index i (0-based) through a device that records
// every image drawn (at most maxImageDraws).
func imageDraws(d *fitz.Document, i int, deadline time.Time) ([]imageDraw, error) {
	ctx, doc, ok := handles(d)
	if !ok {
		return nil, errNoHandles
	}
	const k = C.VIKA_IMAGE_FLOATS
	buf := (*[maxImageDraws * k]C.float)(C.malloc(C.size_t(maxImageDraws * k * C.sizeof_float)))
	defer C.free(unsafe.Pointer(buf))
	msg := (*C.char)(C.malloc(errLen))
	defer C.free(unsafe.Pointer(msg))
	w, err := watch(deadline)
	if err != nil {
		return nil, err
	}
	var total C.int
	rc := C.vika_image_draws((*C.fz_context)(ctx), (*C.fz_document)(doc), C.int(i), w.cookie, &buf[0], maxImageDraws, &total, msg, errLen)
	w.stop()
	switch {
	case rc == C.VIKA_ABORTED:
		return nil, errAborted
	case rc != 0:
		return nil, errors.New(C.GoString(msg))
	}
	n := min(int(total), maxImageDraws)
	out := make([]imageDraw, n)
	for j := range n {
		b := buf[k*j : k*j+k]
		out[j] = imageDraw{Box: Rect{float64(b[0]), float64(b[1]), float64(b[2]), float64(b[3])},
			Width: float64(b[4]), Height: float64(b[5]), PixelW: int(b[6]), PixelH: int(b[7])}
	}
	return out, nil
}
