package pdf

import (
	"math"
	"strings"

	"vika/backend/corpus"
)

// Tables of scanned pages, rebuilt from OCR word boxes: each word becomes
// a fragment and each OCR line a line, so that the text-page detector
// (captions, rows aligned in cells, columns) runs on them unchanged. A
// scan has no vector paths, so only tables with a caption and aligned
// rows are found.

// Word is one OCR word in page points, with its line and paragraph
// numbers (reading order).
type Word struct {
	Text string
	Box  Rect
	Line int
	Para int
}

// maxWords bounds the OCR words one page's table detection reads.
const maxWords = 20000

// WordTables finds the captioned tables among the OCR words of page n.
func WordTables(n int, width, height float64, words []Word) []corpus.Region {
	if len(words) > maxWords {
		words = words[:maxWords]
	}
	p := Page{Number: n, Width: width, Height: height}
	var b *Block
	var l *Line
	lastLine, lastPara := -1, -1
	for _, w := range words {
		if strings.TrimSpace(w.Text) == "" || w.Box.Empty() {
			continue
		}
		// An OCR box spans the cap height to the descenders: about 0.7
		// of the font size.
		h := w.Box.Dy() / 0.7
		p.frags = append(p.frags, fragment{Box: w.Box, Base: w.Box.Y1, Text: w.Text, Font: Font{Size: math.Max(h, 2)}})
		if b == nil || w.Para != lastPara {
			p.Blocks = append(p.Blocks, Block{})
			b = &p.Blocks[len(p.Blocks)-1]
			lastLine = -1
		}
		if w.Line != lastLine {
			b.Lines = append(b.Lines, Line{Font: Font{Size: math.Max(h, 2)}})
		}
		l = &b.Lines[len(b.Lines)-1]
		if l.Text != "" {
			l.Text += " "
		}
		l.Text += w.Text
		l.BBox = l.BBox.Union(w.Box)
		l.Font.Size = math.Max(l.Font.Size, h)
		b.BBox = b.BBox.Union(w.Box)
		lastLine, lastPara = w.Line, w.Para
	}
	var out []corpus.Region
	for _, r := range tables(&p, captions(&p), nil) {
		out = append(out, corpus.Region{Kind: r.kind, Page: n, BBox: [4]float64{r.box.X0, r.box.Y0, r.box.X1, r.box.Y1}, Caption: r.caption, Text: r.text})
	}
	return out
}
