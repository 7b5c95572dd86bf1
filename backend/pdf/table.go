package pdf

import (
	"math"
	"slices"
	"strings"

	"vika/backend/corpus"
)

// Tables on text pages. A table is found from its caption ("Table 3:",
// "Tableau 2 –", "TABLE I"): on the side of the caption where it sits,
// its extent comes from the horizontal rules drawn as vector paths
// (booktabs' top, mid and bottom rules, a ruled grid), or, without
// rules, from the rows of fragments aligned in several cells next to the
// caption. Its cells are MuPDF's fragments, merged where they touch;
// columns are the runs of x that the rows' cells cover, gaps crossed by a
// few spanning header cells still counting as gaps.

// cell is one cell of a row: merged fragments.
type cell struct {
	box  Rect
	text string
}

// row is one row of a table: cells on a common baseline, left to right.
type row struct {
	base  float64
	size  float64 // largest font size of its fragments, points
	box   Rect
	cells []cell
}

// Geometry of table detection, in points or in font sizes.
const (
	captionReach  = 30  // the first rule or row lies within this of the caption
	ruleChainGap  = 120 // consecutive rules of one table are at most this apart
	cellGap       = 0.6 // fragments closer than this many font sizes form one cell
	maxTableRows  = 400 // rows kept of one table
	maxTitleLines = 3   // title lines skipped between a caption and its rows
	minTableShare = 0.4 // rows are looked for in this share of the page width
)

func tables(p *Page, caps []caption, paths []pathBox) []region {
	var hrules []Rect
	for _, pb := range paths {
		if r := pb.Box; isHRule(r) {
			// a stroked rule has no height: give it some, or unions drop it
			hrules = append(hrules, Rect{r.X0, r.Y0 - 0.25, r.X1, r.Y1 + 0.25})
		}
	}
	var blocks []Rect
	for _, c := range caps {
		blocks = append(blocks, c.block)
	}
	var out []region
	for _, c := range caps {
		if c.kind != corpus.ChunkTable {
			continue
		}
		// The table is on the side where it starts nearer the caption
		// (two tables may sit either side of it), and no other caption
		// has claimed it.
		var best region
		bestGap := math.Inf(1)
		for _, above := range []bool{true, false} {
			box, rules := ruledExtent(p, c, above, hrules, blocks)
			title := ""
			if box.Empty() {
				box, title = alignedExtent(p, c, above, blocks)
			}
			if box.Empty() || slices.ContainsFunc(out, func(r region) bool { _, ok := r.box.Intersect(box); return ok }) {
				continue
			}
			rows := rowsIn(p.frags, box, blocks)
			gap := box.Y0 - c.block.Y1
			if above {
				gap = c.block.Y0 - box.Y1
			}
			if gridRows(rows) >= 2 && gap < bestGap {
				bestGap = gap
				best = region{kind: corpus.ChunkTable, box: box, caption: strings.TrimSpace(c.text + " " + title), text: markdown(rows, rules, box)}
			}
		}
		if !math.IsInf(bestGap, 1) {
			out = append(out, best)
		}
	}
	return out
}

// ruledExtent returns the box of the rules that start within
// captionReach of the caption on the given side and follow one another
// (at most ruleChainGap apart, or further when what lies between them
// has a table's shape, overlapping in x, no caption between), and those
// rules; an empty box if fewer than two.
func ruledExtent(p *Page, c caption, above bool, hrules, captions []Rect) (Rect, []Rect) {
	dist := func(r Rect) float64 {
		if above {
			return c.block.Y0 - r.Y1
		}
		return r.Y0 - c.block.Y1
	}
	var side []Rect
	for _, r := range hrules {
		if d := dist(r); d >= -1 && r.overlapX(c.block) >= 0.3*math.Min(r.Dx(), c.block.Dx()) {
			side = append(side, r)
		}
	}
	slices.SortFunc(side, func(a, b Rect) int { return cmpFloat(dist(a), dist(b)) })
	if len(side) < 2 || dist(side[0]) > captionReach {
		return Rect{}, nil
	}
	chain := []Rect{side[0]}
	box := side[0]
	for _, r := range side[1:] {
		last := chain[len(chain)-1]
		if r.overlapX(box) < 0.5*math.Min(r.Dx(), box.Dx()) {
			break
		}
		between := Rect{box.X0, math.Min(last.Y1, r.Y1), box.X1, math.Max(last.Y0, r.Y0)}
		if slices.ContainsFunc(captions, func(cb Rect) bool { _, ok := cb.Intersect(between); return ok && cb != c.block }) {
			break
		}
		// A group of rows of several lines each (a benchmark table's
		// "QA / Single-hop" block), or a table filling the page under
		// its header rule, can be taller than ruleChainGap: the chain
		// crosses it when its rows have a grid's shape, not prose's
		// (gridShaped; the caption says it is a table, so cells may
		// repeat, "Text", "Once").
		if dist(r)-dist(last) > ruleChainGap && !gridShaped(rowsIn(p.frags, between, captions), between) {
			break
		}
		chain = append(chain, r)
		box = box.Union(r)
	}
	if len(chain) < 2 || box.Dy() < 8 {
		return Rect{}, nil
	}
	return box, chain
}

