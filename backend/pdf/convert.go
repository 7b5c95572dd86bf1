package pdf

import (
	"slices"

	"vika/backend/corpus"
)

// Corpus returns the page as the rest of the pipeline stores it: text,
// size, type and lines (offsets, boxes and fonts) for chunking and
// highlighting. OCR text the caller adds to a mixed page goes after
// Text, outside every line; a scanned page's text and lines are replaced
// by the OCR's (package ingest).
func (p Page) Corpus(docID string) corpus.Page {
	out := corpus.Page{DocID: docID, Number: p.Number, Type: p.Class.Type, Text: p.Text, Width: p.Width, Height: p.Height}
	for bi, b := range p.Blocks {
		for _, l := range b.Lines {
			out.Lines = append(out.Lines, corpus.Line{
				Start: l.Start, End: l.End,
				BBox: [4]float64{l.BBox.X0, l.BBox.Y0, l.BBox.X1, l.BBox.Y1},
				Size: l.Font.Size, Bold: l.Font.Bold,
				Block: bi,
			})
		}
	}
	out.Regions = append(slices.Clip(p.Regions), p.markRegions()...)
	out.Links = p.Links
	if out.Type == "" {
		out.Type = corpus.PageText
	}
	return out
}
