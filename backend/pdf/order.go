package pdf

import (
	"cmp"
	"math"
	"slices"
	"unicode/utf8"
)

// Reading order. MuPDF returns blocks in drawing order, which is usually
// but not always the reading order. order rebuilds it geometrically:
//
//  1. If a vertical gutter separates the blocks into a left and a right
//     group that stand side by side, read the left group, then the right
//     (columns; applied recursively, so three columns work too).
//  2. Otherwise, if a few blocks prevent such a gutter (a title, an
//     abstract or a figure spanning both columns), they become
//     separators: the blocks between two separators are ordered on their
//     own (step 1 then finds the columns), separators stay in place.
//  3. Otherwise (a single column) read top to bottom, left to right
//     within a row.
//
// Side by side means the two groups overlap vertically; a heading above a
// centred equation is not two columns. Columns hold prose (lines of 20
// characters or more on average): the cells of a table or the labels of
// two charts side by side are read row by row instead.
func order(bs []Block) []Block {
	if len(bs) <= 1 {
		return bs
	}
	if left, right, ok := splitColumns(bs); ok {
		return append(order(left), order(right)...)
	}
	if segs, ok := splitSpanners(bs); ok {
		var out []Block
		for _, s := range segs {
			out = append(out, order(s)...)
		}
		return out
	}
	return topDown(bs)
}

// sideBySide is the share of the shorter group's height that the two
// groups must share for a gutter to separate columns.
const sideBySide = 0.3

// splitColumns cuts bs at the leftmost vertical gutter (an x range no
// block covers) whose two sides stand side by side.
func splitColumns(bs []Block) (left, right []Block, ok bool) {
	sorted := slices.Clone(bs)
	slices.SortStableFunc(sorted, func(a, b Block) int { return cmp.Compare(a.BBox.X0, b.BBox.X0) })
	reach := math.Inf(-1)
	for i, b := range sorted {
		if i > 0 && b.BBox.X0 >= reach {
			l, r := extent(sorted[:i]), extent(sorted[i:])
			ov := l.overlapY(r)
			if ov > 0 && ov >= sideBySide*math.Min(l.Dy(), r.Dy()) && prose(sorted[:i]) && prose(sorted[i:]) {
				return keep(bs, func(b Block) bool { return b.BBox.X1 <= reach }),
					keep(bs, func(b Block) bool { return b.BBox.X1 > reach }), true
			}
		}
		reach = math.Max(reach, b.BBox.X1)
	}
	return nil, nil, false
}

// splitSpanners finds the vertical line crossed by the fewest blocks
// (weighted by height) in the middle of the text area; when the blocks
// crossing it are a minority and the others stand side by side, those
// blocks become separators. It returns the segments in order: blocks
// above the first separator, the separator, blocks below it, and so on.
func splitSpanners(bs []Block) ([][]Block, bool) {
	all := extent(bs)
	best, bestH := leastCrossed(bs, all.X0+0.2*all.Dx(), all.X1-0.2*all.Dx())
	if math.IsNaN(best) || bestH > 0.6*totalHeight(bs) {
		return nil, false
	}
	spans := keep(bs, func(b Block) bool { return crosses(b, best) })
	rest := keep(bs, func(b Block) bool { return !crosses(b, best) })
	if len(spans) == 0 || len(rest) < 2 {
		return nil, false
	}
	if _, _, ok := splitColumns(rest); !ok && !anySideBySide(rest, spans) {
		return nil, false
	}
	return segments(spans, rest), true
}

// anySideBySide reports whether some segment between separators holds
// columns.
func anySideBySide(rest, spans []Block) bool {
	for _, s := range segments(spans, rest) {
		if _, _, ok := splitColumns(s); ok {
			return true
		}
	}
	return false
}