// alignedExtent returns the box of the rows of several cells that follow
// one another from the caption on the given side (rows in the caption's
// horizontal range), or an empty box.
func alignedExtent(p *Page, c caption, above bool, captions []Rect) (Rect, string) {
	// A short caption ("TABLE II") is centred over a wider table: the
	// rows are looked for in at least minTableShare of the page's width
	// around it.
	half := math.Max(c.block.Dx(), minTableShare*p.Width) / 2
	mid := (c.block.X0 + c.block.X1) / 2
	col := Rect{math.Min(c.block.X0, mid-half) - 2, 0, math.Max(c.block.X1, mid+half) + 2, p.Height}
	if above {
		col.Y1 = c.block.Y0
	} else {
		col.Y0 = c.block.Y1
	}
	rows := rowsIn(p.frags, col, captions)
	if above {
		slices.Reverse(rows)
	}
	var box Rect
	edge := c.block.Y0
	if !above {
		edge = c.block.Y1
	}
	n, titles := 0, 0
	title := ""
	for _, r := range rows {
		gap := math.Abs(r.box.Y0 - edge)
		if above {
			gap = math.Abs(edge - r.box.Y1)
		}
		limit := 2.5 * r.size
		if n == 0 {
			limit = captionReach
		}
		if gap > limit {
			break
		}
		if len(r.cells) < 2 {
			// A scan's caption may print its title under the label, as
			// a paragraph of its own ("TABLE II" / "Bias and ..."):
			// a few single-cell lines may sit between caption and rows.
			if n > 0 || above || titles == maxTitleLines {
				break
			}
			titles++
			edge = r.box.Y1
			for _, cl := range r.cells {
				title = strings.TrimSpace(title + " " + cl.text)
			}
			continue
		}
		box = box.Union(r.box)
		edge = r.box.Y0
		if !above {
			edge = r.box.Y1
		}
		n++
	}
	if n < 2 {
		return Rect{}, ""
	}
	return box, title
}

// rowsIn groups the fragments centred in box (outside the captions) into
// rows by baseline and merges touching fragments into cells.
func rowsIn(frags []fragment, box Rect, captions []Rect) []row {
	grown := Rect{box.X0 - 2, box.Y0 - 2, box.X1 + 2, box.Y1 + 2}
	var fs []fragment
	for _, f := range frags {
		if centredIn(f.Box, grown) && !slices.ContainsFunc(captions, func(c Rect) bool { return centredIn(f.Box, c) }) {
			fs = append(fs, f)
		}
	}
	slices.SortStableFunc(fs, func(a, b fragment) int { return cmpFloat(a.Base, b.Base) })
	var rows []row
	for _, f := range fs {
		size := math.Max(fontSize(f), 1)
		if n := len(rows); n > 0 && math.Abs(f.Base-rows[n-1].base) <= 0.5*size {
			rows[n-1].size = math.Max(rows[n-1].size, size)
			rows[n-1].box = rows[n-1].box.Union(f.Box)
			rows[n-1].cells = append(rows[n-1].cells, cell{box: f.Box, text: f.Text})
			continue
		}
		if len(rows) == maxTableRows {
			break
		}
		rows = append(rows, row{base: f.Base, size: size, box: f.Box, cells: []cell{{box: f.Box, text: f.Text}}})
	}
	for i := range rows {
		rows[i].cells = mergeCells(rows[i].cells, rows[i].size)
	}
	return rows
}

