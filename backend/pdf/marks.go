package pdf

/*
#include <stdlib.h>
#include "mupdf.h"
*/
import "C"

import (
	"errors"
	"regexp"
	"strings"
	"unicode/utf8"
	"unsafe"

	"vika/backend/corpus"
)

// Marks are what a page holds besides its drawn content: AcroForm fields
// with their values, annotations written in other readers (text notes,
// highlights' comments, free text) and links to outside the document.
// Fields and the page's "Label: value" lines become passages of kind
// form, annotations with contents passages of kind note (Page.Corpus
// adds them to the page's regions, so they are cited and outlined like
// tables); links are kept as metadata (corpus.Link). They are bounded
// like the outline: at most MaxPageMarks a page, MaxMarkVisit of each
// list walked, strings cut.

// Bounds on what a page's marks may cost, whatever the file holds.
const (
	// MaxPageMarks is the most fields, notes and links kept of one page.
	MaxPageMarks = 200
	// MaxMarkVisit bounds the widgets, annotations and links walked on
	// one page (each list).
	MaxMarkVisit = 2000
	// MaxMarkText is the most characters kept of a field's value or a
	// note's contents; MaxLinkURI of a link's target.
	MaxMarkText = 1000
	MaxLinkURI  = 1000
	// maxMarkName bounds a field's name or label.
	maxMarkName = 120
)

// markKind is a mark's kind as vika_marks reports it.
const (
	markField = C.VIKA_MARK_FIELD
	markNote  = C.VIKA_MARK_NOTE
	markLink  = C.VIKA_MARK_LINK
)

// Field is one AcroForm field of a page: several widgets of one field (a
// group of radio buttons) make one Field whose box holds them all.
type Field struct {
	Name  string // the field's full name ("person.name")
	Label string // its tooltip (/TU) when it has one, else Name
	Type  string // MuPDF's field type: text, checkbox, radiobutton, combobox, listbox
	Value string // as stored: a text, a choice, a check box's on-state name or "Off"
	Box   Rect
}

// Note is one annotation with contents: a text note, a highlight's or
// an underline's comment, a free-text box, ...
type Note struct {
	Type string // "text", "freetext", "highlight", ... (annotTypes)
	Text string // its contents
	Box  Rect
}

// annotTypes names the annotation types (MuPDF's enum pdf_annot_type).
var annotTypes = map[int]string{
	0: "text", 2: "freetext", 3: "line", 4: "square", 5: "circle", 6: "polygon", 7: "polyline",
	8: "highlight", 9: "underline", 10: "squiggly", 11: "strikeout", 12: "redact", 13: "stamp",
	14: "caret", 15: "ink", 17: "fileattachment",
}

