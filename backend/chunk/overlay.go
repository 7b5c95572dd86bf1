package chunk

import (
	"strings"
	"unicode"
)

// Slide decks built with incremental overlays repeat a slide page after
// page, each adding an item: 561 pages of the statistical-learning deck
// hold far fewer distinct slides. Consecutive pages whose body text
// (furniture aside) nearly contains the other's, or nearly equals it, form
// a group; only its fullest page is chunked, and its chunks list the
// group's pages.

// sameSlide is the share of one page's word 3-grams that the next page
// must contain (or the Jaccard similarity of both) to repeat it.
const sameSlide = 0.9

// overlayGroups returns, for each page, the pages of its group when it
// stands for a group of several (nil otherwise), and whether it is
// skipped (another page of its group stands for it).
func overlayGroups(views []*view) (groups [][]int, skip []bool) {
	groups = make([][]int, len(views))
	skip = make([]bool, len(views))
	grams := make([]map[string]bool, len(views))
	for i, v := range views {
		grams[i] = shingles(v.bodyText())
	}
	for i := 0; i < len(views); {
		j := i + 1
		for j < len(views) && repeats(grams[j-1], grams[j]) {
			j++
		}
		if j-i > 1 {
			best := i
			for k := i; k < j; k++ {
				skip[k] = true
				if len(grams[k]) >= len(grams[best]) {
					best = k
				}
			}
			skip[best] = false
			for k := i; k < j; k++ {
				groups[best] = append(groups[best], views[k].page.Number)
			}
		}
		i = j
	}
	return groups, skip
}

// repeats reports whether two consecutive pages show the same slide.
func repeats(a, b map[string]bool) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	common := 0
	for g := range a {
		if b[g] {
			common++
		}
	}
	small := min(len(a), len(b))
	union := len(a) + len(b) - common
	return float64(common) >= sameSlide*float64(small) || float64(common) >= sameSlide*float64(union)
}

// shingles returns the word 3-grams of text (its words if it has fewer
// than three), lower-cased, punctuation ignored.
func shingles(text string) map[string]bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := map[string]bool{}
	if len(words) < 3 {
		for _, w := range words {
			out[w] = true
		}
		return out
	}
	for i := 0; i+3 <= len(words); i++ {
		out[words[i]+" "+words[i+1]+" "+words[i+2]] = true
	}
	return out
}
