package retrieve

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"vika/backend/corpus"
	"vika/backend/index"
)

// A table, figure or formula asked about should come as itself: its
// Markdown, its crop for a vision model, its equation, rather than the
// page's running text that repeats its cells or labels. Two rules do it.
//
// A page is represented (its first passage in a page-diverse ranking) by
// its region's passage rather than by its body text when, within the
// page window, the region's passage holds every word of the question that
// the body passage holds (index.Terms: the words BM25 matches), and at
// least one. The page's place in the ranking does not change, only which
// of its passages comes first.
//
// A question that names a table, figure or equation (corpus.NamedLabels:
// "Table 3", "Fig. 2", "le tableau 2", "eq. (3)", "the first figure")
// gets that region's passage first when the search may see it (its
// scope): of the documents holding one, the one whose passages rank best,
// and of its passages the region's own before a model's description of
// it, then the best ranked. When no region's passage carries the label,
// the body passage holding its caption comes first instead
// (captionLabels).

// regionEntry is what the page book keeps of a region's passage.
type regionEntry struct {
	text      string
	label     corpus.Label // zero when its text names no number
	described bool
}

// formulaNumberRe reads the number closing a display formula: "(3)",
// "(2.4)", "(3a)".
var formulaNumberRe = regexp.MustCompile(`\((\d+(?:\.\d+)*[a-z]?)\)\s*$`)

// labelOf returns the label of a region's passage c.
func labelOf(c corpus.Chunk) corpus.Label {
	text := strings.TrimSpace(c.Text)
	if c.Kind == corpus.ChunkFormula {
		if m := formulaNumberRe.FindStringSubmatch(text); m != nil {
			return corpus.Label{Kind: c.Kind, Number: strings.ToLower(m[1])}
		}
		return corpus.Label{}
	}
	if n := corpus.CaptionNumber(text); n != "" {
		return corpus.Label{Kind: c.Kind, Number: n}
	}
	return corpus.Label{}
}

// captionLabels returns the labels of the captions a body passage holds:
// its lines that open as a caption does ("Table 3:", "Fig. 2.") or with
// the label in capitals ("TABLE II DOWNSTREAM TASKS"). They are the
// captions a region's passage did not take: a table detected without its
// caption and first rows, or not detected at all, leaves its caption in
// the page's text. "Table 2 shows" opening a paragraph is running text.
func captionLabels(text string) []corpus.Label {
	var out []corpus.Label
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		number := corpus.CaptionNumber(line)
		if number == "" {
			continue
		}
		word := strings.Fields(line)[0]
		kind := corpus.CaptionKind(line)
		if kind == "" && word == strings.ToUpper(word) {
			kind = corpus.ChunkFigure
			if strings.HasPrefix(strings.ToLower(word), "tab") {
				kind = corpus.ChunkTable
			}
		}
		if l := (corpus.Label{Kind: kind, Number: number}); kind != "" && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// regionsFirst lets a region's passage represent its page (see above)
// among the first window candidates (all when window <= 0): it swaps it
// with the page's first passage when it holds every word of q that
// passage holds.
func (b *pageBook) regionsFirst(cands []*candidate, q string, window int) []*candidate {
	if window <= 0 || window > len(cands) {
		window = len(cands)
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if len(b.regionTexts) == 0 {
		return cands
	}
	first := map[pageKey]int{}            // position of each page's first passage
	terms := map[string]map[string]bool{} // the question's terms, by language
	for i, c := range cands[:window] {
		k, ok := b.byID[c.id]
		if !ok {
			continue
		}
		f, seen := first[k]
		if !seen {
			first[k] = i
			continue
		}
		reg, isReg := b.regionTexts[c.id]
		body, isBody := b.texts[k][cands[f].id]
		if !isReg || !isBody {
			continue // c is body text, or the page already stands by a region
		}
		if terms[body.lang] == nil {
			terms[body.lang] = index.Terms(body.lang, q)
		}
		if holdsSameWords(terms[body.lang], index.Terms(body.lang, reg.text), index.Terms(body.lang, body.text)) {
			cands[f], cands[i] = cands[i], cands[f]
		}
	}
	return cands
}

// holdsSameWords reports whether region holds every term of q that body
// holds, and at least one.
func holdsSameWords(q, region, body map[string]bool) bool {
	n := 0
	for t := range q {
		if body[t] && !region[t] {
			return false
		}
		if region[t] {
			n++
		}
	}
	return n > 0
}

// namedFirst puts first the passages of the regions question names that
// scope keeps (see above), one per region named; a region's passage not
// among cands joins them, unscored.
func (b *pageBook) namedFirst(cands []*candidate, question string, scope corpus.Scope) []*candidate {
	named := corpus.NamedLabels(question)
	if len(named) == 0 {
		return cands
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	docRank, pos := map[string]int{}, map[string]int{}
	for i, c := range cands {
		pos[c.id] = i
		if k, ok := b.byID[c.id]; ok {
			if _, seen := docRank[k.doc]; !seen {
				docRank[k.doc] = i
			}
		}
	}
	rank := func(m map[string]int, key string) int {
		if r, ok := m[key]; ok {
			return r
		}
		return len(cands)
	}
	better := func(id, than string) bool {
		a, b2 := b.regionTexts[id], b.regionTexts[than]
		return cmp.Or(cmp.Compare(rank(docRank, b.byID[id].doc), rank(docRank, b.byID[than].doc)),
			compareBool(a.described, b2.described), cmp.Compare(rank(pos, id), rank(pos, than)), cmp.Compare(id, than)) < 0
	}
	var front []string
	for _, l := range named {
		best := ""
		for id, e := range b.regionTexts {
			if k := b.byID[id]; e.label == l && scope.Keeps(k.doc, k.page) && (best == "" || better(id, best)) {
				best = id
			}
		}
		if best == "" { // no region's passage carries it: a caption left in the text may
			for id, ls := range b.captions {
				if k := b.byID[id]; slices.Contains(ls, l) && scope.Keeps(k.doc, k.page) && (best == "" || better(id, best)) {
					best = id
				}
			}
		}
		if best != "" && !slices.Contains(front, best) {
			front = append(front, best)
		}
	}
	return putFirst(cands, front, pos)
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
