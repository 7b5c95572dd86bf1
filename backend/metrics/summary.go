package metrics

import (
	"math"
	"slices"
)

// Summary describes a session's records.
type Summary struct {
	Questions         int     `json:"questions"`
	TotalLatencyP50Ms float64 `json:"total_latency_p50_ms"`
	TotalLatencyP95Ms float64 `json:"total_latency_p95_ms"`
	// CitationValidPctMean is the mean of the records' citation_valid_pct
	// (over those that cite); nil when none does.
	CitationValidPctMean *float64 `json:"citation_valid_pct_mean"`
	// RelevanceProxy says what hit_at_5, recall_at_5 and mrr measure:
	// ProxyReranker when a record was reranked, else ProxyNone (they are
	// then null).
	RelevanceProxy string `json:"relevance_proxy"`
}

// Summarize returns the summary of recs.
func Summarize(recs []Record) Summary {
	s := Summary{Questions: len(recs), RelevanceProxy: ProxyNone}
	lat := make([]float64, len(recs))
	var cites []float64
	for i, r := range recs {
		lat[i] = r.TotalLatencyMs
		if r.RerankApplied {
			s.RelevanceProxy = ProxyReranker
		}
		if r.CitationValidPct != nil {
			cites = append(cites, *r.CitationValidPct)
		}
	}
	s.TotalLatencyP50Ms = Percentile(lat, 50)
	s.TotalLatencyP95Ms = Percentile(lat, 95)
	s.CitationValidPctMean, _ = MeanMin(cites)
	return s
}

// Percentile returns the p-th percentile (0 < p <= 100) of xs by the
// nearest-rank method (as eval.Percentile): the smallest value with at
// least p% of the samples at or below it; 0 for no sample.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(rank, 1), len(s))-1]
}
