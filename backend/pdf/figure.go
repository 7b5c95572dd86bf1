package pdf

import (
	"bytes"
	"image/png"
	"math"
	"slices"

	"vika/backend/corpus"
)

// Figures: a caption ("Figure 2.", "Fig. 3 —", "Figure 1 –") joined to
// the graphics next to it: raster images and clusters of vector drawing
// (path boxes, connecting lines included, outside the tables found), grown from those nearest the caption
// through those that touch; the region also takes the text labels inside
// it. A large picture without caption (a slide's diagram or photo) is a
// figure too.

// Geometry of figure detection, points.
const (
	figureReach = 40 // the nearest graphic lies within this of the caption
	figureJoin  = 12 // graphics this close belong to one figure
	// minFigureShare: an uncaptioned picture must cover this share of
	// the page to count as a figure (logos and bullets do not).
	minFigureShare = 0.05
	maxGraphics    = 4000 // graphics considered on one page
	// maxFigureShare: an uncaptioned picture covering more of the page
	// is a scan or a background.
	maxFigureShare = 0.6
)

func figures(p *Page, caps []caption, paths []pathBox, taken []region) []region {
	var gfx []Rect
	for _, im := range p.Images {
		if !sliver(im.BBox) {
			gfx = append(gfx, im.BBox)
		}
	}
	for _, pb := range paths {
		r := pb.Box
		if r.Dx() < 0.5 && r.Dy() < 0.5 || r.Dx() > 0.95*p.Width && r.Dy() > 0.95*p.Height {
			continue // dots and page backgrounds
		}
		if slices.ContainsFunc(taken, func(t region) bool { return centredIn(r, t.box) }) {
			continue // a table's drawing
		}
		// A stroked line has no width or height: give it some, or
		// unions drop it.
		r = Rect{r.X0 - 0.25, r.Y0 - 0.25, r.X1 + 0.25, r.Y1 + 0.25}
		gfx = append(gfx, r)
		if len(gfx) == maxGraphics {
			break
		}
	}
	var out []region
	used := make([]bool, len(gfx))
	var capBoxes []Rect
	for _, c := range caps {
		capBoxes = append(capBoxes, c.block)
	}
	for _, c := range caps {
		if c.kind != corpus.ChunkFigure {
			continue
		}
		box := cluster(gfx, used, c, true)
		if box.Empty() {
			box = cluster(gfx, used, c, false)
		}
		if box.Empty() {
			continue
		}
		box = withLabels(p, box, capBoxes)
		out = append(out, region{kind: corpus.ChunkFigure, box: box, caption: c.text, text: linesIn(p, box, capBoxes...)})
	}
	page := p.Width * p.Height
	for _, im := range p.Images {
		if p.Class.Type == corpus.PageScanned || !im.Large || im.covered() || im.BBox.Area() < minFigureShare*page || im.BBox.Area() > maxFigureShare*page {
			continue // a scan, or a background, is not a figure
		}
		if slices.ContainsFunc(out, func(r region) bool { _, ok := r.box.Intersect(im.BBox); return ok }) {
			continue
		}
		out = append(out, region{kind: corpus.ChunkFigure, box: im.BBox, text: linesIn(p, im.BBox, capBoxes...)})
	}
	return out
}

// withLabels grows a figure's box over the text lines that touch it (a
// label set beside a box or an axis) as long as they stay within its
// width: running text beside a narrow figure does not.
func withLabels(p *Page, box Rect, captions []Rect) Rect {
	near := Rect{box.X0 - labelReach, box.Y0 - labelReach, box.X1 + labelReach, box.Y1 + labelReach}
	out := box
	for _, b := range p.Blocks {
		for _, l := range b.Lines {
			if _, ok := l.BBox.Intersect(near); !ok || centredIn(l.BBox, box) {
				continue
			}
			if slices.ContainsFunc(captions, func(c Rect) bool { return centredIn(l.BBox, c) }) {
				continue
			}
			if l.BBox.X0 < box.X0-labelReach || l.BBox.X1 > box.X1+labelReach {
				continue
			}
			out = out.Union(l.BBox)
		}
	}
	return out
}

// labelReach: text lines this close to a figure's drawing are its labels.
const labelReach = 8

// cluster grows a figure from the unused graphics nearest the caption on
// one side through the graphics that touch it, and marks them used.
func cluster(gfx []Rect, used []bool, c caption, above bool) Rect {
	var box Rect
	var members []int
	member := make([]bool, len(gfx))
	for i, g := range gfx {
		if used[i] || g.overlapX(c.block) <= 0 {
			continue
		}
		d := g.Y0 - c.block.Y1
		if above {
			d = c.block.Y0 - g.Y1
		}
		if d >= -2 && d <= figureReach {
			box = box.Union(g)
			members = append(members, i)
			member[i] = true
		}
	}
	if box.Empty() {
		return Rect{}
	}
	for grew := true; grew; {
		grew = false
		near := Rect{box.X0 - figureJoin, box.Y0 - figureJoin, box.X1 + figureJoin, box.Y1 + figureJoin}
		for i, g := range gfx {
			if used[i] || member[i] {
				continue
			}
			if _, ok := g.Intersect(near); !ok {
				continue
			}
			if (above && g.Y0 >= c.block.Y0) || (!above && g.Y1 <= c.block.Y1) {
				continue // never across the caption
			}
			box = box.Union(g)
			members = append(members, i)
			member[i] = true
			grew = true
		}
	}
	if box.Dx() < 20 || box.Dy() < 20 {
		return Rect{}
	}
	for _, i := range members {
		used[i] = true
	}
	return box
}

// Figure crops: at most cropDPI, and at most maxCropPixels pixels (a
// full-page figure comes out at about 1400 x 1800).
const (
	cropDPI       = 150
	maxCropPixels = 2_500_000
)

// MaxPageCropBytes is the most bytes of figure crops one page brings:
// dozens of figures drawing one incompressible image would otherwise send
// some 2.5 MB each. The figures past it keep their text, not their crop.
const MaxPageCropBytes = 16 << 20

// crop renders r of page n as a gray PNG of bounded size.
func (d *Document) crop(n int, r Rect) ([]byte, error) { return d.Crop(n, r, cropDPI) }

// Crop renders r of page n as a gray PNG at dpi, or at the lower
// resolution that keeps it within maxCropPixels pixels: figure crops at
// ingest, and formula crops a vision model is asked to transcribe.
func (d *Document) Crop(n int, r Rect, dpi float64) ([]byte, error) {
	if px := r.Area() * (dpi / 72) * (dpi / 72); px > maxCropPixels {
		dpi *= math.Sqrt(maxCropPixels / px)
	}
	img, err := d.RenderRegion(n, r, dpi)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
