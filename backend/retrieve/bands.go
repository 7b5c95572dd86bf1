package retrieve

import "strings"

// Bands are the cosine thresholds by which a source's score is shown: a
// cosine of at least High is a close match, at least Fair a fair one,
// below it a weak one. Cosines sit differently for each embedding model
// (BGE's relevant passages score 0.75 and more, USE-lite's far lower),
// so each model has its own bands: measured on the shared PDFs for
// USE-lite, bge-small-en-v1.5 and multilingual-e5-small (docs/scores.md);
// any other model has none, and its scores are shown without a band.
type Bands struct {
	High float64 `json:"high"`
	Fair float64 `json:"fair"`
}

// Band codes, as a source's Band.
const (
	BandHigh = "high"
	BandFair = "fair"
	BandLow  = "low"
)

// bands are the known bands, by embedder name (docs/scores.md).
var bands = map[string]Bands{
	// USE-lite: measured by TestCosineBands (backend/cli, -tags tune) over
	// the 156 page questions, each against every passage of its PDF:
	// High is the 90th percentile of the cosines of the passages not on
	// an answer page (tune half: 0.713; one unrelated passage in ten
	// reaches it), Fair their median (0.382). On the test half the best
	// answer passage of a question is high for 33% of the questions, fair
	// for 63%, low for 4% (docs/scores.md).
	"use-lite": {High: 0.71, Fair: 0.38},
	// bge-small-en-v1.5 (int8): measured by
	// TestCosineBands over the 156 page questions by USE-lite's rule: on
	// the tune half the background's 90th percentile is 0.702 and its
	// median 0.608 (the original design's 0.75 / 0.55, taken before
	// this measurement, left a fifth of unrelated passages "fair"). On the
	// test half the best answer passage of a question is high for about
	// nine questions in ten, an unrelated passage for one in ten. Measured
	// again on the pinned int8 file the box ships since (Xenova's export):
	// 0.702 and 0.609, the same bands.
	"bge-small-en-v1.5": {High: 0.70, Fair: 0.61},
	// multilingual-e5-small (the box's, 4-bit weights): measured by
	// TestCosineBands over the 30 French student questions
	// (../shared/data/fr_questions/dev.jsonl), each against every passage
	// of its PDF, by the same rule as USE-lite's: High is the 90th
	// percentile of the passages not on an answer page (0.846), Fair their
	// median (0.816). e5's cosines sit high and close together (its
	// training's temperature): the best answer passage of a question has a
	// median of 0.873 and is high for three questions in four.
	"multilingual-e5-small": {High: 0.85, Fair: 0.82},
}

// BandsFor returns the bands of the embedder called model (its Name());
// the zero Bands for a model without any.
func BandsFor(model string) Bands {
	for name, b := range bands {
		if strings.EqualFold(name, model) {
			return b
		}
	}
	return Bands{}
}

// Band returns the band code of cosine cos: "" for the zero Bands.
func (b Bands) Band(cos float64) string {
	switch {
	case b == Bands{}:
		return ""
	case cos >= b.High:
		return BandHigh
	case cos >= b.Fair:
		return BandFair
	}
	return BandLow
}