// segments interleaves the separators (sorted top down) with the blocks
// of rest, each assigned by its vertical centre.
func segments(spans, rest []Block) [][]Block {
	spans = topDown(spans)
	segs := make([][]Block, 2*len(spans)+1)
	for i, s := range spans {
		segs[2*i+1] = []Block{s}
	}
	for _, b := range rest {
		c := (b.BBox.Y0 + b.BBox.Y1) / 2
		i := 0
		for i < len(spans) && c > (spans[i].BBox.Y0+spans[i].BBox.Y1)/2 {
			i++
		}
		segs[2*i] = append(segs[2*i], b)
	}
	return slices.DeleteFunc(segs, func(s []Block) bool { return len(s) == 0 })
}

// prose reports whether bs hold running text rather than table cells or
// labels: at least 3 lines of 20 runes on average.
func prose(bs []Block) bool {
	lines, runes := 0, 0
	for _, b := range bs {
		for _, l := range b.Lines {
			lines++
			runes += utf8.RuneCountInString(l.raw)
		}
	}
	return lines >= 3 && runes >= 20*lines
}

func crosses(b Block, x float64) bool { return b.BBox.X0 < x && b.BBox.X1 > x }

// leastCrossed returns the x in [lo, hi], just beside a block edge, that
// the fewest blocks cross (weighted by their height), and that height;
// NaN if no edge lies in the range. It sweeps the sorted edges once.
func leastCrossed(bs []Block, lo, hi float64) (float64, float64) {
	type edge struct{ x, h float64 }
	starts, ends := make([]edge, len(bs)), make([]edge, len(bs))
	var xs []float64
	for i, b := range bs {
		starts[i], ends[i] = edge{b.BBox.X0, b.BBox.Dy()}, edge{b.BBox.X1, b.BBox.Dy()}
		for _, x := range []float64{b.BBox.X0 - 0.5, b.BBox.X1 + 0.5} {
			if x >= lo && x <= hi {
				xs = append(xs, x)
			}
		}
	}
	byX := func(a, b edge) int { return cmp.Compare(a.x, b.x) }
	slices.SortFunc(starts, byX)
	slices.SortFunc(ends, byX)
	slices.Sort(xs)
	best, bestH := math.NaN(), math.Inf(1)
	h, i, j := 0.0, 0, 0
	for _, x := range xs { // crossing x: X0 < x < X1
		for ; i < len(starts) && starts[i].x < x; i++ {
			h += starts[i].h
		}
		for ; j < len(ends) && ends[j].x <= x; j++ {
			h -= ends[j].h
		}
		if h < bestH-1e-9 {
			best, bestH = x, h
		}
	}
	return best, bestH
}

func totalHeight(bs []Block) float64 {
	h := 0.0
	for _, b := range bs {
		h += b.BBox.Dy()
	}
	return h
}

func extent(bs []Block) Rect {
	var r Rect
	for _, b := range bs {
		r = r.Union(b.BBox)
	}
	return r
}

func keep(bs []Block, f func(Block) bool) []Block {
	var out []Block
	for _, b := range bs {
		if f(b) {
			out = append(out, b)
		}
	}
	return out
}

// topDown sorts blocks by their top edge, then reads rows left to right:
// a row is a run of blocks that each overlap the row's vertical extent
// by half their height (or half the row's first block's), as the cells
// of a table row do.
func topDown(bs []Block) []Block {
	out := slices.Clone(bs)
	slices.SortStableFunc(out, func(a, b Block) int { return cmp.Compare(a.BBox.Y0, b.BBox.Y0) })
	for i := 0; i < len(out); {
		row := out[i].BBox
		j := i + 1
		for ; j < len(out); j++ {
			b := out[j].BBox
			if row.overlapY(b) < 0.5*math.Min(b.Dy(), out[i].BBox.Dy()) || row.overlapY(b) == 0 {
				break
			}
			row = row.Union(b)
		}
		slices.SortStableFunc(out[i:j], func(a, b Block) int { return cmp.Compare(a.BBox.X0, b.BBox.X0) })
		i = j
	}
	return out
}
