package pdf

/*
#include <stdlib.h>
#include "mupdf.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Annotations reads back page n's (1-based) highlights and text notes as
// MuPDF sees them: each highlight's boxes are its quadrilaterals' boxes,
// a note's single box its icon's rectangle; the colour is RGB (a gray
// colour given as three equal components, other colour spaces as zero);
// text is cut to MaxMarkText characters, line breaks kept. It reads at most MaxPageMarks of
// them, visiting at most MaxMarkVisit annotations.
func (d *Document) Annotations(n int) ([]Annotation, error) {
	if err := d.checkPage(n); err != nil {
		return nil, err
	}
	ctx, doc, ok := handles(d.fz)
	if !ok {
		return nil, errNoHandles
	}
	var a C.vika_annot
	out := (*C.vika_annot)(C.calloc(C.size_t(MaxPageMarks), C.size_t(unsafe.Sizeof(a))))
	defer C.free(unsafe.Pointer(out))
	errBuf := (*C.char)(C.calloc(errLen, 1))
	defer C.free(unsafe.Pointer(errBuf))
	k := int(C.vika_read_annots((*C.fz_context)(ctx), (*C.fz_document)(doc), C.int(n-1), out, MaxPageMarks, MaxMarkVisit, errBuf, errLen))
	if k < 0 {
		return nil, errors.New("the page's annotations cannot be read: " + C.GoString(errBuf))
	}
	var anns []Annotation
	for _, e := range unsafe.Slice(out, k) {
		ann := Annotation{Page: n, Kind: AnnotHighlight, Text: cut(C.GoString(&e.text[0]), MaxMarkText)}
		switch e.ncolor {
		case 1:
			ann.Color = [3]float64{float64(e.color[0]), float64(e.color[0]), float64(e.color[0])}
		case 3:
			ann.Color = [3]float64{float64(e.color[0]), float64(e.color[1]), float64(e.color[2])}
		}
		if e._type == C.VIKA_ANNOT_TEXT {
			ann.Kind = AnnotNote
			ann.Boxes = []Rect{{float64(e.rect[0]), float64(e.rect[1]), float64(e.rect[2]), float64(e.rect[3])}}
		}
		for q := range int(e.nquads) {
			b := e.quads[4*q : 4*q+4]
			ann.Boxes = append(ann.Boxes, Rect{float64(b[0]), float64(b[1]), float64(b[2]), float64(b[3])})
		}
		anns = append(anns, ann)
	}
	return anns, nil
}

// cut is s as valid UTF-8 without control characters (annotationText),
// cut to at most max characters.
func cut(s string, max int) string {
	s = annotationText(s)
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}
