package study

import (
	"strings"
	"unicode/utf8"

	"vika/backend/cite"
	"vika/backend/corpus"
)

// OutlineItem is one section of the extractive outline: its title and its
// most central passage, quoted and cited.
type OutlineItem struct {
	Title string `json:"title"` // "" for a run of pages of a document without an outline
	Depth int    `json:"depth"`
	From  int    `json:"from"`
	To    int    `json:"to"`
	Quote string `json:"quote"` // the passage, cut at MaxQuote runes
	Label string `json:"label"` // its citation, "[file.pdf p.N]"
	DocID string `json:"doc_id"`
	File  string `json:"file"` // its document's name
	Page  int    `json:"page"`
}

// Bounds of the extractive outline.
const (
	MaxQuote       = 400 // runes of a quoted passage
	maxOutlineRows = 60
	minOutlineRows = 6 // a document's rows when many share the 60
	outlineDepth   = 1 // deepest outline level listed (0 is the top)
	pagesPerRun    = 10
)

// outline picks, for each section of each document of the scope (the
// outline's entries down to outlineDepth, or runs of pagesPerRun pages
// when the document has no outline), the passage that shares the most
// terms with the others of its section. Each document has its share of
// the rows (maxOutlineRows over the documents, at least minOutlineRows).
func (s *Studier) outline(m material) []OutlineItem {
	var out []OutlineItem
	rows := max(maxOutlineRows/max(len(m.docs), 1), minOutlineRows)
	for _, sp := range m.docs {
		n := 0
		for _, sec := range sections(sp) {
			var in []corpus.Hit
			for _, h := range m.hits {
				if h.DocID == sp.doc.ID && h.Page >= sec.From && h.Page <= sec.To {
					in = append(in, h)
				}
			}
			if len(in) == 0 {
				continue
			}
			h := central(in)
			sec.Quote, sec.Label, sec.DocID, sec.File, sec.Page = clip(h.Text), h.Label, h.DocID, h.File, h.Page
			out = append(out, sec)
			if n++; n == rows {
				break
			}
		}
	}
	return out
}

// sections cuts a document's pages kept into its outline's sections.
func sections(m span) []OutlineItem {
	var out []OutlineItem
	for i, e := range m.doc.Outline {
		if e.Depth > outlineDepth || e.Page < m.from || e.Page > m.to {
			continue
		}
		to := m.to
		for _, next := range m.doc.Outline[i+1:] {
			if next.Depth <= outlineDepth && next.Page >= e.Page {
				to = min(max(next.Page-1, e.Page), m.to)
				break
			}
		}
		out = append(out, OutlineItem{Title: e.Title, Depth: e.Depth, From: e.Page, To: to})
	}
	if len(out) > 0 {
		if out[0].From > m.from { // pages before the first entry
			out = append([]OutlineItem{{From: m.from, To: out[0].From - 1}}, out...)
		}
		return out
	}
	for p := m.from; p <= m.to; p += pagesPerRun {
		out = append(out, OutlineItem{From: p, To: min(p+pagesPerRun-1, m.to)})
	}
	return out
}

// central returns the passage whose terms occur in the most other
// passages of the list (the first on a tie).
func central(hits []corpus.Hit) corpus.Hit {
	sets := make([]map[string]struct{}, len(hits))
	for i, h := range hits {
		sets[i] = map[string]struct{}{}
		for _, t := range cite.Terms(h.Text) {
			sets[i][t] = struct{}{}
		}
	}
	best, bestScore := 0, -1.0
	for i := range hits {
		if len(sets[i]) < 5 && len(hits) > 1 {
			continue // a heading or a caption alone is not a passage
		}
		score := 0.0
		for t := range sets[i] {
			for j := range hits {
				if _, ok := sets[j][t]; ok && j != i {
					score++
				}
			}
		}
		score /= float64(len(sets[i])) + 10 // favour shared terms, not length
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return hits[best]
}

// clip cuts s to MaxQuote runes at a word, marking the cut.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= MaxQuote {
		return s
	}
	r := []rune(s)[:MaxQuote]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > MaxQuote/2 {
		cut = cut[:i]
	}
	return cut + " …"
}
