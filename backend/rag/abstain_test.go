package rag

import (
	"testing"

	"vika/backend/corpus"
	"vika/backend/retrieve"
)

// TestAbstainsWithCrossEncoder: BM25 alone decides without a reranker (and
// in bm25 mode); once a cross-encoder read a hybrid search's candidates, an
// English question abstains only when no passage reaches its relevance
// cutoff either, and a French one does not abstain on retrieval grounds.
func TestAbstainsWithCrossEncoder(t *testing.T) {
	const en, fr = "What does the estimator of the variance divide by?", "Par quoi divise-t-on pour estimer la variance sans biais ?"
	for _, c := range []struct {
		name     string
		question string
		stats    retrieve.Stats
		want     bool
	}{
		{"bm25, weak", en, retrieve.Stats{Mode: "bm25", TopLexical: 0.1}, true},
		{"hybrid without reranker, weak", fr, retrieve.Stats{Mode: "hybrid", TopLexical: 0.1}, true},
		{"hybrid without reranker, strong", en, retrieve.Stats{Mode: "hybrid", TopLexical: 2}, false},
		{"reranked English, weak, none relevant", en, retrieve.Stats{Mode: "hybrid", TopLexical: 0.1, Reranked: 2, RerankScores: []float64{-3, -7}}, true},
		{"reranked English, weak, one relevant", en, retrieve.Stats{Mode: "hybrid", TopLexical: 0.1, Reranked: 2, RerankScores: []float64{1.2, -7}}, false},
		{"reranked English, strong, none relevant", en, retrieve.Stats{Mode: "hybrid", TopLexical: 2, Reranked: 2, RerankScores: []float64{-3, -7}}, false},
		{"reranked French, weak, none relevant", fr, retrieve.Stats{Mode: "hybrid", TopLexical: 0.1, Reranked: 2, RerankScores: []float64{-3, -7}}, false},
	} {
		tr := &turn{s: &Assistant{cfg: Config{MinBM25: 0.3}}, a: Answer{Question: c.question},
			r: retrieval{hits: []corpus.Hit{{ChunkID: "c1"}}, stats: c.stats}}
		if got := tr.abstains(); got != c.want {
			t.Errorf("%s: abstains %v, want %v", c.name, got, c.want)
		}
	}
}
