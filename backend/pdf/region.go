package pdf

import (
	"math"
	"slices"
	"strings"

	"vika/backend/corpus"
)

// Region detection (region.go, table.go, figure.go, uncaptioned.go,
// formula.go) finds a page's tables, figures and display formulas from
// what MuPDF already gives: text fragments with their boxes and fonts, image blocks, and the
// boxes of the page's vector paths (a device of our own, mupdf.c). It is
// bounded like the rest of the package: one more run of a page that has a
// caption, under the same deadline, at most maxPaths path boxes, at most
// maxRegions regions, and crops rendered within maxCropPixels.

// maxRegions bounds the regions kept on one page.
const maxRegions = 64

// caption is a caption found on the page: its first line and the text of
// its whole paragraph.
type caption struct {
	kind  corpus.ChunkKind
	line  Rect // the first line's box
	block Rect // the caption paragraph's box
	text  string
}

// maxCaption bounds the caption text kept, in runes.
const maxCaption = 400

// captions returns the captions of p: lines that open a block and read
// like "Table 3:" or "Figure 2.", with the rest of their block.
func captions(p *Page) []caption {
	var out []caption
	for _, b := range p.Blocks {
		for i, l := range b.Lines {
			k := corpus.CaptionKind(l.Text)
			if k == "" || l.Rotated {
				continue
			}
			if i > 0 && !closesSentence(strings.TrimSpace(b.Lines[i-1].Text)) {
				continue // "... shown in\nTable 2: ..." is running text
			}
			c := caption{kind: k, line: l.BBox}
			var parts []string
			prev := l
			for j, m := range b.Lines[i:] {
				if j > 0 && !continuesCaption(prev, m) {
					break // MuPDF may put a table's rows in its caption's block
				}
				parts = append(parts, m.Text)
				c.block = c.block.Union(m.BBox)
				prev = m
			}
			c.text = truncateRunes(strings.Join(parts, " "), maxCaption)
			out = append(out, c)
		}
	}
	return out
}

// continuesCaption reports whether line m continues the caption whose
// previous line is prev: close below it, starting at its left edge or
// centred under it, and not a caption itself.
func continuesCaption(prev, m Line) bool {
	size := max(prev.Font.Size, 1)
	if gap := m.BBox.Y0 - prev.BBox.Y1; gap > 0.5*size || gap < -0.5*size || corpus.CaptionKind(m.Text) != "" {
		return false // too far below, or above (a figure's label in the caption's block)
	}
	left := math.Abs(m.BBox.X0-prev.BBox.X0) <= 2*size
	centred := math.Abs((m.BBox.X0+m.BBox.X1)/2-(prev.BBox.X0+prev.BBox.X1)/2) <= 2*size
	return left || centred
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// Rules and drawings among the path boxes.
const (
	ruleThick = 1.5 // a rule is at most this thick, points
	ruleLong  = 15  // and at least this long
)

func isHRule(r Rect) bool { return r.Dy() <= ruleThick && r.Dx() >= ruleLong }
func isVRule(r Rect) bool { return r.Dx() <= ruleThick && r.Dy() >= 5 }

// region is a detected region before it becomes a corpus.Region.
type region struct {
	kind    corpus.ChunkKind
	box     Rect
	caption string
	text    string
}

// DetectRegions finds p's tables, figures and display formulas and sets
// p.Regions (figures with a PNG crop). A page with a table or figure
// caption runs once more through the path device, under the document's
// deadline; an error concerns this
// page's regions only, and p keeps the regions found without paths.
func (d *Document) DetectRegions(p *Page) error {
	if err := d.checkPage(p.Number); err != nil {
		return err
	}
	caps := captions(p)
	// Only captioned tables and figures use the vector paths: a page
	// without such a caption (most pages) is not run a second time.
	var paths []pathBox
	var err error
	if len(caps) > 0 {
		if paths, _, err = pathBoxes(d.fz, p.Number-1, d.deadline); err != nil {
			err = d.pageError(p.Number, err)
			paths = nil
		}
	}
	var capBoxes []Rect
	for _, c := range caps {
		capBoxes = append(capBoxes, c.block)
	}
	var found []region
	found = append(found, tables(p, caps, paths)...)
	found = append(found, bareTables(p, paths, found, capBoxes)...)
	found = append(found, figures(p, caps, paths, found)...)
	found = append(found, bareDiagrams(p, paths, found, capBoxes)...)
	found = append(found, formulas(p, found)...)
	if len(found) > maxRegions {
		found = found[:maxRegions]
	}
	slices.SortStableFunc(found, func(a, b region) int {
		switch {
		case a.box.Y0 < b.box.Y0:
			return -1
		case a.box.Y0 > b.box.Y0:
			return 1
		}
		return 0
	})
	p.Regions = p.Regions[:0]
	crops := 0 // bytes of this page's crops
	for _, r := range found {
		cr := corpus.Region{Kind: r.kind, Page: p.Number, BBox: [4]float64{r.box.X0, r.box.Y0, r.box.X1, r.box.Y1}, Caption: r.caption, Text: r.text}
		if r.kind == corpus.ChunkFigure && crops < MaxPageCropBytes && !d.noCrops {
			if png, cerr := d.crop(p.Number, r.box); cerr == nil && crops+len(png) <= MaxPageCropBytes {
				cr.Image = png
				crops += len(png)
			} else if cerr == nil {
				crops = MaxPageCropBytes // the page's crops are full: the next figures keep only their text
			} else if err == nil {
				err = cerr
			}
		}
		p.Regions = append(p.Regions, cr)
	}
	return err
}

// linesIn returns the text of p's lines centred inside r, in reading
// order, leaving out those inside any of skip.
func linesIn(p *Page, r Rect, skip ...Rect) string {
	var parts []string
	for _, b := range p.Blocks {
		for _, l := range b.Lines {
			if !centredIn(l.BBox, r) {
				continue
			}
			if slices.ContainsFunc(skip, func(s Rect) bool { return centredIn(l.BBox, s) }) {
				continue
			}
			parts = append(parts, l.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func centredIn(a, r Rect) bool {
	cx, cy := (a.X0+a.X1)/2, (a.Y0+a.Y1)/2
	return cx >= r.X0 && cx <= r.X1 && cy >= r.Y0 && cy <= r.Y1
}