// readMarks reads the fields, notes and external links of page n
// (1-based) into p.
func (d *Document) readMarks(p *Page) error {
	ctx, doc, ok := handles(d.fz)
	if !ok {
		return errNoHandles
	}
	var m C.vika_mark
	out := (*C.vika_mark)(C.calloc(C.size_t(MaxPageMarks), C.size_t(unsafe.Sizeof(m))))
	defer C.free(unsafe.Pointer(out))
	errBuf := (*C.char)(C.calloc(errLen, 1))
	defer C.free(unsafe.Pointer(errBuf))
	n := int(C.vika_marks((*C.fz_context)(ctx), (*C.fz_document)(doc), C.int(p.Number-1), out, MaxPageMarks, MaxMarkVisit, errBuf, errLen))
	if n < 0 {
		return errors.New("the page's annotations cannot be read: " + C.GoString(errBuf))
	}
	fields := map[string]int{} // field name -> index in p.Fields
	seenLink := map[string]bool{}
	for _, e := range unsafe.Slice(out, n) {
		box := Rect{float64(e.box[0]), float64(e.box[1]), float64(e.box[2]), float64(e.box[3])}
		text := C.GoString(&e.text[0])
		switch e.kind {
		case markField:
			f := Field{Name: clip(C.GoString(&e.name[0]), maxMarkName), Label: clip(C.GoString(&e.label[0]), maxMarkName),
				Type: C.GoString(&e._type[0]), Value: clip(text, MaxMarkText), Box: box}
			if f.Label == "" {
				f.Label = f.Name
			}
			if i, ok := fields[f.Name]; ok && f.Name != "" {
				p.Fields[i].Box = p.Fields[i].Box.Union(box)
				continue
			}
			fields[f.Name] = len(p.Fields)
			p.Fields = append(p.Fields, f)
		case markNote:
			t := strings.TrimSpace(cleanBlock(text, MaxMarkText))
			if t == "" {
				continue
			}
			kind := annotTypes[int(e.annot)]
			if kind == "" {
				kind = "other"
			}
			p.Notes = append(p.Notes, Note{Type: kind, Text: t, Box: box})
		case markLink:
			uri := strings.TrimSpace(text)
			if uri == "" || utf8.RuneCountInString(uri) > MaxLinkURI || seenLink[uri] || strings.ContainsFunc(uri, isControl) {
				continue
			}
			seenLink[uri] = true
			p.Links = append(p.Links, corpus.Link{Page: p.Number, URI: uri, BBox: [4]float64{box.X0, box.Y0, box.X1, box.Y1}})
		}
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// cleanBlock cleans each line of s (see cleanLine) and cuts the whole to
// at most max characters.
func cleanBlock(s string, max int) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n")
	for i, l := range lines {
		lines[i], _ = cleanLine(l)
	}
	s = strings.Join(lines, "\n")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

// fieldLine is a field as one line of its passage: "Label: value", a
// check box or radio button as "Label: [x] Yes" or "Label: [ ]". A text or
// choice field left empty, a push button and a signature give "".
func fieldLine(f Field) string {
	switch f.Type {
	case "checkbox", "radiobutton":
		if f.Value == "" || strings.EqualFold(f.Value, "Off") {
			return f.Label + ": [ ]"
		}
		return f.Label + ": [x] " + f.Value
	case "text", "combobox", "listbox":
		if strings.TrimSpace(f.Value) == "" {
			return ""
		}
		return f.Label + ": " + strings.TrimSpace(f.Value)
	}
	return ""
}

// markRegions returns the passages' regions of p's marks: one form
// region a field, one a run of "Label: value" lines, one note region an
// annotation (a highlight's passage quotes the text it covers).
func (p *Page) markRegions() []corpus.Region {
	var out []corpus.Region
	box4 := func(r Rect) [4]float64 { return [4]float64{r.X0, r.Y0, r.X1, r.Y1} }
	for _, f := range p.Fields {
		if line := fieldLine(f); line != "" {
			out = append(out, corpus.Region{Kind: corpus.ChunkForm, Page: p.Number, BBox: box4(f.Box), Text: line})
		}
	}
	for _, kv := range keyValueRuns(p) {
		out = append(out, corpus.Region{Kind: corpus.ChunkForm, Page: p.Number, BBox: box4(kv.box), Text: kv.text})
	}
	for _, n := range p.Notes {
		text := n.Text
		switch n.Type {
		case "highlight", "underline", "squiggly", "strikeout":
			if under := strings.TrimSpace(linesIn(p, n.Box)); under != "" {
				text += "\n\n“" + strings.ReplaceAll(under, "\n", " ") + "”"
			}
		}
		out = append(out, corpus.Region{Kind: corpus.ChunkNote, Page: p.Number, BBox: box4(n.Box), Text: text})
	}
	return out
}

// keyValueRe reads a "Label: value" line: a short label opening with a
// capital and at least two letters long (at most four words, no digit,
// no sentence punctuation: a lone "A :" or "Q:" is code or a dialogue), a
// colon, and a value on the same line.
var keyValueRe = regexp.MustCompile(`^(\p{Lu}[\p{L}\p{M}'’/()&-]*[\p{L}\p{M}](?: [\p{L}\p{M}'’/()&-]+){0,3})\s?:\s+(\S.*)$`)

// captionWords open lines that read like "Label: value" but are
// captions, theorems or running text, never form fields.
var captionWords = map[string]bool{
	"figure": true, "fig": true, "table": true, "tableau": true, "theorem": true, "théorème": true,
	"lemma": true, "lemme": true, "proof": true, "preuve": true, "démonstration": true, "definition": true,
	"définition": true, "example": true, "exemple": true, "remark": true, "remarque": true, "corollary": true,
	"corollaire": true, "proposition": true, "algorithm": true, "algorithme": true, "note": true, "abstract": true,
	"résumé": true, "keywords": true, "mots-clés": true, "equation": true, "équation": true,
}

// minKeyValueRun is the fewest consecutive "Label: value" lines taken
// for a form's key-value layout; maxKeyValue the longest value, in runes.
const (
	minKeyValueRun = 3
	maxKeyValue    = 80
)

// keyValue is a run of "Label: value" lines: their text and box.
type keyValue struct {
	text string
	box  Rect
}

// keyValueRuns finds the runs of at least minKeyValueRun consecutive
// lines, in reading order, each of the form "Label: value".
func keyValueRuns(p *Page) []keyValue {
	var out []keyValue
	var run []Line
	flush := func() {
		if len(run) >= minKeyValueRun {
			var parts []string
			var box Rect
			for _, l := range run {
				parts = append(parts, strings.TrimSpace(l.Text))
				box = box.Union(l.BBox)
			}
			out = append(out, keyValue{text: strings.Join(parts, "\n"), box: box})
		}
		run = run[:0]
	}
	for _, l := range p.Lines() {
		if l.Rotated || !isKeyValue(l.Text) {
			flush()
			continue
		}
		run = append(run, l)
	}
	flush()
	return out
}

func isKeyValue(line string) bool {
	m := keyValueRe.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil || utf8.RuneCountInString(m[2]) > maxKeyValue {
		return false
	}
	first := strings.ToLower(strings.Fields(m[1])[0])
	return !captionWords[strings.TrimRight(first, ".")]
}
