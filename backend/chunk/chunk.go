// Package chunk splits extracted pages into retrievable passages. Chunks
// never cross a page boundary; each records rune offsets into its page's
// text, the page type and the section title in force where it starts.
// Breaks fall on paragraph, sentence or word boundaries near a target size,
// and consecutive chunks of a page overlap by about Options.Overlap runes.
package chunk

import (
	"fmt"
	"unicode"

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
	var out []corpus.Chunk
	section := ""
	for _, p := range pages {
		runes := []rune(p.Text)
		clean := newCleaner(runes)
		heads := headings(runes)
		h := 0
		for n, span := range spans(runes, heads, opts) {
			for h < len(heads) && heads[h].at <= span.start {
				section = heads[h].title
				h++
			}
			out = append(out, corpus.Chunk{
				ID:           fmt.Sprintf("%s-p%d-c%d", prefix, p.Number, n+1),
				DocID:        doc.ID,
				Page:         p.Number,
				CharStart:    span.start,
				CharEnd:      span.end,
				Text:         clean.clean(runes[span.start:span.end]),
				SectionTitle: section,
				PageType:     p.Type,
				Lang:         "",
			})
		}
		for ; h < len(heads); h++ {
			section = heads[h].title // a heading late on the page opens the next page's section
		}
	}
	return out
}

type span struct{ start, end int }

// spans returns the [start, end) rune ranges of the chunks of one page,
// each trimmed of surrounding white space. Headings cut the page into
// segments that are chunked separately, so no chunk straddles two
// sections and overlap never reaches back across a heading.
// A segment that is little more than its heading ("3 Method" followed by
// "3.1 Setup") is merged with the next one rather than becoming a chunk of
// its own.
func spans(r []rune, heads []heading, opts Options) []span {
	const bare = 8 // runes of body text under which a heading counts as bare
	var out []span
	from, title := 0, -1 // title: rune length of the heading opening the segment
	for _, h := range heads {
		if title >= 0 && h.at-from < title+bare {
			continue
		}
		out = append(out, segmentSpans(r, from, h.at, opts)...)
		from, title = h.at, len([]rune(h.title))
	}
	return append(out, segmentSpans(r, from, len(r), opts)...)
}

// segmentSpans chunks r[from:to].
func segmentSpans(r []rune, from, to int, opts Options) []span {
	var out []span
	seg := r[:to]
	end := trimRight(seg, to)
	s := skipSpace(seg, from)
	for s < end {
		if end-s <= opts.Target+opts.Target/4 {
			out = append(out, span{s, end})
			break
		}
		e := breakPoint(seg, s, s+opts.Target)
		out = append(out, span{s, trimRight(seg, e)})
		next := restart(seg, e-opts.Overlap, e)
		if next <= s {
			next = e
		}
		s = skipSpace(seg, next)
	}
	return out
}

func skipSpace(r []rune, i int) int {
	for i < len(r) && unicode.IsSpace(r[i]) {
		i++
	}
	return i
}

func trimRight(r []rune, e int) int {
	for e > 0 && unicode.IsSpace(r[e-1]) {
		e--
	}
	return e
}
