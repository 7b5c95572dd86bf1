package pdf

import (
	"math"
	"slices"
	"strings"

	"vika/backend/corpus"
)

// Uncaptioned tables and diagrams, on the pages whose vector paths are
// read (those with a table or figure caption): a chain of horizontal
// rules framing rows of short cells is a table, and a cluster of many
// vector paths with short labels is a figure, though no caption names
// them. Both are held to stricter shapes than captioned regions, since
// nothing but their shape says what they are: what reads like prose (a
// two-column page between a header and a footer rule, a box around a
// paragraph) is neither.

// Shapes of uncaptioned regions.
const (
	minBareRules     = 3   // rules of an uncaptioned table (booktabs: top, mid, bottom)
	minBareRows      = 3   // rows of two cells or more inside them
	maxCellWords     = 6   // mean words a cell of an uncaptioned table
	maxCellShare     = 0.4 // a cell spans at most this share of the table's width (on average)
	minDiagramPaths  = 12  // paths of an uncaptioned diagram
	minDiagramShapes = 4   // of which neither rules nor frames (curves, arrows, boxes)
	maxLabelWords    = 8   // mean words a line of text inside a diagram
	maxLineWords     = 14  // and at most this many on any line
)

// bareTables returns the tables without caption framed by chains of rules
// outside taken.
func bareTables(p *Page, paths []pathBox, taken []region, captions []Rect) []region {
	var hrules, shapes []Rect
	for _, pb := range paths {
		r := pb.Box
		switch {
		case isHRule(r) && r.Dx() >= 0.15*p.Width && !insideAny(r, taken):
			hrules = append(hrules, Rect{r.X0, r.Y0 - 0.25, r.X1, r.Y1 + 0.25})
		case !isHRule(r) && !isVRule(r) && r.Dx() > 2 && r.Dy() > 2:
			shapes = append(shapes, r)
		}
	}
	slices.SortFunc(hrules, func(a, b Rect) int { return cmpFloat(a.Y0, b.Y0) })
	var out []region
	used := make([]bool, len(hrules))
	for i := range hrules {
		if used[i] {
			continue
		}
		chain := []Rect{hrules[i]}
		box := hrules[i]
		for j := i + 1; j < len(hrules); j++ {
			r := hrules[j]
			last := chain[len(chain)-1]
			if r.Y0-last.Y1 > ruleChainGap {
				break
			}
			// Rules of one table share their extent (a partial midrule
			// lies within it).
			if used[j] || r.overlapX(box) < 0.9*r.Dx() || r.Y0-last.Y1 < 4 {
				continue
			}
			between := Rect{box.X0, last.Y1, box.X1, r.Y0}
			if slices.ContainsFunc(captions, func(c Rect) bool { _, ok := c.Intersect(between); return ok }) ||
				slices.ContainsFunc(shapes, func(s Rect) bool { return centredIn(s, between) }) {
				break // a caption, or a drawing (a table's paths are rules)
			}
			chain = append(chain, r)
			box = box.Union(r)
			used[j] = true
		}
		if len(chain) < minBareRules || !onPage(p, box) || overlapsAny(box, out) || overlapsAny(box, taken) {
			continue
		}
		rows := rowsIn(p.frags, box, captions)
		if !tableLike(rows, box) {
			continue
		}
		used[i] = true
		out = append(out, region{kind: corpus.ChunkTable, box: box, text: markdown(rows, chain, box)})
	}
	return out
}

// tableLike reports whether rows read as a table's (gridShaped) and not
// as a plot whose points are glyphs ("G", "+") between its grid lines,
// which repeats one text where a table's cells differ.
func tableLike(rows []row, box Rect) bool {
	if !gridShaped(rows, box) {
		return false
	}
	cells := 0
	distinct := map[string]bool{}
	for _, r := range rows {
		for _, c := range r.cells {
			cells++
			distinct[c.text] = true
		}
	}
	return 2*len(distinct) >= cells
}

