package retrieve

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"vika/backend/message"
)

// TestEmbedFailureFallsBackToKeywords: when the embedding model fails on
// the query, a hybrid search, as asked or expanded, goes on with BM25
// alone and says so: Stats.Mode is bm25 and Stats.DenseError carries
// message.SearchDenseFailed with the model's error; the hits are those of
// a bm25 search.
func TestEmbedFailureFallsBackToKeywords(t *testing.T) {
	ctx := context.Background()
	r, emb := newTestRetriever(t, nil)
	const question = "zebras on the savanna"
	want, err := r.Search(ctx, question, SearchOptions{Mode: ModeBM25, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	emb.fail = errors.New("onnx: out of memory")
	got, err := r.Search(ctx, question, SearchOptions{Mode: ModeHybrid, K: 5})
	if err != nil {
		t.Fatalf("hybrid search with a failing model: %v, want BM25's hits", err)
	}
	if !slices.Equal(hitIDs(got.Hits), hitIDs(want.Hits)) || len(got.Hits) == 0 {
		t.Errorf("hits %v, want BM25's %v", hitIDs(got.Hits), hitIDs(want.Hits))
	}
	checkKeywordsOnly(t, "as asked", got.Stats)

	q := Query{Question: question, HyDE: "quarks and gluons", Rephrasings: []string{"savanna grass"}}
	got, err = r.SearchQuery(ctx, q, SearchOptions{Mode: ModeHybrid, K: 5})
	if err != nil {
		t.Fatalf("expanded hybrid search with a failing model: %v, want BM25's hits", err)
	}
	if len(got.Hits) == 0 {
		t.Error("expanded: no hits")
	}
	checkKeywordsOnly(t, "expanded", got.Stats)
	for _, h := range got.Hits {
		if h.DenseScore != nil {
			t.Errorf("expanded, %s: cosine %g without a query vector", h.ChunkID, *h.DenseScore)
		}
	}
}

// checkKeywordsOnly fails unless st is that of a search that fell back to
// BM25 because the model failed.
func checkKeywordsOnly(t *testing.T, what string, st Stats) {
	t.Helper()
	if st.Mode != ModeBM25 || st.MeanCosine != nil || st.DenseCandidates != 0 {
		t.Errorf("%s: mode %s, mean cosine %v, %d dense candidates; want bm25 alone", what, st.Mode, st.MeanCosine, st.DenseCandidates)
	}
	if st.DenseError == nil || st.DenseError.Code != message.SearchDenseFailed ||
		!strings.Contains(st.DenseError.English(), "out of memory") {
		t.Errorf("%s: DenseError %+v, want %s with the model's error", what, st.DenseError, message.SearchDenseFailed)
	}
}

// TestEmbedFailureCancelled: a search cancelled while the query is
// embedded is cancelled, not run on keywords, even when the model returns
// its own error; dense mode, which asks for the model by name, fails with
// it.
func TestEmbedFailureCancelled(t *testing.T) {
	r, emb := newTestRetriever(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	emb.fail, emb.during = errors.New("onnx: interrupted"), cancel
	if res, err := r.Search(ctx, "zebras", SearchOptions{Mode: ModeHybrid, K: 5}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while embedding: %v (mode %s, %d hits), want context.Canceled", err, res.Stats.Mode, len(res.Hits))
	}

	emb.during = nil
	if _, err := r.Search(context.Background(), "zebras", SearchOptions{Mode: ModeDense, K: 5}); err == nil {
		t.Error("dense mode with a failing model: no error")
	}
}

// TestSearchFusion: SearchOptions.Fusion decides how a hybrid search fuses
// and Stats.Fusion reports it, with the profile's dense weight: RRF scores
// each hit from its ranks alone (2w/(k+dense rank) + 2(1-w)/(k+BM25
// rank)), "" keeps the profile's convex fusion, which RRF does not equal
// on this question. A bm25 search fuses nothing; an unknown method fails.
func TestSearchFusion(t *testing.T) {
	ctx := context.Background()
	prof := Profile{Fusion: FusionConvex, DenseWeight: 0.5, Norm: NormMinMax, Depth: 10}
	r, _ := newTestRetriever(t, &prof)
	const q = "savanna zebras grass"
	search := func(f Fusion) Result {
		t.Helper()
		res, err := r.Search(ctx, q, SearchOptions{Mode: ModeHybrid, K: 10, Fusion: f})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	convex, def, rrf := search(FusionConvex), search(""), search(FusionRRF)
	if def.Stats.Fusion != FusionConvex || convex.Stats.Fusion != FusionConvex || rrf.Stats.Fusion != FusionRRF {
		t.Errorf("Stats.Fusion: profile %q, convex %q, rrf %q", def.Stats.Fusion, convex.Stats.Fusion, rrf.Stats.Fusion)
	}
	if rrf.Stats.DenseWeight != 0.5 || def.Stats.DenseWeight != 0.5 {
		t.Errorf("dense weights %v, %v: want the profile's", rrf.Stats.DenseWeight, def.Stats.DenseWeight)
	}
	if !slices.Equal(scoresOf(def), scoresOf(convex)) {
		t.Errorf("the profile's fusion %v differs from convex %v", scoresOf(def), scoresOf(convex))
	}
	if slices.Equal(scoresOf(rrf), scoresOf(convex)) {
		t.Error("RRF scored as convex")
	}
	for i, h := range trace(t, rrf) {
		want := 0.0
		if h.DenseRank > 0 {
			want += 1 / float64(DefaultRRFK+h.DenseRank)
		}
		if h.LexicalRank > 0 {
			want += 1 / float64(DefaultRRFK+h.LexicalRank)
		}
		if math.Abs(h.Score-want) > 1e-12 {
			t.Errorf("RRF hit %d (%s): score %v, want %v", i, h.ChunkID, h.Score, want)
		}
		if i > 0 && h.Score > rrf.Hits[i-1].Score {
			t.Errorf("RRF hits not sorted: %v", scoresOf(rrf))
		}
	}
	bm25, err := r.Search(ctx, q, SearchOptions{Mode: ModeBM25, K: 10, Fusion: FusionRRF})
	if err != nil || bm25.Stats.Fusion != "" {
		t.Errorf("bm25 with RRF asked: fusion %q, %v", bm25.Stats.Fusion, err)
	}
	if _, err := r.Search(ctx, q, SearchOptions{Mode: ModeHybrid, Fusion: "borda"}); err == nil {
		t.Error("an unknown fusion: no error")
	}
}

func scoresOf(res Result) []float64 {
	out := make([]float64, len(res.Hits))
	for i, h := range res.Hits {
		out[i] = h.Score
	}
	return out
}
