package retrieve

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"

	"vika/backend/corpus"
)

// A question that names a page ("the figure at the top of page 5", "que
// dit la page 12 ?") points at it as plainly as one that names a table.
// BM25 and the embedders see "page" and "5" as words, which most pages
// hold; the page itself may hold little of the rest of the question (a
// figure's words are in its picture). So each page a question names
// comes first, by its best ranked passage, or by its first passage when
// none of its passages is a candidate: in the best ranked document that
// has such a page (the number read as the PDF's page, 1-based, as Vika
// cites it). A number past the document's last page (a journal's printed
// page, "page 6985") names nothing.

var pageNamedRe = regexp.MustCompile(`(?:^|[^\p{L}])(?i:pages?|p\.)\s*(\d{1,4})(?:[^\d.,]|[.,](?:\D|$)|$)`)

// namedPages returns the page numbers question names, in order.
func namedPages(question string) []int {
	var out []int
	for _, m := range pageNamedRe.FindAllStringSubmatch(question, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil && n >= 1 && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// pageNamedFirst puts first the pages question names (see above) that
// scope keeps; a page's passage not among cands joins them, unscored.
func (b *pageBook) pageNamedFirst(cands []*candidate, question string, scope corpus.Scope) []*candidate {
	pages := namedPages(question)
	if len(pages) == 0 {
		return cands
	}
	b.mu.RLock()
	var docs []string            // documents in the order of their best candidate
	best := map[pageKey]string{} // each page's best ranked candidate
	pos := map[string]int{}
	for i, c := range cands {
		pos[c.id] = i
		k, ok := b.byID[c.id]
		if !ok {
			continue
		}
		if !slices.Contains(docs, k.doc) {
			docs = append(docs, k.doc)
		}
		if _, seen := best[k]; !seen {
			best[k] = c.id
		}
	}
	var front []string
	for _, n := range pages {
		for _, doc := range docs {
			k := pageKey{doc: doc, page: n}
			if !scope.Keeps(doc, n) {
				continue
			}
			id, ok := best[k]
			if !ok {
				id = b.firstPassage(k)
			}
			if id != "" {
				if !slices.Contains(front, id) {
					front = append(front, id)
				}
				break
			}
		}
	}
	b.mu.RUnlock()
	return putFirst(cands, front, pos)
}

// firstPassage returns the id of page k's first body passage, "" when the
// book has none. The caller holds b.mu.
func (b *pageBook) firstPassage(k pageKey) string {
	first := pageChunk{start: -1}
	for _, pc := range b.texts[k] {
		if first.start < 0 || cmp.Or(cmp.Compare(pc.start, first.start), cmp.Compare(pc.id, first.id)) < 0 {
			first = pc
		}
	}
	return first.id
}
