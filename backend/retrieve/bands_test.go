package retrieve

import (
	"testing"

	"vika/backend/corpus"
)

func TestBands(t *testing.T) {
	use := BandsFor("use-lite")
	for _, c := range []struct {
		cos  float64
		want string
	}{{0.90, BandHigh}, {0.71, BandHigh}, {0.709, BandFair}, {0.38, BandFair}, {0.379, BandLow}, {-0.2, BandLow}} {
		if got := use.Band(c.cos); got != c.want {
			t.Errorf("use-lite %.3f: %q, want %q", c.cos, got, c.want)
		}
	}
	if b := BandsFor("BGE-small-en-v1.5"); b.High != 0.70 || b.Fair != 0.61 || b.Band(0.65) != BandFair || b.Band(0.6) != BandLow {
		t.Errorf("BGE bands %+v", b)
	}
	if b := BandsFor("multilingual-e5-small"); b.High != 0.85 || b.Fair != 0.82 || b.Band(0.86) != BandHigh || b.Band(0.80) != BandLow {
		t.Errorf("e5 bands %+v", b)
	}
	if got := BandsFor("some-new-model").Band(0.99); got != "" {
		t.Errorf("a model without measured bands gave %q", got)
	}
}

// TestSetScoresBand: a hit's band comes from the model holding its vector,
// and there is none without a cosine.
func TestSetScoresBand(t *testing.T) {
	var h corpus.Hit
	setScores(&h, &candidate{model: "use-lite", hasDense: true, cosine: 0.75})
	if h.Band != BandHigh || h.DenseScore == nil || *h.DenseScore != 0.75 {
		t.Errorf("hit %+v", h)
	}
	setScores(&h, &candidate{model: "use-lite", hasDense: false})
	if h.Band != "" {
		t.Errorf("band %q without a cosine", h.Band)
	}
	setScores(&h, &candidate{lexicalRank: 1, lexical: 3})
	if h.Band != "" || h.DenseScore != nil {
		t.Errorf("bm25-only hit %+v", h)
	}
}
