package rag

import (
	"context"

	"vika/backend/cite"
	"vika/backend/corpus"
	"vika/backend/metrics"
	"vika/backend/retrieve"
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
		BM25ScoreSharePct:  t.r.stats.BM25Share,
		HistoryApplied:     len(t.history) > 0,
		HyDEApplied:        t.r.hyde,
		MultiQueryApplied:  t.r.multi,
		RerankApplied:      t.r.stats.Reranked > 0,
		FallbackChain:      []string{},
		PageTypesUsed:      map[string]int{},
		Scope:              t.s.scopeLabel(ctx, t.o.Scope),
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
	rec.BM25ContributionPct = bm25Pct(used)
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
	if rec.RerankApplied {
		rec.HitAt5, rec.RecallAt5, rec.MRR = ranking(t.a.Sources, t.r.stats.RerankScores)
	}
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

// bm25Pct is the share of hits that BM25 found (alone or with the dense
// retriever), in percent; 0 for none.
func bm25Pct(hits []corpus.Hit) float64 {
	if len(hits) == 0 {
		return 0
	}
	n := 0
	for _, h := range hits {
		if h.FoundBy == retrieve.FoundBM25 || h.FoundBy == retrieve.FoundBoth {
			n++
		}
	}
	return 100 * float64(n) / float64(len(hits))
}

// ranking returns Hit@5, Recall@5 and MRR of the sources against the
// reranker proxy (metrics.ProxyReranker), the one relevance proxy: a
// source is relevant when the cross-encoder scored it at
// metrics.RerankerCutoff or more (a source it did not rescore is not), and
// Recall@5 counts the relevant ones among every candidate it rescored
// (all, the scores of every rescored candidate, retrieve.Stats.RerankScores).
func ranking(srcs []Source, all []float64) (hit, recall, mrr *float64) {
	relevant := make([]bool, len(srcs))
	for i, s := range srcs {
		relevant[i] = s.RerankScore != nil && *s.RerankScore >= metrics.RerankerCutoff
	}
	return metrics.Ranking(relevant, metrics.CountRelevant(all, metrics.RerankerCutoff), 5)
}
