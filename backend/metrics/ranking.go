package metrics

// RerankerCutoff is the cross-encoder score from which a chunk counts as
// relevant: a logit of 0 is a relevance probability of one half.
const RerankerCutoff = 0.0

// ProxyReranker names the relevance proxy of Hit@5, Recall@5 and MRR
// (Summary.RelevanceProxy): a chunk is relevant when the cross-encoder
// scores it at RerankerCutoff or more.
const ProxyReranker = "reranker score >= 0 counts as relevant"

// ProxyNone is Summary.RelevanceProxy when no answer was reranked: Hit@5,
// Recall@5 and MRR are then unknown, and no other score stands in.
const ProxyNone = "no reranker"

// Relevant returns, for each score, whether it reaches cutoff.
func Relevant(scores []float64, cutoff float64) []bool {
	out := make([]bool, len(scores))
	for i, s := range scores {
		out[i] = s >= cutoff
	}
	return out
}

// CountRelevant returns how many scores reach cutoff.
func CountRelevant(scores []float64, cutoff float64) int {
	n := 0
	for _, s := range scores {
		if s >= cutoff {
			n++
		}
	}
	return n
}

// Ranking returns Hit@k, Recall@k and MRR of a ranked list, best first,
// whose items' relevance is given, out of candidates relevant items among
// everything retrieved (the list's and those left out of it):
//   - hit is 1 when a relevant item is among the first k, else 0;
//   - recall is the share of the candidates' relevant items that are among
//     the first k (nil when candidates is 0: nothing to recall);
//   - mrr is the reciprocal rank of the first relevant item within the
//     first k, 0 when there is none.
//
// A candidates count below the list's own relevant items is raised to it.
// All three are nil for an empty list.
func Ranking(relevant []bool, candidates, k int) (hit, recall, mrr *float64) {
	if len(relevant) == 0 {
		return nil, nil, nil
	}
	total, top, first := 0, 0, 0
	for i, rel := range relevant {
		if !rel {
			continue
		}
		total++
		if i >= k {
			continue
		}
		top++
		if first == 0 {
			first = i + 1
		}
	}
	total = max(total, candidates)
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
