package retrieve

import (
	"cmp"
	"slices"
)

// bring is the number of first whole-page ranks whose pages join the
// ranking when none of their chunks is in the window (0 without the
// whole-page index).
func (p PageRanking) bring() int {
	if !p.WholePages {
		return 0
	}
	return p.Bring
}

// wholeWeight is the weight of the whole-page term in the pages' fusion.
func (p PageRanking) wholeWeight() float64 {
	if p.WholeWeight <= 0 {
		return 1
	}
	return p.WholeWeight
}

// bringPages returns the pages among the first depth of the whole-page
// list that windowed does not hold, in whole-page order, each with its
// chunks among rest (best first, taken out of rest) or, when it has none
// there, its passages in page order (unscored: the page matched as a
// whole). rest keeps its order.
func bringPages(windowed []*rankedPage, rest []*candidate, depth int, book *pageBook, whole map[pageKey]int) ([]*rankedPage, []*candidate) {
	if depth <= 0 {
		return nil, rest
	}
	in := make(map[pageKey]bool, len(windowed))
	for _, pg := range windowed {
		in[pg.key] = true
	}
	var brought []*rankedPage
	byKey := map[pageKey]*rankedPage{}
	for k, r := range whole {
		if r <= depth && !in[k] {
			pg := &rankedPage{key: k, first: -1}
			byKey[k] = pg
			brought = append(brought, pg)
		}
	}
	if len(brought) == 0 {
		return nil, rest
	}
	slices.SortFunc(brought, func(a, b *rankedPage) int { return cmp.Compare(whole[a.key], whole[b.key]) })
	keys, _ := book.keys(rest)
	kept := make([]*candidate, 0, len(rest))
	for i, c := range rest {
		if pg := byKey[keys[i]]; pg != nil {
			pg.chunks = append(pg.chunks, c)
		} else {
			kept = append(kept, c)
		}
	}
	for _, pg := range brought {
		if len(pg.chunks) == 0 {
			for _, id := range book.passages(pg.key) {
				pg.chunks = append(pg.chunks, &candidate{id: id, pageOnly: true})
			}
		}
	}
	return brought, kept
}

// fusePages orders the pages of the window (in their order by chunks) and
// the pages brought by the whole-page list by Reciprocal Rank Fusion
// (k = DefaultRRFK): 1/(k + rank by chunks) for a page of the window, plus
// weight/(k + rank as a whole page) for a page of the whole-page list.
func fusePages(windowed, brought []*rankedPage, weight float64, whole map[pageKey]int) []*rankedPage {
	pages := append(slices.Clip(windowed), brought...)
	fused := make(map[*rankedPage]float64, len(pages))
	for i, pg := range pages {
		if i < len(windowed) {
			fused[pg] = 1 / float64(DefaultRRFK+i+1)
		}
		if r, ok := whole[pg.key]; ok {
			fused[pg] += weight / float64(DefaultRRFK+r)
		}
	}
	slices.SortStableFunc(pages, func(a, b *rankedPage) int { return cmp.Compare(fused[b], fused[a]) })
	// a brought page without passages (none indexed) has nothing to give
	return slices.DeleteFunc(pages, func(pg *rankedPage) bool { return len(pg.chunks) == 0 })
}

// passages returns the ids of the passages of page k known to the book
// (its whole-page entry's, region passages excepted), in page order.
func (b *pageBook) passages(k pageKey) []string {
	b.mu.RLock()
	defer b.mu.RUnlock()
	parts := make([]pageChunk, 0, len(b.texts[k]))
	for _, pc := range b.texts[k] {
		parts = append(parts, pc)
	}
	slices.SortFunc(parts, func(x, y pageChunk) int { return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(x.id, y.id)) })
	ids := make([]string, len(parts))
	for i, pc := range parts {
		ids[i] = pc.id
	}
	return ids
}

// fuseConvex orders the pages of the window and the pages brought by
// alpha-weighted sum of their score by chunks and their whole-page score.
func fuseConvex(windowed, brought []*rankedPage, alpha float64, wholeScore map[pageKey]float64) []*rankedPage {
	pages := append(slices.Clip(windowed), brought...)
	fused := make(map[*rankedPage]float64, len(pages))
	for i, pg := range pages {
		chunk := 0.0
		if i < len(windowed) {
			chunk = pg.score
		}
		fused[pg] = (1-alpha)*chunk + alpha*wholeScore[pg.key]
	}
	slices.SortStableFunc(pages, func(a, b *rankedPage) int { return cmp.Compare(fused[b], fused[a]) })
	return slices.DeleteFunc(pages, func(pg *rankedPage) bool { return len(pg.chunks) == 0 })
}
