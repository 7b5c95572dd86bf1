package rag

import (
	"context"

	"vika/backend/cite"
	"vika/backend/corpus"
	"vika/backend/metrics"
	"vika/backend/prompt"
)

// record fills the question's metrics record and stores it in the
// session; it returns the record as stored (with its query index), or as
// built when it could not be stored (a closed session).
func (t *turn) record(ctx context.Context) metrics.Record {
	rec := metrics.Record{
		Query:              t.a.Question,
		RetrievalMode:      string(t.r.stats.Mode),
		RetrievalLatencyMs: metrics.Ms(t.r.latency),
		ChunksRetrieved:    t.r.stats.Candidates,
		CosineSimMean:      t.r.stats.MeanCosine,
		// BM25's share of the fused scores of the passages retrieved for
		// the question (the engine's statistics).
		BM25ContributionPct: t.r.stats.BM25Share,
		FallbackChain:       []string{},
		PageTypesUsed:       map[string]int{},
	}
	switch t.a.Kind {
	case KindAbstained:
		rec.LLMRoutingMode = metrics.RoutingAbstained
	case KindExtractive:
		rec.LLMRoutingMode = metrics.RoutingExtractive
	}
	if t.res != nil && t.a.Kind == KindLLM {
		rec.SetAnswer(*t.res)
	}
	used := t.usedHits()
	rec.ChunksUsed = len(used)
	types := make([]corpus.PageType, len(used))
	var rerank []float64
	for i, h := range used {
		types[i] = h.PageType
		if h.RerankScore != nil {
			rerank = append(rerank, *h.RerankScore)
		}
	}
	rec.PageTypesUsed = metrics.CountPageTypes(types)
	if len(rerank) == len(used) {
		rec.RerankerScoreMean, rec.RerankerScoreMin = metrics.MeanMin(rerank)
	}
	relevant, _ := relevance(t.a.Sources)
	rec.HitAt5, rec.RecallAt5, rec.MRR = metrics.Ranking(relevant, 5)
	if pct, ok := cite.ValidPct(t.a.Citations); ok {
		rec.CitationValidPct = metrics.Float(pct)
	}
	rec.ImagesSent, rec.ImagesWithheld = t.imagesSent, t.imagesWithheld
	rec.TotalLatencyMs = metrics.Ms(t.sw.Total())
	stored, err := t.s.eng.AddMetric(context.WithoutCancel(ctx), rec)
	if err != nil {
		return rec
	}
	return stored
}

// relevance says which sources count as relevant for Hit@5, Recall@5 and
// MRR, and by which proxy. This is the one place that chooses it: the
// cross-encoder's scores when every source carries one
// (corpus.Hit.RerankScore), else the BM25 stand-in (metrics.ProxyBM25 at
// prompt.DefaultMinBM25).
func relevance(srcs []Source) ([]bool, string) {
	scores := make([]float64, len(srcs))
	reranked := len(srcs) > 0
	for i, s := range srcs {
		if s.RerankScore == nil {
			reranked = false
			break
		}
		scores[i] = *s.RerankScore
	}
	if reranked {
		return metrics.Relevant(scores, metrics.RerankerCutoff), metrics.ProxyReranker
	}
	for i, s := range srcs {
		scores[i] = 0
		if s.LexicalScore != nil {
			scores[i] = *s.LexicalScore
		}
	}
	return metrics.Relevant(scores, prompt.DefaultMinBM25), metrics.ProxyBM25(prompt.DefaultMinBM25)
}
