package session

import (
	"context"
	"path/filepath"
	"strings"

	"vika/backend/notes"
	"vika/backend/pdf"
)

// pageNoteIcon is where a page note's icon sits on its page: its top
// left corner, in points from the top left.
var pageNoteIcon = pdf.Rect{X0: 12, Y0: 12, X1: 32, Y1: 32}

// annotationsOf returns notes as the standard PDF annotations of a copy: a
// highlight as a Highlight over its boxes in its colour with its note as
// the comment, a page note as a Text note at its page's top left.
func annotationsOf(list []notes.Note) []pdf.Annotation {
	out := make([]pdf.Annotation, 0, len(list))
	for _, n := range list {
		rgb, _ := n.Color.RGB()
		a := pdf.Annotation{Page: n.Page, Kind: pdf.AnnotHighlight, Color: rgb, Text: n.Text}
		if n.Kind == notes.PageNote {
			a.Kind, a.Boxes = pdf.AnnotNote, []pdf.Rect{pageNoteIcon}
		}
		for _, b := range n.Boxes {
			a.Boxes = append(a.Boxes, pdf.Rect{X0: b[0], Y0: b[1], X1: b[2], Y1: b[3]})
		}
		out = append(out, a)
	}
	return out
}

// AnnotatedCopy returns a copy of document docID's PDF with its notes as
// standard annotations other readers show (engine.AnnotatedCopy: MuPDF in
// a PDF worker), and the copy's suggested name ("lecture-annotated.pdf");
// ErrNoNotes when the document has none. The session's document is not
// changed.
func (s *Session) AnnotatedCopy(ctx context.Context, docID string) ([]byte, string, error) {
	list := s.notes.List(docID)
	if docID == "" || len(list) == 0 {
		return nil, "", ErrNoNotes
	}
	doc, _, err := s.eng.DocumentFile(ctx, docID)
	if err != nil {
		return nil, "", err
	}
	data, err := s.eng.AnnotatedCopy(ctx, docID, annotationsOf(list))
	if err != nil {
		return nil, "", err
	}
	return data, strings.TrimSuffix(doc.File, filepath.Ext(doc.File)) + "-annotated.pdf", nil
}
