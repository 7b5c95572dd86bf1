// Package chunk splits extracted pages into retrievable passages. Chunks
// never cross a page boundary; each records rune offsets into its page's
// text, the page type, the section title in force where it starts and
// the kind of section (body, front matter, references).
//
// Pages with a layout (corpus.Page.Lines, from package pdf) are read
// with it: section titles come from lines that stand out from the body
// style (style.go, heading.go); running headers, footers and page numbers
// repeated across pages are left out of chunk text (furniture.go); pages
// that repeat the previous one (slide overlays) are chunked once, from
// the fullest (overlay.go). Pages without a layout (OCR text) fall back
// on text rules.
//
// A page's regions (tables, figures, display formulas) give passages of
// their own kind after its text's (region.go).
//
// Breaks fall on paragraph, sentence or word boundaries near a target
// size, and consecutive chunks of a section overlap by about
// Options.Overlap runes.
package chunk

import (
	"fmt"

	"vika/backend/corpus"
)

// Default sizes, in runes (a later issue tunes them by measurement).
const (
	DefaultTarget  = 900
	DefaultOverlap = 150
)

// Options controls chunk sizes. Zero values mean the defaults; Overlap is
// clamped to a third of Target so that chunking always progresses, and a
// negative Overlap means none.
type Options struct {
	Target  int // preferred chunk length in runes of page text
	Overlap int // runes of the previous chunk repeated at the start of the next
}

func (o Options) normalized() Options {
	if o.Target <= 0 {
		o.Target = DefaultTarget
	}
	if o.Target < 20 {
		o.Target = 20
	}
	switch {
	case o.Overlap == 0:
		o.Overlap = DefaultOverlap
	case o.Overlap < 0:
		o.Overlap = 0
	}
	if o.Overlap > o.Target/3 {
		o.Overlap = o.Target / 3
	}
	return o
}

// Split cuts the pages of doc into chunks. Pages are taken in the given
// order; empty pages produce no chunk. Chunk ids are
// "<first 12 hex of doc id>-p<page>-c<n>", n counting from 1 on each page.
func Split(doc corpus.Document, pages []corpus.Page, opts Options) []corpus.Chunk {
	opts = opts.normalized()
	prefix := doc.ID
	if len(prefix) > 12 {
		prefix = prefix[:12]
	}
	views, groups, skip := newViews(pages)
	var out []corpus.Chunk
	sec := section{kind: corpus.ChunkBody}
	for i, v := range views {
		if skip[i] {
			continue
		}
		h, n := 0, 0
		for _, pc := range pieces(v) {
			for _, sp := range segmentSpans(v.runes, pc.start, pc.end, opts) {
				// The section in force where the chunk starts; a chunk
				// opening with stacked headings belongs to the last one.
				for ; h < len(v.heads) && v.heads[h].at <= max(sp.start, pc.lead); h++ {
					sec.open(v.heads[h])
				}
				n++
				out = append(out, corpus.Chunk{
					ID:           fmt.Sprintf("%s-p%d-c%d", prefix, v.page.Number, n),
					DocID:        doc.ID,
					Page:         v.page.Number,
					CharStart:    sp.start,
					CharEnd:      sp.end,
					Text:         Clean(v.runes[sp.start:sp.end]),
					SectionTitle: sec.title,
					PageType:     v.page.Type,
					Kind:         sec.kindOn(v),
					Pages:        groups[i],
					BBox:         ocrBox(v.page, sp.start, sp.end),
				})
			}
		}
		out = append(out, regionChunks(prefix, doc.ID, v.page, sec, &n, opts)...)
		for ; h < len(v.heads); h++ {
			sec.open(v.heads[h]) // a heading late on the page opens the next page's section
		}
	}
	return out
}

// section is the section in force while walking the document.
type section struct {
	title string
	kind  corpus.ChunkKind
}

// open enters the section a heading opens.
func (s *section) open(h heading) {
	s.title, s.kind = h.title, kindOf(h.title)
}

// kindOn is the kind of a chunk of v: front matter on a page that reads
// like a table of contents, the section's kind otherwise.
func (s *section) kindOn(v *view) corpus.ChunkKind {
	if v.toc {
		return corpus.ChunkFront
	}
	return s.kind
}
