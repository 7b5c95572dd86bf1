package engine

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/pdf"
	"vika/backend/testpdf/scanned"
)

// TestAnnotatedCopyOfScan: highlights placed on the OCR lines of a
// scanned page (and on the text layer of the first page) are written
// into a copy in a PDF worker; MuPDF reads them back on their pages over
// the OCR lines' boxes; the copy, added to the session as a new PDF, is
// OCRed again and the lines under each highlight read what was
// highlighted. The session's own document is unchanged.
func TestAnnotatedCopyOfScan(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true})
	data := scanned.Course(t, "The syllabus of the course is on this first page.",
		"Markov chains forget their start.\nMartingales keep their mean.")
	doc := mustAdd(t, e, "course.pdf", data)
	pages, err := e.Pages(ctx, doc.ID)
	if err != nil || len(pages) != 2 {
		t.Fatalf("pages %d, %v", len(pages), err)
	}
	if pages[1].OCRConfidence == nil || len(pages[1].Lines) < 2 || len(pages[0].Lines) == 0 {
		t.Fatalf("page 2 was not OCRed into lines: %+v", pages[1].Lines)
	}
	box := func(l corpus.Line) pdf.Rect {
		return pdf.Rect{X0: l.BBox[0], Y0: l.BBox[1], X1: l.BBox[2], Y1: l.BBox[3]}
	}
	text := func(p corpus.Page, l corpus.Line) string { return string([]rune(p.Text)[l.Start:l.End]) }
	ocr := pages[1].Lines[:2]
	anns := []pdf.Annotation{
		{Page: 1, Kind: pdf.AnnotHighlight, Boxes: []pdf.Rect{box(pages[0].Lines[0])}, Color: [3]float64{1, 0.85, 0}},
		{Page: 2, Kind: pdf.AnnotHighlight, Boxes: []pdf.Rect{box(ocr[0]), box(ocr[1])}, Color: [3]float64{0.5, 1, 0.5}, Text: "Markov property"},
		{Page: 2, Kind: pdf.AnnotNote, Boxes: []pdf.Rect{{X0: 500, Y0: 60, X1: 520, Y1: 80}}, Color: [3]float64{1, 0.6, 0}, Text: "Ask about ergodicity"},
	}
	out, err := e.AnnotatedCopy(ctx, doc.ID, anns)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, data) {
		t.Error("the copy does not start with the original bytes")
	}
	d, err := pdf.Open(out, pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var got []pdf.Annotation
	for n := 1; n <= 2; n++ {
		a, err := d.Annotations(n)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, a...)
	}
	d.Close()
	if len(got) != 3 {
		t.Fatalf("read back %d annotations: %+v", len(got), got)
	}
	for i, w := range anns {
		g := got[i]
		if g.Page != w.Page || g.Kind != w.Kind || g.Text != w.Text {
			t.Errorf("annotation %d: %+v, want %+v", i, g, w)
		}
		if w.Kind == pdf.AnnotHighlight {
			for k := range w.Boxes {
				if k >= len(g.Boxes) || !near4(g.Boxes[k], w.Boxes[k], 0.5) {
					t.Errorf("annotation %d quads %v, want %v", i, g.Boxes, w.Boxes)
					break
				}
			}
		}
	}

	// The copy is a new PDF: OCRed again, the lines under the scan's
	// highlight read what was highlighted.
	copyDoc := mustAdd(t, e, "course-annotated.pdf", out)
	again, err := e.Pages(ctx, copyDoc.ID)
	if err != nil {
		t.Fatal(err)
	}
	var under []string
	for _, l := range again[1].Lines {
		c := pdf.Rect{X0: l.BBox[0], Y0: l.BBox[1], X1: l.BBox[2], Y1: l.BBox[3]}
		for _, b := range anns[1].Boxes {
			if cx, cy := (c.X0+c.X1)/2, (c.Y0+c.Y1)/2; cx >= b.X0 && cx <= b.X1 && cy >= b.Y0 && cy <= b.Y1 {
				under = append(under, text(again[1], l))
			}
		}
	}
	want := []string{text(pages[1], ocr[0]), text(pages[1], ocr[1])}
	t.Logf("OCR under the scan's highlight, in the copy: %q (highlighted: %q)", under, want)
	if strings.Join(under, "|") != strings.Join(want, "|") {
		t.Errorf("OCR of the copy under the highlight: %q, want %q", under, want)
	}
	regions, err := e.Regions(ctx, copyDoc.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, r := range regions {
		if r.Kind == corpus.ChunkNote && r.Page == 2 {
			notes = append(notes, r.Text)
		}
	}
	if strings.Join(notes, "|") != "Markov property|Ask about ergodicity" {
		t.Errorf("the copy's notes as passages: %q", notes)
	}
	if _, orig, _ := e.DocumentFile(ctx, doc.ID); !bytes.Equal(orig, data) {
		t.Error("the session's document changed")
	}

	_, err = e.AnnotatedCopy(ctx, doc.ID, []pdf.Annotation{{Page: 3, Kind: pdf.AnnotNote, Boxes: anns[2].Boxes, Text: "x"}})
	if !errors.Is(err, pdf.ErrAnnotation) || message.Of(err).Code != message.AnnotateInvalid {
		t.Errorf("page 3 of 2: %v", err)
	}
	if _, err := e.AnnotatedCopy(ctx, "no-such-doc", anns); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("unknown document: %v", err)
	}
}

func near4(a, b pdf.Rect, tol float64) bool {
	d := func(x, y float64) bool { return x-y <= tol && y-x <= tol }
	return d(a.X0, b.X0) && d(a.Y0, b.Y0) && d(a.X1, b.X1) && d(a.Y1, b.Y1)
}
