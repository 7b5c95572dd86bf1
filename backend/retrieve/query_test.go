package retrieve

import (
	"context"
	"math"
	"slices"
	"sync"
	"testing"
)

// queryReranker records the queries it is asked to rerank against and
// prefers longer passages.
type queryReranker struct {
	mu      sync.Mutex
	queries []string
}

func (r *queryReranker) Rerank(_ context.Context, q string, passages []string) ([]float64, error) {
	r.mu.Lock()
	r.queries = append(r.queries, q)
	r.mu.Unlock()
	return fakeReranker{score: func(s string) float64 { return float64(len(s)) }}.Rerank(context.Background(), q, passages)
}

// TestSearchQuery: a question searched with a HyDE passage and a
// rephrasing is fused from their searches, reranked once against the
// question, and its hits carry the question's BM25 scores (a hit the
// question's BM25 search did not retrieve has none) and the question's
// cosine (TestSearchQueryQuestionCosine). A question searched as asked is
// Search, scores included.
func TestSearchQuery(t *testing.T) {
	ctx := context.Background()
	r, _ := newTestRetriever(t, nil)
	const question = "zebras"
	q := Query{Question: question, HyDE: "quarks and gluons", Rephrasings: []string{"savanna grass"}}
	rr := &queryReranker{}
	res, err := r.SearchQuery(ctx, q, SearchOptions{Mode: ModeHybrid, K: 5, Rerank: rr, Passages: textsOf(testChunks)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rr.queries, []string{question}) {
		t.Errorf("reranked against %q, want the question once", rr.queries)
	}
	ids := hitIDs(res.Hits)
	for _, want := range []string{"c3", "c5"} { // found by the HyDE passage and by the rephrasing
		if !slices.Contains(ids, want) {
			t.Errorf("hits %v lack %s", ids, want)
		}
	}
	probe, err := r.lex.Search(ctx, question, DefaultDepth)
	if err != nil {
		t.Fatal(err)
	}
	bm25 := map[string]float64{}
	for _, s := range probe {
		bm25[s.ChunkID] = s.Score
	}
	if res.Stats.TopLexical != topScore(probe) || res.Stats.TopLexical <= 0 {
		t.Errorf("TopLexical %g, want the question's %g", res.Stats.TopLexical, topScore(probe))
	}
	for _, h := range trace(t, res) {
		w, ok := bm25[h.ChunkID]
		if ok != (h.LexicalRank > 0) || h.LexicalScore != w || h.RerankScore == nil {
			t.Errorf("%s: lexical %g (rank %d), rerank %v; want the question's BM25 %g (%v)",
				h.ChunkID, h.LexicalScore, h.LexicalRank, h.RerankScore, w, ok)
		}
	}

	// HyDE alone and rephrasings alone: still reranked against the question.
	for _, q := range []Query{{Question: question, HyDE: "quarks and gluons"}, {Question: question, Rephrasings: []string{"savanna grass", "quarks"}}} {
		rr := &queryReranker{}
		if _, err := r.SearchQuery(ctx, q, SearchOptions{Mode: ModeHybrid, K: 5, Rerank: rr, Passages: textsOf(testChunks)}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rr.queries, []string{question}) {
			t.Errorf("%+v: reranked against %q, want the question once", q, rr.queries)
		}
	}

	// As asked: the same as Search.
	plain, err := r.Search(ctx, question, SearchOptions{Mode: ModeHybrid, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.SearchQuery(ctx, Query{Question: question, HyDE: question}, SearchOptions{Mode: ModeHybrid, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(hitIDs(got.Hits), hitIDs(plain.Hits)) || got.Stats.TopLexical != plain.Stats.TopLexical {
		t.Errorf("as asked: %v (top %g), Search gives %v (top %g)", hitIDs(got.Hits), got.Stats.TopLexical, hitIDs(plain.Hits), plain.Stats.TopLexical)
	}
	want := trace(t, plain)
	for i, h := range trace(t, got) {
		p := want[i]
		if h.LexicalScore != p.LexicalScore || h.HasLexical != p.HasLexical || h.DenseScore != p.DenseScore || h.HasDense != p.HasDense {
			t.Errorf("as asked, %s: scores differ from Search's", h.ChunkID)
		}
	}
}

// TestSearchQueryQuestionCosine: whatever an expanded query searched (a
// HyDE passage, rephrasings, both), in hybrid and dense modes, a hit's
// DenseScore is the cosine of the question's own vector with the
// passage's, and Stats.MeanCosine (the metrics' cosine_sim_mean) the mean
// of those: not the cosines of the text that found the hits.
func TestSearchQueryQuestionCosine(t *testing.T) {
	ctx := context.Background()
	r, emb := newTestRetriever(t, nil)
	const question = "zebras on the savanna"
	vecs, err := emb.Embed(ctx, []string{question})
	if err != nil {
		t.Fatal(err)
	}
	cosine := func(id string) (float64, bool) { // the question's, computed apart
		v, ok := r.spaces[0].dense.Vector(id)
		if !ok {
			return 0, false
		}
		var dot float64
		for i := range v {
			dot += float64(v[i]) * float64(vecs[0][i])
		}
		return dot, true
	}
	queries := []Query{
		{Question: question, HyDE: "quarks and gluons"},
		{Question: question, Rephrasings: []string{"quantum chromodynamics", "statistiques"}},
		{Question: question, HyDE: "quarks and gluons", Rephrasings: []string{"lions hunt at night"}},
	}
	for _, mode := range []Mode{ModeHybrid, ModeDense} {
		for _, q := range queries {
			res, err := r.SearchQuery(ctx, q, SearchOptions{Mode: mode, K: 5})
			if err != nil {
				t.Fatal(err)
			}
			var sum float64
			n := 0
			for _, h := range res.Hits {
				want, ok := cosine(h.ChunkID)
				switch {
				case (h.DenseScore != nil) != ok:
					t.Errorf("%s %+v, %s: cosine %v, vector %v", mode, q, h.ChunkID, h.DenseScore, ok)
				case ok && math.Abs(*h.DenseScore-want) > 1e-6:
					t.Errorf("%s %+v, %s: cosine %g, the question's is %g", mode, q, h.ChunkID, *h.DenseScore, want)
				}
				if ok {
					sum, n = sum+want, n+1
				}
			}
			if n == 0 {
				t.Fatalf("%s %+v: no hit with a vector", mode, q)
			}
			if m := res.Stats.MeanCosine; m == nil {
				t.Errorf("%s %+v: no mean cosine, the question's is %g", mode, q, sum/float64(n))
			} else if math.Abs(*m-sum/float64(n)) > 1e-6 {
				t.Errorf("%s %+v: mean cosine %g, the question's is %g", mode, q, *m, sum/float64(n))
			}
		}
	}
}