// mergeCells sorts a row's fragments left to right and merges those
// closer than cellGap font sizes.
func mergeCells(cs []cell, size float64) []cell {
	slices.SortFunc(cs, func(a, b cell) int { return cmpFloat(a.box.X0, b.box.X0) })
	size = math.Max(size, 1)
	var out []cell
	for _, c := range cs {
		c.text = strings.TrimSpace(c.text)
		if n := len(out); n > 0 && c.box.X0-out[n-1].box.X1 < cellGap*size {
			sep := ""
			if c.box.X0-out[n-1].box.X1 > 0.15*size {
				sep = " "
			}
			out[n-1].text += sep + c.text
			out[n-1].box = out[n-1].box.Union(c.box)
			continue
		}
		out = append(out, c)
	}
	for i := range out {
		out[i].text, _ = cleanLine(out[i].text)
	}
	return out
}

// gridRows counts the rows of several cells.
func gridRows(rows []row) int {
	n := 0
	for _, r := range rows {
		if len(r.cells) >= 2 {
			n++
		}
	}
	return n
}

// columns returns the x ranges of the table's columns: runs of x covered
// by the cells of more than a sixth of the rows (so that a few header
// cells spanning two columns do not join them).
func columns(rows []row, box Rect) [][2]float64 {
	const step = 0.5
	n := int(box.Dx()/step) + 1
	if n <= 0 || n > 1<<16 {
		return [][2]float64{{box.X0, box.X1}}
	}
	count := make([]int, n)
	for _, r := range rows {
		covered := make([]bool, n)
		for _, c := range r.cells {
			a, b := int((c.box.X0-box.X0)/step), int((c.box.X1-box.X0)/step)
			for i := max(a, 0); i <= min(b, n-1); i++ {
				covered[i] = true
			}
		}
		for i, ok := range covered {
			if ok {
				count[i]++
			}
		}
	}
	limit := len(rows) / 6
	var cols [][2]float64
	start := -1
	for i := 0; i <= n; i++ {
		on := i < n && count[i] > limit
		switch {
		case on && start < 0:
			start = i
		case !on && start >= 0:
			cols = append(cols, [2]float64{box.X0 + float64(start)*step, box.X0 + float64(i)*step})
			start = -1
		}
	}
	if len(cols) == 0 { // no x covered by enough rows: one column, never none
		return [][2]float64{{box.X0, box.X1}}
	}
	return cols
}

// grid places every cell of rows in the column it overlaps most.
func grid(rows []row, cols [][2]float64) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, len(cols))
		for _, c := range r.cells {
			best, bestOver := 0, -1.0
			for j, col := range cols {
				over := math.Min(c.box.X1, col[1]) - math.Max(c.box.X0, col[0])
				if over > bestOver {
					best, bestOver = j, over
				}
			}
			if out[i][best] != "" {
				out[i][best] += " "
			}
			out[i][best] += c.text
		}
	}
	return out
}

// headerRows is the number of header rows: the rows above the first rule
// inside the table (booktabs' midrule), at most 3; else 1.
func headerRows(rows []row, rules []Rect, box Rect) int {
	for _, r := range rules {
		if r.Y0 <= box.Y0+1 || r.Y1 >= box.Y1-1 || r.Dx() < 0.8*box.Dx() {
			continue // the top or bottom rule, or a rule under a spanning header
		}
		n := 0
		for _, rw := range rows {
			if rw.base < r.Y0 {
				n++
			}
		}
		if n >= 1 && n <= 3 {
			return n
		}
		break
	}
	return 1
}

// markdown renders rows as a Markdown table, the header rows joined per
// column into one.
func markdown(rows []row, rules []Rect, box Rect) string {
	slices.SortFunc(rules, func(a, b Rect) int { return cmpFloat(a.Y0, b.Y0) })
	cells := grid(rows, columns(rows, box))
	if len(cells) == 0 {
		return ""
	}
	h := min(headerRows(rows, rules, box), len(cells))
	head := make([]string, len(cells[0]))
	for _, r := range cells[:h] {
		for j, c := range r {
			if c != "" {
				head[j] = strings.TrimSpace(head[j] + " " + c)
			}
		}
	}
	var b strings.Builder
	writeRow(&b, head)
	b.WriteString("|" + strings.Repeat(" --- |", len(head)) + "\n")
	for _, r := range cells[h:] {
		writeRow(&b, r)
	}
	return strings.TrimRight(b.String(), "\n")
}

func writeRow(b *strings.Builder, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + strings.ReplaceAll(c, "|", `\|`) + " |")
	}
	b.WriteString("\n")
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
