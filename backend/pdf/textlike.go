package pdf

import "image"

// Detecting text in a picture. An image region is worth OCR only if its
// pixels hold text. textLike renders nothing itself: it looks at a gray
// rendering (about 150 DPI) of the region, with the text layer already
// painted out, and counts glyph-like connected components of dark pixels
// that line up with a neighbour the way letters of a word do. Photos,
// drawings and QR codes have dark blobs too, but few of them are
// letter-sized, letter-shaped and in rows.

// Thresholds of holdsText, measured on the figures of the shared PDFs:
// charts, diagrams and a table picture score 60 to 2,500 glyphs with 7 to
// 18% of ink; a photo, a QR code and a hatched drawing have 37 to 62% of
// ink (the drawing still scores 43); a logo with one word scores 6 to 8.
const (
	minGlyphs = 20
	maxInk    = 0.4
)

// holdsText reports whether img, a rendering at dpi, shows text: enough
// letter-like shapes in rows, on a mostly light ground.
func holdsText(img *image.Gray, dpi float64) bool {
	t := otsu(img)
	if ink(img, t) > maxInk {
		return false
	}
	return glyphs(img, dpi, t) >= minGlyphs
}

// glyphs returns the number of letter-like components that have a
// letter-like neighbour in the same row (or column, for text turned 90°),
// in img rendered at dpi, ink being the pixels darker than t.
func glyphs(img *image.Gray, dpi float64, t uint8) int {
	comps := components(img, t)
	px := dpi / 72 // pixels per point
	var cands []box
	for _, c := range comps {
		h, w := c.y1-c.y0+1, c.x1-c.x0+1
		if h < w { // glyphs of text turned 90° are wider than high
			h, w = w, h
		}
		fill := float64(c.n) / float64(w*h)
		if float64(h) >= 2*px && float64(h) <= 30*px && float64(w) <= 30*px &&
			float64(w) <= 4*float64(h) && fill >= 0.12 && fill <= 0.9 {
			cands = append(cands, c)
		}
	}
	n := linked(cands)
	for i, c := range cands { // text turned 90°: swap the axes
		cands[i] = box{c.y0, c.x0, c.y1, c.x1, c.n}
	}
	return n + linked(cands)
}

// box is a connected component: its bounding box and pixel count.
type box struct{ x0, y0, x1, y1, n int }

// linked counts the boxes that have a neighbour in the same text row: to
// their right within about a letter height, overlapping vertically by
// half the smaller height, of comparable height.
func linked(bs []box) int {
	grid := map[[2]int][]int{} // bucket by (x, y) cells for a near-linear scan
	const cell = 32
	for i, b := range bs {
		k := [2]int{b.x0 / cell, b.y0 / cell}
		grid[k] = append(grid[k], i)
	}
	has := make([]bool, len(bs))
	for i, a := range bs {
		ha := a.y1 - a.y0 + 1
		for dx := 0; dx <= 1+2*ha/cell; dx++ {
			for dy := -1 - ha/cell; dy <= 1+ha/cell; dy++ {
				for _, j := range grid[[2]int{a.x0/cell + dx, a.y0/cell + dy}] {
					if j != i && neighbours(a, bs[j]) {
						has[i], has[j] = true, true
					}
				}
			}
		}
	}
	n := 0
	for _, h := range has {
		if h {
			n++
		}
	}
	return n
}

func neighbours(a, b box) bool {
	ha, hb := a.y1-a.y0+1, b.y1-b.y0+1
	lo, hi := min(ha, hb), max(ha, hb)
	if b.x0 <= a.x0 || hi > 3*lo {
		return false
	}
	gap := b.x0 - a.x1
	tol := max(1, hi/6)
	aligned := abs(a.y1-b.y1) <= tol || abs(a.y0-b.y0) <= tol // baseline or x-height
	return gap >= -1 && gap <= hi && aligned
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// otsu returns the gray level that best separates ink from background,
// kept within [60, 200] so a blank or uniform image stays blank.
func otsu(img *image.Gray) uint8 {
	var hist [256]int
	for _, v := range img.Pix {
		hist[v]++
	}
	total := len(img.Pix)
	sum := 0
	for i, h := range hist {
		sum += i * h
	}
	var sumB, wB int
	best, t := -1.0, 128
	for i := 0; i < 256; i++ {
		wB += hist[i]
		if wB == 0 {
			continue
		}
		wF := total - wB
		if wF == 0 {
			break
		}
		sumB += i * hist[i]
		mB, mF := float64(sumB)/float64(wB), float64(sum-sumB)/float64(wF)
		if v := float64(wB) * float64(wF) * (mB - mF) * (mB - mF); v > best {
			best, t = v, i
		}
	}
	return uint8(min(200, max(60, t)))
}

// ink returns the share of pixels darker than t.
func ink(img *image.Gray, t uint8) float64 {
	if len(img.Pix) == 0 {
		return 0
	}
	dark := 0
	for _, v := range img.Pix {
		if v <= t {
			dark++
		}
	}
	return float64(dark) / float64(len(img.Pix))
}

// components labels the 8-connected regions of pixels darker than t.
func components(img *image.Gray, t uint8) []box {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	seen := make([]bool, w*h)
	var out []box
	var stack []int
	for start := range seen {
		if seen[start] || img.Pix[start/w*img.Stride+start%w] > t {
			continue
		}
		b := box{x0: w, y0: h, x1: -1, y1: -1}
		seen[start] = true
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := p%w, p/w
			b.x0, b.y0, b.x1, b.y1, b.n = min(b.x0, x), min(b.y0, y), max(b.x1, x), max(b.y1, y), b.n+1
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					q := ny*w + nx
					if !seen[q] && img.Pix[ny*img.Stride+nx] <= t {
						seen[q] = true
						stack = append(stack, q)
					}
				}
			}
		}
		out = append(out, b)
	}
	return out
}
