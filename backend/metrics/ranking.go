package metrics

import "fmt"

// RerankerCutoff is the cross-encoder score from which a chunk counts as
// relevant: a logit of 0 is a relevance probability of one half.
const RerankerCutoff = 0.0

// ProxyReranker names the relevance proxy of Hit@5, Recall@5 and MRR when
// a cross-encoder is installed (Summary.RelevanceProxy).
const ProxyReranker = "reranker score >= 0 counts as relevant"

// ProxyBM25 names the stand-in used without a cross-encoder: the chunk's
// BM25 score reaches cutoff (prompt.DefaultMinBM25, the measured
// abstention threshold); a chunk that BM25 did not retrieve counts as not
// relevant.
func ProxyBM25(cutoff float64) string {
	return fmt.Sprintf("no cross-encoder installed: BM25 score >= %g counts as relevant", cutoff)
}

// Relevant returns, for each score, whether it reaches cutoff.
func Relevant(scores []float64, cutoff float64) []bool {
	out := make([]bool, len(scores))
	for i, s := range scores {
		out[i] = s >= cutoff
	}
	return out
}

// Ranking returns Hit@k, Recall@k and MRR of a ranked list, best first,
// whose items' relevance is given: hit is 1 when a relevant item is among
// the first k, else 0; recall is the share of the list's relevant items
// that are among the first k (nil when the list has none: the proxy knows
// of no relevant chunk to recall); mrr is the reciprocal rank of the first
// relevant item, 0 when there is none. All three are nil for an empty list.
func Ranking(relevant []bool, k int) (hit, recall, mrr *float64) {
	if len(relevant) == 0 {
		return nil, nil, nil
	}
	total, top, first := 0, 0, 0
	for i, rel := range relevant {
		if !rel {
			continue
		}
		total++
		if i < k {
			top++
		}
		if first == 0 {
			first = i + 1
		}
	}
	h, rr := 0.0, 0.0
	if top > 0 {
		h = 1
	}
	if first > 0 {
		rr = 1 / float64(first)
	}
	if total > 0 {
		recall = Float(float64(top) / float64(total))
	}
	return Float(h), recall, Float(rr)
}
