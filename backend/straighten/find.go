package straighten

import (
	"image"
	"math"
)

// small is a grey image at most analysisSide pixels a side: what the page
// and its skew are looked for on.
type small struct {
	pix  []uint8
	w, h int
	f    float64 // the original's pixels per small pixel
}

// analysisSide bounds the image the page's outline and skew are found
// on: at 800 pixels an A4 page's body text is 4 to 5 pixels high, enough
// for its lines to show in a projection profile.
const analysisSide = 800

// shrink box-averages img down to at most analysisSide a side.
func shrink(img *image.Gray) small {
	b := img.Bounds()
	k := max(1, int(math.Ceil(float64(max(b.Dx(), b.Dy()))/analysisSide)))
	w, h := b.Dx()/k, b.Dy()/k
	s := small{pix: make([]uint8, w*h), w: w, h: h, f: float64(k)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			sum := 0
			for dy := 0; dy < k; dy++ {
				row := img.Pix[img.PixOffset(b.Min.X+x*k, b.Min.Y+y*k+dy):]
				for dx := 0; dx < k; dx++ {
					sum += int(row[dx])
				}
			}
			s.pix[y*w+x] = uint8(sum / (k * k))
		}
	}
	return s
}

// otsu returns the level that best separates pix in two classes.
func otsu(pix []uint8) uint8 {
	var hist [256]int
	for _, p := range pix {
		hist[p]++
	}
	var sum float64
	for i, n := range hist {
		sum += float64(i * n)
	}
	var sumB, best float64
	wB, level := 0, uint8(0)
	for t := 0; t < 256; t++ {
		wB += hist[t]
		wF := len(pix) - wB
		if wB == 0 {
			continue
		}
		if wF == 0 {
			break
		}
		sumB += float64(t * hist[t])
		mB, mF := sumB/float64(wB), (sum-sumB)/float64(wF)
		if v := float64(wB) * float64(wF) * (mB - mF) * (mB - mF); v > best {
			best, level = v, uint8(t)
		}
	}
	return level
}

// findPage looks for a page lying on a darker background: the largest
// bright region, away from most of the image's border, whose four
// extreme corners make a convex quadrilateral it fills. It returns the
// quadrilateral in s's pixels, or false.
func findPage(s small) (Quad, bool) {
	t := otsu(s.pix)
	bright := func(i int) bool { return s.pix[i] > t }
	// The border must be mostly background: a scan's paper runs to the
	// edges, a photo's table shows around the page.
	dark, border := 0, 0
	for x := 0; x < s.w; x++ {
		for _, y := range []int{0, s.h - 1} {
			border++
			if !bright(y*s.w + x) {
				dark++
			}
		}
	}
	for y := 0; y < s.h; y++ {
		for _, x := range []int{0, s.w - 1} {
			border++
			if !bright(y*s.w + x) {
				dark++
			}
		}
	}
	if dark*2 < border {
		return Quad{}, false
	}
	// The mean levels of page and background must differ clearly.
	var sumB, sumD, nB, nD float64
	for _, p := range s.pix {
		if p > t {
			sumB, nB = sumB+float64(p), nB+1
		} else {
			sumD, nD = sumD+float64(p), nD+1
		}
	}
	if nB == 0 || nD == 0 || sumB/nB-sumD/nD < 40 {
		return Quad{}, false
	}
	label, size := largestRegion(s, bright)
	if size < s.w*s.h/5 {
		return Quad{}, false
	}
	// Extreme corners: the region's points minimising or maximising
	// x+y and x-y.
	best := [4]float64{math.Inf(1), math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	var q Quad
	for y := 0; y < s.h; y++ {
		for x := 0; x < s.w; x++ {
			if !label[y*s.w+x] {
				continue
			}
			fx, fy := float64(x)+0.5, float64(y)+0.5
			for c, v := range [4]float64{fx + fy, fx - fy, fx + fy, fy - fx} {
				if (c == 0 && v < best[0]) || (c > 0 && v > best[c]) {
					best[c] = v
					q[c] = [2]float64{fx, fy}
				}
			}
		}
	}
	if !q.convex() || q.area() <= 0 {
		return Quad{}, false
	}
	fill := float64(size) / q.area()
	if fill < 0.7 || fill > 1.1 {
		return Quad{}, false
	}
	return q, true
}

// largestRegion returns the largest 4-connected region of pixels where
// in is true, and its size.
func largestRegion(s small, in func(int) bool) ([]bool, int) {
	seen := make([]bool, len(s.pix))
	var best []int
	var stack []int
	for start := range s.pix {
		if seen[start] || !in(start) {
			continue
		}
		var region []int
		stack = append(stack[:0], start)
		seen[start] = true
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			region = append(region, i)
			x, y := i%s.w, i/s.w
			for _, n := range [4][3]int{{x - 1, y, i - 1}, {x + 1, y, i + 1}, {x, y - 1, i - s.w}, {x, y + 1, i + s.w}} {
				if n[0] >= 0 && n[0] < s.w && n[1] >= 0 && n[1] < s.h && !seen[n[2]] && in(n[2]) {
					seen[n[2]] = true
					stack = append(stack, n[2])
				}
			}
		}
		if len(region) > len(best) {
			best = region
		}
	}
	label := make([]bool, len(s.pix))
	for _, i := range best {
		label[i] = true
	}
	return label, len(best)
}

