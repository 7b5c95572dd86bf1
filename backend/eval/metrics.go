package eval

import (
	"math"
	"slices"
	"time"
)

// Cut-offs of the metrics Evaluate reports, as in BEIR.
const (
	NDCGCutoff   = 10
	RecallCutoff = 100
	MRRCutoff    = 10
)

// Run maps a query id to the document ids it retrieved, best first.
type Run map[string][]string

// Metrics are means over the judged queries of a split.
type Metrics struct {
	NDCG10    float64 `json:"ndcg@10"`
	Recall100 float64 `json:"recall@100"`
	MRR10     float64 `json:"mrr@10"`
	Queries   int     `json:"queries"`
}

// Evaluate averages NDCG@10, Recall@100 and MRR@10 over every query of
// qrels; a query missing from run scores zero.
func Evaluate(run Run, qrels Qrels) Metrics {
	var m Metrics
	for q, rel := range qrels {
		ranked := run[q]
		m.NDCG10 += NDCG(ranked, rel, NDCGCutoff)
		m.Recall100 += Recall(ranked, rel, RecallCutoff)
		m.MRR10 += MRR(ranked, rel, MRRCutoff)
		m.Queries++
	}
	if m.Queries > 0 {
		n := float64(m.Queries)
		m.NDCG10, m.Recall100, m.MRR10 = m.NDCG10/n, m.Recall100/n, m.MRR10/n
	}
	return m
}

// NDCG is the normalised discounted cumulative gain of the first k of
// ranked, with binary gains: a document graded above zero gains 1 at rank i
// (1-based), discounted by log2(i+1); the ideal ranking puts every relevant
// document first. A document listed twice counts once. No relevant
// document gives 0.
func NDCG(ranked []string, rel map[string]int, k int) float64 {
	var dcg float64
	for i, id := range top(ranked, k) {
		if rel[id] > 0 {
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	var ideal float64
	for i := range min(relevant(rel), k) {
		ideal += 1 / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

// Recall is the share of the relevant documents found in the first k of
// ranked; 0 when there is no relevant document.
func Recall(ranked []string, rel map[string]int, k int) float64 {
	n := relevant(rel)
	if n == 0 {
		return 0
	}
	found := 0
	for _, id := range top(ranked, k) {
		if rel[id] > 0 {
			found++
		}
	}
	return float64(found) / float64(n)
}

// MRR is the reciprocal rank of the first relevant document in the first
// k of ranked, or 0 if there is none.
func MRR(ranked []string, rel map[string]int, k int) float64 {
	for i, id := range top(ranked, k) {
		if rel[id] > 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// top returns the first k distinct ids of ranked.
func top(ranked []string, k int) []string {
	seen := make(map[string]bool, min(k, len(ranked)))
	out := make([]string, 0, min(k, len(ranked)))
	for _, id := range ranked {
		if len(out) == k {
			break
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func relevant(rel map[string]int) int {
	n := 0
	for _, g := range rel {
		if g > 0 {
			n++
		}
	}
	return n
}

// Percentile returns the p-th percentile (0 < p <= 100) of d by the
// nearest-rank method: the smallest value with at least p% of the samples
// at or below it. It returns 0 for no sample.
func Percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(rank, 1), len(s))-1]
}
