package retrieve

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func order(cands []*candidate) []string {
	var out []string
	for _, c := range cands {
		out = append(out, c.id)
	}
	return out
}

func byID(cands []*candidate) map[string]*candidate {
	m := map[string]*candidate{}
	for _, c := range cands {
		m[c.id] = c
	}
	return m
}

func approx(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// TestRRF checks the formula on hand-computed values: a is first in BM25
// and third in dense, b second in both, c only dense (first), d only BM25
// (third).
func TestRRF(t *testing.T) {
	mk := func() []*candidate {
		return []*candidate{
			{id: "a", lexicalRank: 1, denseRank: 3},
			{id: "b", lexicalRank: 2, denseRank: 2},
			{id: "c", denseRank: 1},
			{id: "d", lexicalRank: 3},
		}
	}
	cands := mk()
	fuse(cands, fusion{method: FusionRRF, denseWeight: 0.5, rrfK: 60})
	want := map[string]float64{
		"a": 1.0/61 + 1.0/63, // 0.032266
		"b": 1.0/62 + 1.0/62, // 0.032258
		"c": 1.0 / 61,
		"d": 1.0 / 63,
	}
	for id, w := range want {
		if got := byID(cands)[id].score; !approx(got, w) {
			t.Errorf("RRF(%s) = %.6f, want %.6f", id, got, w)
		}
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "d"}, order(cands)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if c := byID(cands)["a"]; !approx(c.lexicalPart, 1.0/61) || !approx(c.densePart, 1.0/63) {
		t.Errorf("parts of a = %v, %v", c.lexicalPart, c.densePart)
	}

	// Weighted: dense weight 0.8 doubles... 2w/(k+r): c = 1.6/61 beats a = 0.4/61 + 1.6/63.
	cands = mk()
	fuse(cands, fusion{method: FusionRRF, denseWeight: 0.8, rrfK: 60})
	if got := byID(cands)["c"].score; !approx(got, 1.6/61) {
		t.Errorf("weighted RRF(c) = %v", got)
	}
	if diff := cmp.Diff([]string{"b", "a", "c", "d"}, order(cands)); diff != "" {
		// b: 1.6/62 + 0.4/62 = 0.032258; a: 0.4/61 + 1.6/63 = 0.031954; c: 0.026230
		t.Errorf("weighted order (-want +got):\n%s", diff)
	}

	// k <= 0 means 60.
	cands = mk()
	fuse(cands, fusion{method: FusionRRF, denseWeight: 0.5})
	if got := byID(cands)["c"].score; !approx(got, 1.0/61) {
		t.Errorf("default k: RRF(c) = %v", got)
	}
}

// TestConvexMinMax: BM25 scores 10, 6, 2 -> 1, 0.5, 0; cosines 0.5, 0.9,
// 0.1, 0.3 -> 0.5, 1, 0, 0.25.
func TestConvexMinMax(t *testing.T) {
	cands := []*candidate{
		{id: "a", lexicalRank: 1, lexical: 10, dense: 0.5, hasDense: true},
		{id: "b", lexicalRank: 2, lexical: 6, dense: 0.9, hasDense: true, denseRank: 1},
		{id: "c", lexicalRank: 3, lexical: 2, dense: 0.1, hasDense: true},
		{id: "d", dense: 0.3, hasDense: true, denseRank: 2}, // BM25 missed it: normalised 0
	}
	fuse(cands, fusion{method: FusionConvex, denseWeight: 0.3, norm: NormMinMax})
	want := map[string]float64{
		"a": 0.3*0.5 + 0.7*1, // 0.85
		"b": 0.3*1 + 0.7*0.5, // 0.65
		"c": 0,               //
		"d": 0.3 * 0.25,      // 0.075
	}
	for id, w := range want {
		if got := byID(cands)[id].score; !approx(got, w) {
			t.Errorf("convex(%s) = %v, want %v", id, got, w)
		}
	}
	if diff := cmp.Diff([]string{"a", "b", "d", "c"}, order(cands)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if c := byID(cands)["a"]; !approx(c.lexicalPart, 0.7) || !approx(c.densePart, 0.15) {
		t.Errorf("parts of a = %v, %v", c.lexicalPart, c.densePart)
	}
	// w = 0 is BM25's order, w = 1 the dense order.
	fuse(cands, fusion{method: FusionConvex, denseWeight: 0, norm: NormMinMax})
	if diff := cmp.Diff([]string{"a", "b", "c", "d"}, order(cands)); diff != "" {
		t.Errorf("w=0 order (-want +got):\n%s", diff)
	}
	fuse(cands, fusion{method: FusionConvex, denseWeight: 1, norm: NormMinMax})
	if diff := cmp.Diff([]string{"b", "a", "d", "c"}, order(cands)); diff != "" {
		t.Errorf("w=1 order (-want +got):\n%s", diff)
	}
}

// TestConvexZScore: BM25 3, 1 -> mean 2, sd 1 -> +1, -1; the chunk BM25
// missed takes the lowest z (-1). Cosines 0.2, 0.4, 0.6 -> mean 0.4, sd
// sqrt(0.08/3) -> -1.2247, 0, +1.2247.
func TestConvexZScore(t *testing.T) {
	cands := []*candidate{
		{id: "a", lexicalRank: 1, lexical: 3, dense: 0.2, hasDense: true},
		{id: "b", lexicalRank: 2, lexical: 1, dense: 0.4, hasDense: true},
		{id: "c", dense: 0.6, hasDense: true, denseRank: 1},
	}
	fuse(cands, fusion{method: FusionConvex, denseWeight: 0.5, norm: NormZScore})
	z := 0.2 / math.Sqrt(0.08/3)
	want := map[string]float64{"a": 0.5*-z + 0.5*1, "b": 0.5*0 + 0.5*-1, "c": 0.5*z + 0.5*-1}
	for id, w := range want {
		if got := byID(cands)[id].score; math.Abs(got-w) > 1e-9 {
			t.Errorf("zscore(%s) = %v, want %v", id, got, w)
		}
	}
}

func TestFusionEdgeCases(t *testing.T) {
	for _, f := range []fusion{
		{method: FusionConvex, denseWeight: 0.3, norm: NormMinMax},
		{method: FusionConvex, denseWeight: 0.3, norm: NormZScore},
		{method: FusionRRF, denseWeight: 0.5, rrfK: 60},
	} {
		// Only BM25 found anything (the query had no vector): BM25's order.
		cands := []*candidate{{id: "x", lexicalRank: 1, lexical: 5}, {id: "y", lexicalRank: 2, lexical: 4}}
		fuse(cands, f)
		if diff := cmp.Diff([]string{"x", "y"}, order(cands)); diff != "" {
			t.Errorf("%v, dense empty (-want +got):\n%s", f, diff)
		}
		// Only dense found anything (the query had no searchable term).
		cands = []*candidate{
			{id: "y", denseRank: 2, dense: 0.4, hasDense: true},
			{id: "x", denseRank: 1, dense: 0.8, hasDense: true},
		}
		fuse(cands, f)
		if diff := cmp.Diff([]string{"x", "y"}, order(cands)); diff != "" {
			t.Errorf("%v, BM25 empty (-want +got):\n%s", f, diff)
		}
		// Nothing at all.
		fuse(nil, f)
		// Ties: equal scores are ordered by BM25 rank, then dense rank, then id.
		cands = []*candidate{
			{id: "b", dense: 0.5, hasDense: true},
			{id: "a", dense: 0.5, hasDense: true},
			{id: "c", dense: 0.5, hasDense: true, denseRank: 1},
		}
		fuse(cands, f)
		if diff := cmp.Diff([]string{"c", "a", "b"}, order(cands)); diff != "" {
			t.Errorf("%v, ties (-want +got):\n%s", f, diff)
		}
	}
	// A single BM25 score normalises to 1 (min-max), not NaN.
	cands := []*candidate{{id: "x", lexicalRank: 1, lexical: 5}}
	fuse(cands, fusion{method: FusionConvex, denseWeight: 0.2, norm: NormMinMax})
	if !approx(cands[0].score, 0.8) {
		t.Errorf("single candidate: %v", cands[0].score)
	}
	// Weights outside [0, 1] are clamped.
	cands = []*candidate{{id: "x", lexicalRank: 1, lexical: 5}}
	fuse(cands, fusion{method: FusionConvex, denseWeight: 7, norm: NormMinMax})
	if cands[0].score != 0 {
		t.Errorf("clamped weight: %v", cands[0].score)
	}
}

// TestFuseRanked: Reciprocal Rank Fusion of a question's searches: a chunk
// that every list ranks high goes first, the first n of each list count,
// and a chunk keeps the fields of the list that found it first.
func TestFuseRanked(t *testing.T) {
	c := func(id string, lexical float64) *candidate {
		return &candidate{id: id, lexical: lexical, lexicalRank: 1}
	}
	lists := [][]*candidate{{c("a", 1), c("b", 2)}, {c("b", 3), c("c", 4)}, {c("b", 5), c("d", 6), c("e", 7)}}
	got := fuseRanked(lists, 2)
	if len(got) != 2 || got[0].id != "b" || got[1].id != "a" || got[0].score <= got[1].score {
		t.Fatalf("fuseRanked = %+v", got)
	}
	if want := 1.0/62 + 1.0/61 + 1.0/61; math.Abs(got[0].score-want) > 1e-12 || got[0].lexical != 2 {
		t.Errorf("b: score %g (want %g), lexical %g (want the first list's, 2)", got[0].score, want, got[0].lexical)
	}
	if lists[0][1].score != 0 {
		t.Errorf("fuseRanked changed its input: %+v", lists[0][1])
	}
}

// TestFusionOverride: SearchOptions.Fusion replaces the profile's method
// and keeps its weight, normalisation and k (Profile.fusion). On these
// candidates, a convex combination (min-max, w 0.5) follows the scores:
// a's BM25 score (10 against 2) outweighs b's better cosine, so a, b, c,
// d; RRF (k 60, w 0.5) follows the ranks: b (BM25 2nd, dense 1st) beats a
// (1st, 3rd), so b, a, c, d.
//
//	convex: a 0.5·0.375 + 0.5·1 = 0.6875, b 0.5556, c 0.4688, d 0
//	rrf:    b 1/62+1/61 = 0.032522, a 1/61+1/63 = 0.032266,
//	        c 1/63+1/62 = 0.032002, d 1/64 = 0.015625
func TestFusionOverride(t *testing.T) {
	mk := func() []*candidate {
		return []*candidate{
			{id: "a", lexicalRank: 1, lexical: 10, denseRank: 3, dense: 0.40, hasDense: true},
			{id: "b", lexicalRank: 2, lexical: 2, denseRank: 1, dense: 0.90, hasDense: true},
			{id: "c", lexicalRank: 3, lexical: 1, denseRank: 2, dense: 0.85, hasDense: true},
			{id: "d", denseRank: 4, dense: 0.10, hasDense: true},
		}
	}
	prof := Profile{Fusion: FusionConvex, DenseWeight: 0.5, Norm: NormMinMax, RRFK: 60}
	for _, tc := range []struct {
		method Fusion
		want   []string
		scores map[string]float64
	}{
		{"", []string{"a", "b", "c", "d"}, map[string]float64{"a": 0.6875, "d": 0}},
		{FusionConvex, []string{"a", "b", "c", "d"}, map[string]float64{"a": 0.6875, "d": 0}},
		{FusionRRF, []string{"b", "a", "c", "d"}, map[string]float64{"b": 1.0/62 + 1.0/61, "a": 1.0/61 + 1.0/63, "d": 1.0 / 64}},
	} {
		f := prof.fusion(tc.method)
		if want := cmpOr(tc.method, FusionConvex); f.method != want || f.denseWeight != 0.5 || f.norm != NormMinMax || f.rrfK != 60 {
			t.Errorf("%q: fusion %+v", tc.method, f)
		}
		cands := mk()
		fuse(cands, f)
		if diff := cmp.Diff(tc.want, order(cands)); diff != "" {
			t.Errorf("%q: order (-want +got):\n%s", tc.method, diff)
		}
		for id, w := range tc.scores {
			if got := byID(cands)[id].score; !approx(got, w) {
				t.Errorf("%q: score of %s = %v, want %v", tc.method, id, got, w)
			}
		}
	}
	if f := (Profile{Fusion: FusionRRF, DenseWeight: 0.3}).fusion(FusionConvex); f.method != FusionConvex || f.denseWeight != 0.3 {
		t.Errorf("an RRF profile asked for convex: %+v", f)
	}
}

func cmpOr(f, def Fusion) Fusion {
	if f == "" {
		return def
	}
	return f
}

func TestParseFusion(t *testing.T) {
	for _, s := range []string{"", "convex", "rrf"} {
		if f, err := ParseFusion(s); err != nil || string(f) != s {
			t.Errorf("ParseFusion(%q) = %q, %v", s, f, err)
		}
	}
	for _, s := range []string{"profile", "RRF", "zscore"} {
		if _, err := ParseFusion(s); err == nil {
			t.Errorf("ParseFusion(%q): no error", s)
		}
	}
}