// inkPoints returns the pixels of s clearly darker than their
// neighbourhood (text, whatever the light), at most maxInk of them.
func inkPoints(s small) [][2]float64 {
	const maxInk = 60_000
	r := max(4, min(s.w, s.h)/40)
	// Integral image for the neighbourhood's mean.
	in := make([]int64, (s.w+1)*(s.h+1))
	for y := 0; y < s.h; y++ {
		var row int64
		for x := 0; x < s.w; x++ {
			row += int64(s.pix[y*s.w+x])
			in[(y+1)*(s.w+1)+x+1] = in[y*(s.w+1)+x+1] + row
		}
	}
	var pts [][2]float64
	for y := 0; y < s.h; y++ {
		y0, y1 := max(0, y-r), min(s.h, y+r+1)
		for x := 0; x < s.w; x++ {
			x0, x1 := max(0, x-r), min(s.w, x+r+1)
			sum := in[y1*(s.w+1)+x1] - in[y0*(s.w+1)+x1] - in[y1*(s.w+1)+x0] + in[y0*(s.w+1)+x0]
			mean := float64(sum) / float64((x1-x0)*(y1-y0))
			if p := float64(s.pix[y*s.w+x]); p < 0.8*mean && mean-p > 12 {
				pts = append(pts, [2]float64{float64(x), float64(y)})
			}
		}
	}
	if len(pts) > maxInk {
		step := len(pts)/maxInk + 1
		kept := pts[:0]
		for i := 0; i < len(pts); i += step {
			kept = append(kept, pts[i])
		}
		pts = kept
	}
	return pts
}

// profile scores how sharply the points fall into rows when turned by a
// radians: the sum of the squared counts of one-pixel rows, over the
// points' count. Lines of text score highest when they are level.
func profile(pts [][2]float64, a float64, bins []int32) float64 {
	c, s := math.Cos(a), math.Sin(a)
	clear(bins)
	off := len(bins) / 2
	for _, p := range pts {
		y := int(-p[0]*s+p[1]*c) + off
		if y >= 0 && y < len(bins) {
			bins[y]++
		}
	}
	var sum float64
	for _, n := range bins {
		sum += float64(n) * float64(n)
	}
	return sum / float64(max(1, len(pts)))
}

// skew returns the angle (radians) that levels the points' text lines,
// searched within ±maxSkew, and its score; a coarse search every half
// degree, then every twentieth of a degree about the best.
func skew(pts [][2]float64, side int) (float64, float64) {
	bins := make([]int32, 4*side+4)
	best, score := 0.0, profile(pts, 0, bins)
	try := func(a float64) {
		if v := profile(pts, a, bins); v > score {
			best, score = a, v
		}
	}
	for d := -maxSkew; d <= maxSkew; d += 0.5 {
		try(d * math.Pi / 180)
	}
	c := best
	for d := -0.5; d <= 0.5; d += 0.05 {
		try(c + d*math.Pi/180)
	}
	return best, score
}
