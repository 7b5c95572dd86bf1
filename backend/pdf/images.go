package pdf

import (
	"image"
	"math"
	"slices"
)

// Image is a region of the page painted by one or more images (touching
// images are merged: a scan may come in strips).
type Image struct {
	BBox Rect
	// Large: both sides at least MinImageSide and an area of at least
	// MinImageArea. Smaller images (rules drawn as 1x1-pixel images,
	// bullets, logos, dotted leaders) never hold text worth OCR.
	Large bool
	// TextChars counts the text-layer characters whose line lies over
	// the region (labels set as text, an OCR layer over a scan).
	TextChars int
	// OCR marks a large region, not already covered by a text layer,
	// whose pixels hold text (see holdsText): it is worth OCR on its own.
	OCR bool
}

// Size of an image region that can hold text worth OCR (points, pt^2).
const (
	MinImageSide = 40
	MinImageArea = 4000
)

// CoveredDensity is the text-layer density (chars/pt^2) over an image
// above which the image counts as a background already transcribed: a
// scan with an OCR layer, a shaded box behind text (0.008 to 0.010 in
// Okasaki's thesis). Figures with typeset labels have far less (0.001 to
// 0.004 in BERT's).
const CoveredDensity = 0.005

// mergeDistance: images closer than this (points) form one region.
const mergeDistance = 1

// maxMerge bounds the images merged on one page (merging is quadratic; a
// page of thousands of tiles is left as it is).
const maxMerge = 500

// MaxPageImages bounds the images of one page that classification
// looks at. A page drawing more (an image flood: hundreds of overlapping
// draws) is never OCRed: rendering it could take minutes and gigabytes,
// and no real scan or figure needs that many. Its text layer is kept.
const MaxPageImages = 300

// maxDetect bounds the regions of one page checked for text (each is
// rendered); regions beyond are not OCRed.
const maxDetect = 16

// sliver reports whether r is a rule or a dot (Okasaki's thesis draws
// rules, boxes and underscores as 1x1-pixel images scaled to 0.4 pt):
// slivers never merge into pictures, or a box of four rules would.
func sliver(r Rect) bool { return r.Dx() < 3 || r.Dy() < 3 || r.Area() < 25 }

// imageRegions merges touching images (except slivers), measures them
// against the page's lines and flags the large ones.
func imageRegions(rs []Rect, lines []Line) []Image {
	if len(rs) > MaxPageImages {
		rs = rs[:MaxPageImages] // the page is not OCRed (classify); bound the work
	}
	var big, out []Rect
	for _, r := range rs {
		if !sliver(r) {
			big = append(big, r)
		} else {
			out = append(out, r)
		}
	}
	if len(big) <= maxMerge {
		big = mergeTouching(big)
	}
	out = append(big, out...)
	imgs := make([]Image, len(out))
	for i, r := range out {
		imgs[i] = Image{BBox: r, Large: r.Dx() >= MinImageSide && r.Dy() >= MinImageSide && r.Area() >= MinImageArea}
		if imgs[i].Large {
			imgs[i].TextChars = charsWithin(lines, r)
		}
	}
	return imgs
}

// coverGrid is the side of the grid unionCover measures on: cells of
// 1/128 of the page's sides bound the error far below ScanCover's margin.
const coverGrid = 128

// unionCover is the share of page covered by the union of rs (overlapping
// images count once), measured on a coverGrid x coverGrid grid of cell
// centres: bounded work (at most MaxPageImages x coverGrid^2 steps)
// whatever the images.
func unionCover(rs []Rect, page Rect) float64 {
	if page.Empty() || len(rs) == 0 {
		return 0
	}
	var grid [coverGrid * coverGrid]bool
	cw, ch := page.Dx()/coverGrid, page.Dy()/coverGrid
	// cell index range whose centres lie in [lo, hi]
	span := func(lo, hi, origin, step float64) (int, int) {
		a := int(math.Ceil((lo-origin)/step - 0.5))
		b := int(math.Floor((hi-origin)/step - 0.5))
		return max(a, 0), min(b, coverGrid-1)
	}
	for _, r := range rs {
		x0, x1 := span(r.X0, r.X1, page.X0, cw)
		y0, y1 := span(r.Y0, r.Y1, page.Y0, ch)
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				grid[y*coverGrid+x] = true
			}
		}
	}
	n := 0
	for _, c := range grid {
		if c {
			n++
		}
	}
	return float64(n) / float64(len(grid))
}

// mergeTouching unions rectangles that overlap or touch, until stable.
func mergeTouching(rs []Rect) []Rect {
	rs = slices.Clone(rs)
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(rs); i++ {
			for j := i + 1; j < len(rs); j++ {
				grown := Rect{rs[i].X0 - mergeDistance, rs[i].Y0 - mergeDistance, rs[i].X1 + mergeDistance, rs[i].Y1 + mergeDistance}
				if _, ok := grown.Intersect(rs[j]); ok {
					rs[i] = rs[i].Union(rs[j])
					rs = slices.Delete(rs, j, j+1)
					merged = true
					j--
				}
			}
		}
	}
	return rs
}

// charsWithin counts the characters of the lines centred inside r.
func charsWithin(lines []Line, r Rect) int {
	n := 0
	for _, l := range lines {
		cx, cy := (l.BBox.X0+l.BBox.X1)/2, (l.BBox.Y0+l.BBox.Y1)/2
		if cx >= r.X0 && cx <= r.X1 && cy >= r.Y0 && cy <= r.Y1 {
			n += countChars(l.Text)
		}
	}
	return n
}

// covered reports whether the text layer already transcribes im.
func (im Image) covered() bool {
	return Density(im.TextChars, im.BBox.Area()) >= CoveredDensity
}

// detectDPI is the resolution at which image regions are checked for
// text: 200 DPI keeps 4 pt labels about 6 pixels high.
const detectDPI = 200

// regionHoldsText renders r of page n, paints the page's text-layer
// lines out (that text needs no OCR) and looks for text in the pixels.
func (d *Document) regionHoldsText(n int, r Rect, lines []Line) (bool, error) {
	img, err := d.RenderRegion(n, r, detectDPI)
	if err != nil {
		return false, err
	}
	s := float64(img.Rect.Dx()) / r.Dx() // actual pixels per point
	for _, l := range lines {
		if _, ok := l.BBox.Intersect(r); !ok {
			continue
		}
		box := image.Rect(int(l.BBox.X0*s), int(l.BBox.Y0*s), int(l.BBox.X1*s)+1, int(l.BBox.Y1*s)+1).Intersect(img.Rect)
		for y := box.Min.Y; y < box.Max.Y; y++ {
			row := img.Pix[img.PixOffset(box.Min.X, y):img.PixOffset(box.Max.X, y)]
			for i := range row {
				row[i] = 255
			}
		}
	}
	return holdsText(img, s*72), nil
}
