package pdf

/*
#include <stdlib.h>
#include "mupdf.h"
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
	"unsafe"

	"vika/backend/message"
)

// Writing a student's highlights and notes back into a copy of a PDF, as
// standard annotations any reader shows (Okular, Zotero, Acrobat, pdf.js):
//
//   - a highlight is a Highlight annotation: one quadrilateral a box
//     (QuadPoints, in reading order), its colour (/C), its comment
//     (/Contents) and an appearance stream MuPDF draws, so that a reader
//     that draws no annotation of its own still shows it;
//   - a note is a Text annotation (a "sticky note"): an icon at the top
//     left of its box that opens a pop-up with the note. Not FreeText:
//     free text is drawn on the page and would hide what is under it, a
//     long note would need a box sized to its text in a font every reader
//     has, and Zotero and Okular list Text notes with the others.
//
// The copy is the original file followed by an incremental update holding
// the new annotations (the original bytes, and any signature over them,
// unchanged), or a whole rewrite when MuPDF repaired the file on opening.

// Annotation kinds.
const (
	AnnotHighlight = "highlight"
	AnnotNote      = "note"
)

// Bounds on what a copy may be asked to hold.
const (
	// MaxAnnotations is the most annotations written into one copy.
	MaxAnnotations = 5000
	// MaxAnnotationBoxes is the most boxes of one highlight (one a line).
	MaxAnnotationBoxes = 200
	// MaxAnnotationText is the most characters of a highlight's comment or
	// a note's text.
	MaxAnnotationText = 10000
)

// Annotation is a highlight or a note to write into a copy of a PDF.
type Annotation struct {
	Page int    // 1-based
	Kind string // AnnotHighlight or AnnotNote
	// Boxes: a highlight's, one per highlighted line; a note's icon sits
	// at the top-left corner of the first. In page points, origin at the
	// top left (corpus.Line.BBox's space).
	Boxes []Rect
	Color [3]float64 // RGB, 0..1
	Text  string     // a highlight's comment, or a note's text
}

// ErrAnnotation: an annotation cannot be written as asked (a page the
// document does not have, no box, a box off the page, too much text...).
var ErrAnnotation = errors.New("annotation cannot be written")

// ErrWrite: MuPDF could not write the copy.
var ErrWrite = errors.New("the annotated copy cannot be written")

// CheckAnnotations validates anns without the document: their number,
// kinds, boxes, colours and text lengths. Annotate calls it; a caller
// outside the worker may call it first to fail early.
func CheckAnnotations(anns []Annotation) error {
	if len(anns) > MaxAnnotations {
		return message.Wrap(fmt.Errorf("%w: %d annotations, at most %d", ErrAnnotation, len(anns), MaxAnnotations),
			message.AnnotateTooMany, "count", len(anns), "limit", MaxAnnotations)
	}
	for i, a := range anns {
		if err := checkAnnotation(a); err != nil {
			return message.Wrap(fmt.Errorf("%w: annotation %d (page %d): %s", ErrAnnotation, i+1, a.Page, err),
				message.AnnotateInvalid, "index", i+1, "page", a.Page, "why", err.Error())
		}
	}
	return nil
}

// checkAnnotation says what is wrong with a, in a word or two.
func checkAnnotation(a Annotation) error {
	switch {
	case a.Page < 1:
		return errors.New("page")
	case a.Kind != AnnotHighlight && a.Kind != AnnotNote:
		return errors.New("kind")
	case len(a.Boxes) == 0 || len(a.Boxes) > MaxAnnotationBoxes:
		return errors.New("boxes")
	case a.Kind == AnnotNote && strings.TrimSpace(a.Text) == "":
		return errors.New("text")
	case utf8.RuneCountInString(a.Text) > MaxAnnotationText:
		return errors.New("text")
	}
	for _, c := range a.Color {
		if !(c >= 0 && c <= 1) { // NaN fails too
			return errors.New("color")
		}
	}
	for _, b := range a.Boxes {
		for _, v := range []float64{b.X0, b.Y0, b.X1, b.Y1} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return errors.New("boxes")
			}
		}
		if a.Kind == AnnotHighlight && b.Empty() {
			return errors.New("boxes")
		}
	}
	return nil
}

// Annotate returns a copy of the PDF data with anns written as standard
// annotations. data is validated and opened as Open does (lim applies);
// a password-protected or encrypted file fails with ErrEncrypted, a
// damaged one with ErrCorrupt, a bad annotation with ErrAnnotation, each
// wrapped with an annotate.* message code. Boxes are clipped to their
// page; a box wholly off its page is an error.
func Annotate(data []byte, anns []Annotation, lim Limits) ([]byte, error) {
	if err := CheckAnnotations(anns); err != nil {
		return nil, err
	}
	d, err := Open(data, lim)
	if err != nil {
		return nil, openFailed(err)
	}
	defer d.Close()
	ctx, doc, ok := handles(d.fz)
	if !ok {
		return nil, errNoHandles
	}
	cctx, cdoc := (*C.fz_context)(ctx), (*C.fz_document)(doc)
	switch C.vika_encrypted(cctx, cdoc) {
	case 1:
		return nil, message.Wrap(fmt.Errorf("%w: the file is encrypted; Vika does not write into it", ErrEncrypted), message.AnnotateEncrypted)
	case -1:
		return nil, message.Wrap(fmt.Errorf("%w: MuPDF cannot edit it", ErrCorrupt), message.AnnotateCorrupt)
	}
	errBuf := (*C.char)(C.calloc(errLen, 1))
	defer C.free(unsafe.Pointer(errBuf))
	for i, a := range anns {
		if err := d.annotate(cctx, cdoc, a, errBuf); err != nil {
			return nil, message.Wrap(fmt.Errorf("%w: annotation %d (page %d): %v", ErrAnnotation, i+1, a.Page, err),
				message.AnnotateInvalid, "index", i+1, "page", a.Page, "why", err.Error())
		}
	}
	var buf *C.fz_buffer
	rc := C.vika_save_pdf(cctx, cdoc, 1, &buf, errBuf, errLen)
	if rc < 0 {
		detail := C.GoString(errBuf)
		return nil, message.Wrap(fmt.Errorf("%w: %s", ErrWrite, detail), message.AnnotateFailed, "detail", detail)
	}
	defer C.vika_drop_buffer(cctx, buf)
	var p *C.uchar
	n := C.vika_buffer_data(cctx, buf, &p)
	written := C.GoBytes(unsafe.Pointer(p), C.int(n))
	if rc == 1 && !bytes.HasPrefix(written, []byte("%PDF-")) {
		// MuPDF wrote the update alone: the original comes first.
		written = append(append(make([]byte, 0, len(data)+len(written)), data...), written...)
	}
	return written, nil
}

// openFailed gives Open's errors their annotate.* codes: the window says
// why no copy was written, not why the PDF cannot be added.
func openFailed(err error) error {
	switch {
	case errors.Is(err, ErrEncrypted):
		return message.Wrap(err, message.AnnotateEncrypted)
	case errors.Is(err, ErrTooLarge):
		return err
	}
	return message.Wrap(err, message.AnnotateCorrupt)
}

// annotate writes one annotation, its boxes clipped to the page.
func (d *Document) annotate(ctx *C.fz_context, doc *C.fz_document, a Annotation, errBuf *C.char) error {
	if a.Page > d.pages {
		return fmt.Errorf("page %d of %d", a.Page, d.pages)
	}
	bounds, err := boundPage(d.fz, a.Page-1)
	if err != nil {
		return err
	}
	var boxes []C.float
	for _, b := range a.Boxes {
		c, ok := b.Intersect(bounds)
		if !ok || (a.Kind == AnnotHighlight && c.Empty()) {
			return errors.New("a box lies off the page")
		}
		if a.Kind == AnnotNote { // the icon stays on the page
			c.X0 = math.Min(c.X0, bounds.X1-noteIcon)
			c.Y0 = math.Min(c.Y0, bounds.Y1-noteIcon)
		}
		boxes = append(boxes, C.float(c.X0), C.float(c.Y0), C.float(c.X1), C.float(c.Y1))
	}
	color := [3]C.float{C.float(a.Color[0]), C.float(a.Color[1]), C.float(a.Color[2])}
	text := C.CString(annotationText(a.Text))
	defer C.free(unsafe.Pointer(text))
	kind := C.int(C.VIKA_ANNOT_HIGHLIGHT)
	if a.Kind == AnnotNote {
		kind = C.VIKA_ANNOT_TEXT
	}
	if C.vika_annotate(ctx, doc, C.int(a.Page-1), kind, &boxes[0], C.int(len(a.Boxes)), &color[0], text, nil, errBuf, errLen) != 0 {
		return errors.New(C.GoString(errBuf))
	}
	return nil
}

// noteIcon is the side of a note's icon in points (annotate.c).
const noteIcon = 20

// annotationText is s as valid UTF-8 without control characters other
// than line breaks and tabs (a NUL would cut the C string).
func annotationText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
}
