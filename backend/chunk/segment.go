package chunk

import "unicode"

type span struct{ start, end int }

// piece is a range of page text chunked on its own: the text between
// skipped lines, cut again before every heading.
type piece struct {
	start, end int
	title      int // rune length of the heading opening the piece, or -1
	lead       int // offset of the last of the bare headings opening it
}

// bare is how many runes of body text a heading needs under it to open a
// piece of its own; a barer one ("3 Method" right above "3.1 Setup") is
// merged with the next piece.
const bare = 8

// pieces cuts the page into the ranges chunked separately.
func pieces(v *view) []piece {
	var out []piece
	at := 0
	for _, s := range append(v.skips(), [2]int{len(v.runes), len(v.runes)}) {
		if s[0] < at {
			continue
		}
		out = append(out, splitAtHeadings(v, at, s[0])...)
		at = s[1]
	}
	return out
}

// splitAtHeadings cuts [from, to) before each heading in it and
// merges bare headings with what follows.
func splitAtHeadings(v *view, from, to int) []piece {
	var out []piece
	cur := piece{from, to, -1, from}
	for _, h := range v.heads {
		if h.at < from || h.at >= to {
			continue
		}
		if h.at == from {
			cur.title = len([]rune(h.title))
			continue
		}
		if cur.title >= 0 && nonSpace(v.runes[cur.start:h.at]) < cur.title+bare {
			cur.lead = h.at // bare heading: keep it with the next one
			continue
		}
		cur.end = h.at
		out = append(out, cur)
		cur = piece{h.at, to, len([]rune(h.title)), h.at}
	}
	return append(out, cur)
}

func nonSpace(r []rune) int {
	n := 0
	for _, c := range r {
		if !unicode.IsSpace(c) {
			n++
		}
	}
	return n
}

// segmentSpans chunks r[from:to]: spans of about opts.Target runes that
// end at a paragraph, sentence or word boundary, each trimmed of white
// space, consecutive spans overlapping by about opts.Overlap runes.
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
