package pdf

import "vika/backend/corpus"

// Density thresholds of the page classification rule (DESIGN.md), in
// characters per square point.
const (
	DenseText  = 0.01
	SparseText = 0.001
)

// Classify applies the DESIGN.md page rule to a page with chars characters
// of text on a page of the given area (pt^2):
//
//	density >= 0.01:                  text, or illustrative with images
//	0.001 <= density < 0.01:          mixed with images, otherwise text
//	density < 0.001:                  scanned with images, otherwise text
func Classify(chars int, area float64, hasImages bool) corpus.PageType {
	d := Density(chars, area)
	switch {
	case !hasImages:
		return corpus.PageText
	case d >= DenseText:
		return corpus.PageIllustrative
	case d >= SparseText:
		return corpus.PageMixed
	default:
		return corpus.PageScanned
	}
}

// Density is chars / area, or 0 for a degenerate page.
func Density(chars int, area float64) float64 {
	if area <= 0 {
		return 0
	}
	return float64(chars) / area
}
