package chunk

import (
	"slices"
	"testing"

	"vika/backend/corpus"
)

// TestSplitLinesOutOfOrder: a page whose lines are not in text order (a
// course file's claim, issue 43) is cut without a panic, its text still
// covered. Fails on main: listed (heading.go) sliced the page's runes
// between two headings found in the lines' order, the later one first.
func TestSplitLinesOutOfOrder(t *testing.T) {
	p := layoutPage(1, 842,
		ln{"1. Introduction", 16, true, 72, 0},
		ln{"Some text of the body.", 10, false, 100, 1},
		ln{"2. Methods", 16, true, 130, 2},
		ln{"More body text here.", 10, false, 160, 3},
		ln{"3. Results", 16, true, 190, 4},
		ln{"Results in the body.", 10, false, 220, 5},
		ln{"4. Discussion", 16, true, 250, 6},
		ln{"Discussion in the body.", 10, false, 280, 7},
		ln{"5. Conclusion", 16, true, 310, 8},
	)
	slices.Reverse(p.Lines)
	p.Lines = append(p.Lines, p.Lines[0], p.Lines[3]) // and repeated
	pages := []corpus.Page{p}
	chunks := Split(doc, pages, Options{})
	checkInvariants(t, pages, chunks, Options{}.normalized())
}
