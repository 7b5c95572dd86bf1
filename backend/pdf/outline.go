package pdf

/*
#include <stdlib.h>
#include "mupdf.h"
*/
import "C"

import (
	"errors"
	"strings"
	"unsafe"

	"vika/backend/corpus"
)

// Bounds on what a document's information and outline may cost, whatever
// the file holds.
const (
	// MaxOutline is the most outline entries kept.
	MaxOutline = 2000
	// MaxOutlineDepth is the deepest outline level kept (deeper entries
	// are dropped, their shallower ancestors kept).
	MaxOutlineDepth = 16
	// maxOutlineVisit bounds the nodes walked.
	maxOutlineVisit = 100000
	// maxTitle is the most characters kept of a bookmark title.
	maxTitle = 200
	// maxMetaValue is the most characters kept of a metadata value.
	maxMetaValue = 500
)

// Meta returns the document's information dictionary, each value cleaned
// (see cleanLine) and cut to a bounded length; absent keys stay "".
func (d *Document) Meta() corpus.Meta {
	get := func(key string) string { return d.metadata(key) }
	return corpus.Meta{
		Title: get("info:Title"), Author: get("info:Author"), Subject: get("info:Subject"),
		Keywords: get("info:Keywords"), Creator: get("info:Creator"), Producer: get("info:Producer"),
		Created: pdfDate(get("info:CreationDate")), Modified: pdfDate(get("info:ModDate")),
	}
}

func (d *Document) metadata(key string) string {
	ctx, doc, ok := handles(d.fz)
	if !ok {
		return ""
	}
	ckey := C.CString(key)
	defer C.free(unsafe.Pointer(ckey))
	const size = 4 * maxMetaValue
	buf := (*C.char)(C.malloc(size))
	defer C.free(unsafe.Pointer(buf))
	if C.vika_metadata((*C.fz_context)(ctx), (*C.fz_document)(doc), ckey, buf, size) < 0 {
		return ""
	}
	return clip(C.GoString(buf), maxMetaValue)
}

// Outline returns the document's bookmarks in document order: at most
// MaxOutline entries, no deeper than MaxOutlineDepth, titles cleaned and
// cut. Pages are 1-based; a bookmark pointing outside the document (a
// web link, a broken destination) gets page 0. A document without an
// outline gives nil.
func (d *Document) Outline() ([]corpus.OutlineEntry, error) {
	ctx, doc, ok := handles(d.fz)
	if !ok {
		return nil, errNoHandles
	}
	var entry C.vika_outline_entry
	out := (*C.vika_outline_entry)(C.malloc(C.size_t(MaxOutline) * C.size_t(unsafe.Sizeof(entry))))
	defer C.free(unsafe.Pointer(out))
	errBuf := (*C.char)(C.calloc(errLen, 1))
	defer C.free(unsafe.Pointer(errBuf))
	n := int(C.vika_outline((*C.fz_context)(ctx), (*C.fz_document)(doc), out, MaxOutline, MaxOutlineDepth, maxOutlineVisit, errBuf, errLen))
	if n < 0 {
		return nil, errors.New("the outline cannot be read: " + C.GoString(errBuf))
	}
	var list []corpus.OutlineEntry
	for _, e := range unsafe.Slice(out, n) {
		page := int(e.page) + 1
		if page < 1 || page > d.pages {
			page = 0
		}
		title := clip(C.GoString(&e.title[0]), maxTitle)
		if title == "" && page == 0 {
			continue
		}
		list = append(list, corpus.OutlineEntry{Title: title, Page: page, Depth: int(e.depth)})
	}
	return list, nil
}

// pdfDate turns a PDF date string (D:YYYYMMDDHHmmSS...) into its day,
// YYYY-MM-DD (or YYYY-MM, YYYY when the file gives no more); a value that
// is not one is kept as it is.
func pdfDate(s string) string {
	v := strings.TrimPrefix(s, "D:")
	n := 0
	for n < len(v) && n < 8 && v[n] >= '0' && v[n] <= '9' {
		n++
	}
	switch {
	case n == 8:
		return v[:4] + "-" + v[4:6] + "-" + v[6:8]
	case n >= 6:
		return v[:4] + "-" + v[4:6]
	case n >= 4:
		return v[:4]
	}
	return s
}

// clip cleans s (see cleanLine) and cuts it to at most max characters.
func clip(s string, max int) string {
	s, _ = cleanLine(s)
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}
