package chunk

import (
	"math"
	"unicode/utf8"

	"vika/backend/corpus"
)

// style is the look of a document's body text: the font size that sets
// most of its characters, and whether that text is bold (slides set in a
// bold face, for instance). Headings stand out from it.
type style struct {
	size float64
	bold bool
}

// bodyStyle measures the body style over the lines of all pages, by
// runes, with sizes rounded to half a point.
func bodyStyle(pages []corpus.Page) style {
	type key struct {
		half int
		bold bool
	}
	count := map[key]int{}
	for _, p := range pages {
		for _, l := range p.Lines {
			if l.Size <= 0 || l.Start < 0 || l.End > utf8.RuneCountInString(p.Text) {
				continue
			}
			count[key{int(math.Round(l.Size * 2)), l.Bold}] += l.End - l.Start
		}
	}
	best, n := key{}, -1
	for k, c := range count {
		if c > n || c == n && (k.half < best.half || k.half == best.half && !k.bold) {
			best, n = k, c
		}
	}
	return style{size: float64(best.half) / 2, bold: best.bold}
}

// standsOut reports whether a line set in size and bold looks like a
// heading against the body style: clearly larger, or bold when the body
// is not.
func (s style) standsOut(size float64, bold bool) bool {
	if s.size == 0 {
		return false
	}
	return size >= 1.15*s.size || bold && !s.bold && size >= 0.95*s.size
}

// emphasized is a weaker standsOut: any larger size (a beamer frame
// title is 11.9 pt over a 10.9 pt body) or bold over a regular body.
func (s style) emphasized(size float64, bold bool) bool {
	return s.size > 0 && (size >= 1.05*s.size || bold && !s.bold)
}
