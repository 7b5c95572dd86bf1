package retrieve

import (
	"slices"
	"testing"

	"vika/backend/corpus"
)

// TestRankPagesBringsWholePages: a page of the whole-page list that no
// chunk of the window is on joins the ranking by its whole-page rank,
// with its chunks found past the window, or its passages in page order
// when none was found (unscored, found by its page's keywords).
func TestRankPagesBringsWholePages(t *testing.T) {
	ids := []string{"p1-c1", "p2-c1", "p4-c1", "p4-c2", "p5-c1"}
	whole := map[pageKey]int{{doc: "d", page: 3}: 1, {doc: "d", page: 4}: 2, {doc: "d", page: 1}: 3}
	for _, tc := range []struct {
		name string
		p    PageRanking
		want []string
	}{
		// p1 1/61 + 1/63, p2 1/62; the rest keeps its order.
		{"bring 0 only reorders the window", PageRanking{Window: 2, Diverse: true, WholePages: true},
			[]string{"p1-c1", "p2-c1", "p4-c1", "p4-c2", "p5-c1"}},
		// p3 (brought, 1/61) between p1 and p2; p4 (1/62) ties p2 and
		// comes after it, with both of its chunks.
		{"bring 2", PageRanking{Window: 2, Diverse: true, WholePages: true, Bring: 2},
			[]string{"p1-c1", "p3-c1", "p2-c1", "p4-c1", "p3-c2", "p4-c2", "p5-c1"}},
		// weight 3: p3 3/61, p4 3/62, p1 1/61 + 3/63, p2 1/62.
		{"bring 2, weight 3", PageRanking{Window: 2, Diverse: true, WholePages: true, Bring: 2, WholeWeight: 3},
			[]string{"p1-c1", "p3-c1", "p4-c1", "p2-c1", "p3-c2", "p4-c2", "p5-c1"}},
		{"bring without the whole-page index is nothing", PageRanking{Window: 2, Diverse: true, Bring: 2},
			[]string{"p1-c1", "p2-c1", "p4-c1", "p4-c2", "p5-c1"}},
	} {
		book, cands := onPages(t, ids, []float64{5, 4, 3, 2, 1})
		book.add([]corpus.Chunk{{ID: "p3-c2", DocID: "d", Page: 3, CharStart: 50}, {ID: "p3-c1", DocID: "d", Page: 3, CharStart: 0}})
		w := whole
		if !tc.p.WholePages {
			w = nil
		}
		got := rankPages(cands, tc.p, book, w, nil)
		if !slices.Equal(idsOf(got), tc.want) {
			t.Errorf("%s:\n got %v\nwant %v", tc.name, idsOf(got), tc.want)
		}
		if tc.p.Bring == 0 || !tc.p.WholePages {
			continue
		}
		hs, _ := hits(got, false, Stats{})
		if h := hs[1]; h.FoundBy != FoundBM25 || h.LexicalScore != nil {
			t.Errorf("%s: a passage brought by its page: found by %q, BM25 score %v; want bm25 and none", tc.name, h.FoundBy, h.LexicalScore)
		}
	}
}

// TestRankPagesConvex: with Convex the pages of the window are ordered by
// the weighted sum of their score by chunks (over the window: p1 1, p2 0)
// and their whole-page score over the list's best (p1 0.2, p2 1), not by
// their ranks; the rest keeps its order.
func TestRankPagesConvex(t *testing.T) {
	ids := []string{"p1-c1", "p2-c1", "p4-c1", "p5-c1"}
	whole := map[pageKey]int{{doc: "d", page: 2}: 1, {doc: "d", page: 1}: 2}
	score := map[pageKey]float64{{doc: "d", page: 2}: 1, {doc: "d", page: 1}: 0.2}
	for _, tc := range []struct {
		convex float64
		want   []string
	}{
		{0.5, []string{"p1-c1", "p2-c1", "p4-c1", "p5-c1"}}, // p1 0.6, p2 0.5
		{0.7, []string{"p2-c1", "p1-c1", "p4-c1", "p5-c1"}}, // p1 0.44, p2 0.7
	} {
		book, cands := onPages(t, ids, []float64{5, 4, 3, 2})
		p := PageRanking{Window: 2, Diverse: true, WholePages: true, Convex: tc.convex}
		if got := idsOf(rankPages(cands, p, book, whole, score)); !slices.Equal(got, tc.want) {
			t.Errorf("convex %.1f:\n got %v\nwant %v", tc.convex, got, tc.want)
		}
	}
}
