package retrieve

import (
	"context"
	"errors"
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
