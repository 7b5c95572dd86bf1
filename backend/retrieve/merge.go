package retrieve

import "slices"

// mergeSpaces merges the fused lists of several embedding models (one per
// space, each BM25 fused with that model's dense candidates by that
// model's profile) into one list, best first.
//
// Each chunk has a vector in exactly one model's index, its home (chosen
// by its language), and takes its fused score, ranks and cosine from its
// home list: that list scored it with a real cosine, while the other lists
// gave it their floor for "no vector". A chunk that no list holds a vector
// of (a model's query vector was empty) keeps its best score.
//
// The union is by score, not by rank, because the scores are comparable:
// every list fuses the same BM25 list, normalised the same way (z-scores
// over the same candidates), with the z-scores of its own model's cosines,
// and the dense side weighs what its profile measured (conservatively for
// an unmeasured model, see DefaultProfile). A merge by rank (RRF across
// models) would interleave the models' lists whatever their sizes: a
// session of 1,000 English chunks and 5 French ones would always put the
// best French chunk at rank 1 or 2, relevant or not. Only when the
// profiles fuse differently (convex against RRF, or different
// normalisations), so that scores are not comparable, do the lists merge
// by Reciprocal Rank Fusion of each chunk's rank in its home list
// (k = DefaultRRFK), and the score becomes that RRF value. No score is
// invented: each one is what a list computed. method is the search's
// fusion (SearchOptions.Fusion): "" for each profile's own.
func mergeSpaces(spaces []*space, lists [][]*candidate, method Fusion) []*candidate {
	byScore := true
	f0 := spaces[0].prof.fusion(method)
	for _, s := range spaces[1:] {
		if f := s.prof.fusion(method); f.method != f0.method || (f0.method == FusionConvex && f.norm != f0.norm) {
			byScore = false
		}
	}
	type pick struct {
		c    *candidate
		home bool // c comes from the list of the model holding its vector
		rank int  // 1-based rank of c in its list
	}
	best := map[string]*pick{}
	var order []string
	for _, list := range lists {
		for i, c := range list {
			p := best[c.id]
			switch {
			case p == nil:
				best[c.id] = &pick{c, c.hasDense, i + 1}
				order = append(order, c.id)
			case c.hasDense && !p.home,
				!c.hasDense && !p.home && c.score > p.c.score:
				*p = pick{c, c.hasDense, i + 1}
			}
		}
	}
	out := make([]*candidate, len(order))
	for i, id := range order {
		p := best[id]
		if !byScore {
			p.c.score = 1 / (DefaultRRFK + float64(p.rank))
		}
		out[i] = p.c
	}
	slices.SortFunc(out, compareFused)
	return out
}
