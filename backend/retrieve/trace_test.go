package retrieve

import "testing"

// traced is a hit seen from inside the package: its scores (0 when nil)
// beside the ranks and model of the candidate behind it.
type traced struct {
	ChunkID, FoundBy, Model         string
	Score, DenseScore, LexicalScore float64
	HasDense, HasLexical            bool
	DenseRank, LexicalRank          int
	RerankScore                     *float64
}

// trace pairs res's hits with their candidates, checking that a hit has a
// dense score exactly when a model holds its vector and a BM25 score
// exactly when BM25 ranked it.
func trace(t *testing.T, res Result) []traced {
	t.Helper()
	if len(res.found) != len(res.Hits) {
		t.Fatalf("%d hits, %d candidates", len(res.Hits), len(res.found))
	}
	out := make([]traced, len(res.Hits))
	for i, h := range res.Hits {
		c := res.found[i]
		if c.id != h.ChunkID {
			t.Fatalf("hit %d is %s, its candidate %s", i, h.ChunkID, c.id)
		}
		v := traced{ChunkID: h.ChunkID, FoundBy: h.FoundBy, Model: c.model, Score: h.Score,
			DenseRank: c.denseRank, LexicalRank: c.lexicalRank, RerankScore: h.RerankScore,
			HasDense: h.DenseScore != nil, HasLexical: h.LexicalScore != nil}
		if v.HasDense {
			v.DenseScore = *h.DenseScore
		}
		if v.HasLexical {
			v.LexicalScore = *h.LexicalScore
		}
		if v.HasDense != (c.model != "") || v.HasLexical != (c.lexicalRank > 0) {
			t.Errorf("%s: dense score %v with model %q, BM25 score %v with rank %d", h.ChunkID, v.HasDense, c.model, v.HasLexical, c.lexicalRank)
		}
		out[i] = v
	}
	return out
}
