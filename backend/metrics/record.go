// Package metrics describes how each question of a session was answered:
// one Record per question (latencies, retrieval statistics, ranking
// proxies, the models tried, tokens, the share of verified citations),
// session summaries (p50/p95 of the total latency), CSV and JSON export,
// and a Stopwatch on an injected clock.
//
// Records hold no secret: the fallback chain keeps model names and error
// kinds, never provider error messages, and Redact scrubs anything shaped
// like an API key from the query before a record is stored or exported.
package metrics

import (
	"math"
	"time"

	"vika/backend/llm"
)

// How an answer was produced (Record.LLMRoutingMode): the router's modes,
// and the two answers given without a model.
const (
	RoutingAuto       = "auto"       // the router chose the model
	RoutingManual     = "manual"     // the user chose the model
	RoutingExtractive = "extractive" // no provider available: best passages quoted
	RoutingAbstained  = "abstained"  // retrieval too weak: "not found in your documents"
)

// Record is the account of one question. Fields whose value is unknown
// are nil: JSON null, an empty CSV cell.
type Record struct {
	QueryIndex int    `json:"query_index"` // 1-based, in the session
	Query      string `json:"query"`       // the question as asked (key-shaped strings redacted)
	// LLMModel is the "provider/id" of the model that answered, "" when
	// none did (extractive or abstained answers).
	LLMModel       string `json:"llm_model"`
	LLMRoutingMode string `json:"llm_routing_mode"` // Routing*
	RetrievalMode  string `json:"retrieval_mode"`   // "dense", "bm25" or "hybrid"

	RetrievalLatencyMs  float64  `json:"retrieval_latency_ms"`
	GenerationLatencyMs float64  `json:"generation_latency_ms"`  // the provider stream, fallbacks included
	TimeToFirstTokenMs  *float64 `json:"time_to_first_token_ms"` // nil without generated text
	TotalLatencyMs      float64  `json:"total_latency_ms"`       // question in, answer checked and recorded

	ChunksRetrieved int `json:"chunks_retrieved"` // candidates retrieved (before fusion cut-off)
	ChunksUsed      int `json:"chunks_used"`      // sources put in the prompt

	// Reranker scores of the used chunks; nil without a cross-encoder.
	RerankerScoreMean *float64 `json:"reranker_score_mean"`
	RerankerScoreMin  *float64 `json:"reranker_score_min"`
	// CosineSimMean is the mean cosine of the question with the used
	// chunks, the question's own embedding even when HyDE or multi-query
	// searched other texts; nil when the query was not embedded (bm25
	// mode).
	CosineSimMean *float64 `json:"cosine_sim_mean"`
	// BM25ContributionPct is the share of the used chunks that came from
	// BM25, found by BM25 alone or by both retrievers (corpus.Hit.FoundBy),
	// in percent: 100 in bm25 mode, 0 in dense mode, 0 when no chunk was
	// used (an abstention).
	BM25ContributionPct float64 `json:"bm25_contribution_pct"`
	// BM25ScoreSharePct is BM25's share of the used chunks' fused scores
	// (retrieve.Stats.BM25Share), in percent: 100 in bm25 mode, 0 in dense
	// mode.
	BM25ScoreSharePct float64 `json:"bm25_score_share_pct"`

	// Ranking quality of the answer's sources against the reranker proxy
	// (ProxyReranker, see Ranking); nil without a reranker: no other
	// proxy stands in for it.
	HitAt5    *float64 `json:"hit_at_5"`
	RecallAt5 *float64 `json:"recall_at_5"`
	MRR       *float64 `json:"mrr"`

	// PageTypesUsed counts the used chunks by page type (text,
	// illustrative, mixed, scanned).
	PageTypesUsed map[string]int `json:"page_types_used" ts_type:"{[key: string]: number}"`
	// FallbackChain lists the models tried in order: "provider/id" for the
	// one that answered, "provider/id (kind)" for one that failed, kind
	// being llm.KindOf its error.
	FallbackChain []string `json:"fallback_chain"`

	// Which query techniques applied to this answer: History when earlier
	// turns were put in the prompt, HyDE when a hypothetical passage was
	// searched, MultiQuery when rephrasings were searched, Rerank when a
	// cross-encoder reordered the candidates. A technique asked for but
	// skipped (no model, no reranker, first question) is false.
	HistoryApplied    bool `json:"history_applied"`
	HyDEApplied       bool `json:"hyde_applied"`
	MultiQueryApplied bool `json:"multi_query_applied"`
	RerankApplied     bool `json:"rerank_applied"`

	TokensIn  int `json:"tokens_in"`
	TokensOut int `json:"tokens_out"`
	// CitationValidPct is the share of the answer's citations that were
	// verified (cite.ValidPct); nil when the answer cites nothing.
	CitationValidPct *float64 `json:"citation_valid_pct"`
	// ImagesSent is the number of table and figure crops the answering
	// model was shown (0: none were sent, the answer was written from
	// text); ImagesWithheld those that were meant for it but not sent,
	// because the model that answered reads no images.
	ImagesSent     int `json:"images_sent"`
	ImagesWithheld int `json:"images_withheld"`
	// Scope is what the question was limited to, as the files and the
	// page range ("bert.pdf, resnet.pdf p.10-20"); "" when it searched
	// every document.
	Scope string `json:"scope"`
}

// SetAnswer fills the fields that a model's answer gives: model, routing
// mode, generation latency, time to first token, fallback chain, tokens.
func (r *Record) SetAnswer(res llm.Result) {
	r.LLMModel = res.ModelUsed
	r.LLMRoutingMode = res.Plan.Mode
	r.GenerationLatencyMs = Ms(res.Duration)
	r.TimeToFirstTokenMs = nil
	if res.Answer != "" {
		r.TimeToFirstTokenMs = Float(Ms(res.TTFT))
	}
	r.FallbackChain = make([]string, 0, len(res.Chain))
	for _, a := range res.Chain {
		step := a.Model
		if a.ErrorKind != "" {
			step += " (" + a.ErrorKind + ")"
		}
		r.FallbackChain = append(r.FallbackChain, step)
	}
	r.TokensIn, r.TokensOut = res.Usage.InputTokens, res.Usage.OutputTokens
}

// Ms returns d in milliseconds, rounded to the microsecond.
func Ms(d time.Duration) float64 { return math.Round(float64(d.Microseconds())) / 1000 }

// Float returns a pointer to v, for the optional fields.
func Float(v float64) *float64 { return &v }

// MeanMin returns the mean and the minimum of xs, nil for none.
func MeanMin(xs []float64) (mean, min *float64) {
	if len(xs) == 0 {
		return nil, nil
	}
	sum, lo := 0.0, math.Inf(1)
	for _, x := range xs {
		sum += x
		lo = math.Min(lo, x)
	}
	return Float(sum / float64(len(xs))), Float(lo)
}

// CountPageTypes counts page types, for PageTypesUsed.
func CountPageTypes[T ~string](types []T) map[string]int {
	m := make(map[string]int, 4)
	for _, t := range types {
		m[string(t)]++
	}
	return m
}
