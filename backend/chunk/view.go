package chunk

import (
	"strings"

	"vika/backend/corpus"
)

// view is what Split learns about one page beyond its text.
type view struct {
	page  corpus.Page
	runes []rune
	roles []role    // of page.Lines
	heads []heading // in text order
	toc   bool      // the page reads like a table of contents
}

// newViews analyses the pages: line roles (furniture), overlay groups
// (groups[i] lists the pages page i stands for; skip[i] when another page
// stands for it), headings and tables of contents. Band furniture is
// found first, so that overlays compare their content only; repetitions
// in the middle of pages are then counted once per overlay group.
func newViews(pages []corpus.Page) (views []*view, groups [][]int, skip []bool) {
	views = make([]*view, len(pages))
	for i, p := range pages {
		v := &view{page: p, runes: []rune(p.Text)}
		v.page.Lines = inOrder(p.Lines, len(v.runes))
		views[i] = v
	}
	body := bodyStyle(pages)
	for i, rs := range roles(views, body, nil, false) {
		views[i].roles = rs
	}
	groups, skip = overlayGroups(views)
	for i, rs := range roles(views, body, skip, true) {
		views[i].roles = rs
	}
	for _, v := range views {
		v.heads = lineHeadings(v, v.roles, body)
		tail := v.layoutEnd() // text after the layout's lines (OCR output), or all of it
		for _, h := range headings(v.runes[tail:]) {
			h.at += tail
			v.heads = append(v.heads, h)
		}
		v.toc = listed(v) || tocLike(v, v.roles, len(pages))
	}
	return views, groups, skip
}

// inOrder keeps the lines that lie within a page of n runes in text
// order (each starting at or after the one before it), as package pdf and
// OCR make them: everything after reads lines, and the headings they set,
// in that order. Lines out of order or out of range (a page not made
// here: a course file's) are left out rather than read backwards.
func inOrder(lines []corpus.Line, n int) []corpus.Line {
	ordered := true
	for i, l := range lines {
		if l.Start < 0 || l.End > n || l.Start > l.End || i > 0 && l.Start < lines[i-1].Start {
			ordered = false
			break
		}
	}
	if ordered {
		return lines
	}
	out := make([]corpus.Line, 0, len(lines))
	for _, l := range lines {
		if l.Start < 0 || l.End > n || l.Start > l.End || len(out) > 0 && l.Start < out[len(out)-1].Start {
			continue
		}
		out = append(out, l)
	}
	return out
}

// lineText returns the text of l, or "" if its offsets are out of range.
func (v *view) lineText(l corpus.Line) string {
	if l.Start < 0 || l.End > len(v.runes) || l.Start > l.End {
		return ""
	}
	return string(v.runes[l.Start:l.End])
}

// layoutEnd is where the text the text layer's lines describe ends.
// OCR lines (no font size) do not count: OCR text is read for headings
// as plain text.
func (v *view) layoutEnd() int {
	end := 0
	for _, l := range v.page.Lines {
		if l.Size <= 0 {
			continue
		}
		end = max(end, min(l.End, len(v.runes)))
	}
	return end
}

// skips returns the rune ranges of the lines left out of chunks
// (furniture and page numbers), in text order.
func (v *view) skips() [][2]int {
	var out [][2]int
	for j, l := range v.page.Lines {
		if v.roles[j] != roleBody && l.Start >= 0 && l.End <= len(v.runes) && l.Start < l.End {
			out = append(out, [2]int{l.Start, l.End})
		}
	}
	return out
}

// bodyText is the page text without its skipped lines.
func (v *view) bodyText() string {
	var b strings.Builder
	at := 0
	for _, s := range v.skips() {
		if s[0] >= at {
			b.WriteString(string(v.runes[at:s[0]]))
			b.WriteByte('\n')
			at = s[1]
		}
	}
	b.WriteString(string(v.runes[min(at, len(v.runes)):]))
	return b.String()
}
