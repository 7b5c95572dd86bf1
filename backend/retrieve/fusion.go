package retrieve

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Fusion names how hybrid mode merges the dense and the BM25 candidates.
type Fusion string

const (
	// FusionConvex scores w·norm(cosine) + (1−w)·norm(BM25), w being the
	// profile's DenseWeight and norm the profile's Norm. Every candidate
	// has its exact cosine (Dense scores any chunk); a chunk BM25 did not
	// retrieve gets the lowest normalised BM25 score, 0 for min-max.
	FusionConvex Fusion = "convex"
	// FusionRRF is Reciprocal Rank Fusion: 2w/(k+rank_dense) +
	// 2(1−w)/(k+rank_bm25), a list that did not retrieve the chunk adding
	// nothing. w = 0.5 is plain RRF, 1/(k+r1) + 1/(k+r2).
	FusionRRF Fusion = "rrf"
)

// Norm names the per-query score normalisation of FusionConvex.
type Norm string

const (
	// NormMinMax maps a list's scores linearly onto [0, 1].
	NormMinMax Norm = "minmax"
	// NormZScore subtracts the list's mean and divides by its standard
	// deviation.
	NormZScore Norm = "zscore"
)

// Fusions lists the fusion methods a search may ask for
// (SearchOptions.Fusion), "" (the model's profile) aside.
var Fusions = []Fusion{FusionConvex, FusionRRF}

// ParseFusion returns the Fusion named s: "" (each model's profile), or
// one of Fusions.
func ParseFusion(s string) (Fusion, error) {
	if s == "" {
		return "", nil
	}
	for _, f := range Fusions {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown fusion %q (want convex or rrf, or none for the model's profile)", s)
}

// DefaultRRFK is the k of Reciprocal Rank Fusion (Cormack et al. 2009).
const DefaultRRFK = 60

// candidate is one chunk retrieved by either retriever.
type candidate struct {
	id          string
	dense       float64 // dense score fused: cosine with the (feedback) query; valid if hasDense
	cosine      float64 // cosine with the question itself; valid if hasDense
	hasDense    bool
	lexical     float64  // BM25 score; valid if lexicalRank > 0
	denseRank   int      // 1-based rank in the dense list; 0 if not retrieved
	lexicalRank int      // 1-based rank in the BM25 list; 0 if not retrieved
	model       string   // embedder whose index holds the chunk's vector; "" if none
	rerank      *float64 // reranker's score; nil if not rescored
	figureRank  int      // 1-based rank in the figure list; 0 if not in it
	summaryRank int      // 1-based rank in the summary list; 0 if not in it
	pageOnly    bool     // brought by its page's whole-page rank, unscored itself
	named       bool     // a region the question names by its label, unscored itself

	// Set by fuse: score = densePart + lexicalPart.
	score, densePart, lexicalPart float64
}

// fusion holds the parameters of one fusion.
type fusion struct {
	method      Fusion
	denseWeight float64
	norm        Norm
	rrfK        float64
}

// fuse scores cands in place and sorts them best first: by score, then by
// BM25 rank, dense rank (a retrieved chunk before one that was not) and id.
func fuse(cands []*candidate, f fusion) {
	w := min(max(f.denseWeight, 0), 1)
	switch f.method {
	case FusionRRF:
		k := f.rrfK
		if k <= 0 {
			k = DefaultRRFK
		}
		for _, c := range cands {
			c.densePart, c.lexicalPart = 0, 0
			if c.denseRank > 0 {
				c.densePart = 2 * w / (k + float64(c.denseRank))
			}
			if c.lexicalRank > 0 {
				c.lexicalPart = 2 * (1 - w) / (k + float64(c.lexicalRank))
			}
		}
	default: // FusionConvex
		dn := normalizer(cands, f.norm, func(c *candidate) (float64, bool) { return c.dense, c.hasDense })
		ln := normalizer(cands, f.norm, func(c *candidate) (float64, bool) { return c.lexical, c.lexicalRank > 0 })
		for _, c := range cands {
			c.densePart = w * dn(c.dense, c.hasDense)
			c.lexicalPart = (1 - w) * ln(c.lexical, c.lexicalRank > 0)
		}
	}
	for _, c := range cands {
		c.score = c.densePart + c.lexicalPart
	}
	slices.SortFunc(cands, compareFused)
}

// rankOrInf makes "not retrieved" (0) rank after every real rank.
func rankOrInf(r int) int {
	if r == 0 {
		return math.MaxInt
	}
	return r
}

func compareFused(a, b *candidate) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	if c := cmp.Compare(rankOrInf(a.lexicalRank), rankOrInf(b.lexicalRank)); c != 0 {
		return c
	}
	if c := cmp.Compare(rankOrInf(a.denseRank), rankOrInf(b.denseRank)); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// normalizer returns a function normalising one score of the list that
// value extracts from cands. A missing score (ok false) normalises to the
// list's lowest normalised value: 0 for min-max. A list of one distinct
// value normalises to 1 (min-max) or 0 (z-score).
func normalizer(cands []*candidate, norm Norm, value func(*candidate) (float64, bool)) func(float64, bool) float64 {
	var n int
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, c := range cands {
		if v, ok := value(c); ok {
			n++
			lo, hi, sum = min(lo, v), max(hi, v), sum+v
		}
	}
	if n == 0 {
		return func(float64, bool) float64 { return 0 }
	}
	if norm == NormZScore {
		mean := sum / float64(n)
		var ss float64
		for _, c := range cands {
			if v, ok := value(c); ok {
				ss += (v - mean) * (v - mean)
			}
		}
		sd := math.Sqrt(ss / float64(n))
		if sd == 0 {
			return func(float64, bool) float64 { return 0 }
		}
		floor := (lo - mean) / sd
		return func(v float64, ok bool) float64 {
			if !ok {
				return floor
			}
			return (v - mean) / sd
		}
	}
	return func(v float64, ok bool) float64 {
		switch {
		case !ok:
			return 0
		case hi == lo:
			return 1
		default:
			return (v - lo) / (hi - lo)
		}
	}
}

// fuseRanked merges ranked lists of candidates (one search each: the
// question, or its HyDE passage, and its rephrasings) by Reciprocal Rank
// Fusion over the first n of each list (k = DefaultRRFK) and keeps the n
// best. A candidate keeps the fields of the list that found it first; its
// score becomes the fused one. Ties keep the order of first appearance.
func fuseRanked(lists [][]*candidate, n int) []*candidate {
	score := map[string]float64{}
	first := map[string]*candidate{}
	var order []*candidate
	for _, list := range lists {
		for rank, c := range list[:min(n, len(list))] {
			if _, ok := first[c.id]; !ok {
				cp := *c
				first[c.id] = &cp
				order = append(order, &cp)
			}
			score[c.id] += 1 / float64(DefaultRRFK+rank+1)
		}
	}
	for _, c := range order {
		c.score = score[c.id]
	}
	slices.SortStableFunc(order, func(a, b *candidate) int { return cmp.Compare(b.score, a.score) })
	return order[:min(n, len(order))]
}