// gridShaped reports whether rows have a grid's shape: enough rows of
// several cells, short cells, each far narrower than box.
func gridShaped(rows []row, box Rect) bool {
	if gridRows(rows) < minBareRows || gridRows(rows)*2 < len(rows) {
		return false
	}
	var cells, words int
	var width float64
	for _, r := range rows {
		for _, c := range r.cells {
			cells++
			words += len(strings.Fields(c.text))
			width += c.box.Dx()
		}
	}
	return cells > 0 && float64(words)/float64(cells) <= maxCellWords && width/float64(cells) <= maxCellShare*box.Dx()
}

// bareDiagrams returns the figures without caption drawn as clusters of
// vector paths outside taken: many paths, some of them shapes (neither a
// rule nor a frame around the cluster), and short labels.
func bareDiagrams(p *Page, paths []pathBox, taken []region, captions []Rect) []region {
	page := p.Width * p.Height
	var gfx []Rect
	for _, pb := range paths {
		r := pb.Box
		if r.Dx() < 0.5 && r.Dy() < 0.5 || r.Area() > maxFigureShare*page || insideAny(r, taken) {
			continue
		}
		gfx = append(gfx, Rect{r.X0 - 0.25, r.Y0 - 0.25, r.X1 + 0.25, r.Y1 + 0.25})
		if len(gfx) == maxGraphics {
			break
		}
	}
	var out []region
	for _, members := range clusters(gfx) {
		var box Rect
		shapes := 0
		for _, i := range members {
			box = box.Union(gfx[i])
		}
		for _, i := range members {
			g := gfx[i]
			if !isHRule(g) && !isVRule(g) && g.Area() < 0.5*box.Area() {
				shapes++
			}
		}
		if !onPage(p, box) || len(members) < minDiagramPaths || shapes < minDiagramShapes ||
			box.Area() < minFigureShare*page || box.Area() > maxFigureShare*page || overlapsAny(box, taken) || overlapsAny(box, out) {
			continue
		}
		box = withLabels(p, box, captions)
		text := linesIn(p, box, captions...)
		if !labelLike(text) {
			continue
		}
		out = append(out, region{kind: corpus.ChunkFigure, box: box, text: text})
	}
	return out
}

// labelLike reports whether the text inside a drawing reads as its labels,
// not as a paragraph: short lines, none of them a sentence's length.
func labelLike(text string) bool {
	if strings.TrimSpace(text) == "" {
		return true
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	words := 0
	for _, l := range lines {
		n := len(strings.Fields(l))
		if n > maxLineWords {
			return false
		}
		words += n
	}
	return float64(words)/float64(len(lines)) <= maxLabelWords
}

// clusters groups the boxes that touch (within figureJoin) and returns
// the members of each group.
func clusters(gfx []Rect) [][]int {
	parent := make([]int, len(gfx))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	order := make([]int, len(gfx))
	for i := range order {
		order[i] = i
	}
	// Sweep by X0: only boxes whose x ranges come within figureJoin are
	// compared.
	slices.SortFunc(order, func(a, b int) int { return cmpFloat(gfx[a].X0, gfx[b].X0) })
	for k, i := range order {
		a := gfx[i]
		near := Rect{a.X0 - figureJoin, a.Y0 - figureJoin, a.X1 + figureJoin, a.Y1 + figureJoin}
		for _, j := range order[k+1:] {
			b := gfx[j]
			if b.X0 > near.X1 {
				break
			}
			if _, ok := b.Intersect(near); ok {
				parent[find(i)] = find(j)
			}
		}
	}
	groups := map[int][]int{}
	var roots []int
	for i := range gfx {
		r := find(i)
		if groups[r] == nil {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], i)
	}
	out := make([][]int, 0, len(roots))
	for _, r := range roots {
		out = append(out, groups[r])
	}
	return out
}

// onPage reports whether r lies on the page (drawings outside it are
// clipped away: nothing to show).
func onPage(p *Page, r Rect) bool {
	return r.X0 >= -1 && r.Y0 >= -1 && r.X1 <= p.Width+1 && r.Y1 <= p.Height+1
}

func insideAny(r Rect, regions []region) bool {
	return slices.ContainsFunc(regions, func(t region) bool { return centredIn(r, t.box) })
}

func overlapsAny(r Rect, regions []region) bool {
	return slices.ContainsFunc(regions, func(t region) bool {
		in, ok := r.Intersect(t.box)
		return ok && in.Area() > 0.2*math.Min(r.Area(), t.box.Area())
	})
}
