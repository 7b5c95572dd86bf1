// Package straighten prepares the picture of a page for OCR the way a
// student's photo needs: it finds the page lying on a darker background
// and unwarps its perspective, levels the text lines (a few degrees of
// skew, or a page lying sideways) and returns the transform from the
// straightened picture back to the original, so that the words OCR
// finds on the one are placed on the other (the viewer shows the
// original).
//
// Everything runs in Go on a copy of the picture shrunk to 800 pixels a
// side (the page's outline by its largest bright region and extreme
// corners, the skew by a projection profile of the ink), then one
// bilinear warp of the full picture; a page that needs nothing comes back
// untouched. It is bounded by the picture's size and checks its context
// while it warps.
package straighten

import (
	"context"
	"image"
	"math"
)

// Result is a straightened page.
type Result struct {
	// Image is the straightened picture: the input itself when nothing
	// was changed.
	Image *image.Gray
	// ToOriginal maps a point of Image, counted from its top-left corner
	// (as OCR's boxes are), to the input picture's pixels (its
	// Bounds().Min included).
	ToOriginal Matrix
	// Page reports that a page's outline was found and unwarped; Quad is
	// that outline in the input's pixels.
	Page bool
	Quad Quad
	// Skew is the angle the text lines were turned by, in degrees
	// (clockwise, quarter turns included).
	Skew float64
	// DPI is the resolution to tell OCR Image has: the input's, times
	// the enlargement; for a page outline unwarped, that of an A4 page as
	// wide as the outline's short side.
	DPI float64
}

// Changed reports whether Image differs from the input.
func (r Result) Changed() bool { return r.Page || r.Skew != 0 }

const (
	// maxSkew bounds the skew searched, in degrees: a page photographed
	// by hand or fed askew into a scanner.
	maxSkew = 15.0
	// MinSkew is the smallest skew corrected, in degrees: Tesseract reads
	// lines a little off level as well (the made French scan, turned by
	// 0.7 degree, reads at 1.2% CER), and turning a bilevel scan makes it
	// grey.
	MinSkew = 1.0
	// targetDPI is the resolution a straightened page is enlarged
	// towards (Tesseract reads body text best from about 300 DPI).
	targetDPI = 300.0
	// minInk is the fewest ink points whose lines are worth levelling.
	minInk = 300
	// sideways: the text lies sideways when the columns' profile beats
	// the rows' by this factor. Measured: pages of text lying sideways
	// 5.4 to 6.8 (photos turned 88 to 95 degrees, a render turned 90 and
	// 92); upright pages at most 1.78 (the 67 pages of the French thesis:
	// its pages of charts with sideways labels 1.71 and 1.78).
	sideways = 3.0
)

// Page straightens img, a page rendered at dpi. It returns img untouched
// (Changed false) when it finds no page outline and no skew worth
// correcting, and an error only when ctx ends. The straightened picture
// is enlarged towards 300 DPI (at most twice, and to at most twice the
// input's pixels): resampling a noisy photo at its own scale softens its
// letters (a thesis page photographed turned 5 degrees read at CER 0.062
// straightened at its scale, 0.013 enlarged 1.5 times; TestPhotoOfThesisPage).
func Page(ctx context.Context, img *image.Gray, dpi float64) (Result, error) {
	none := Result{Image: img, ToOriginal: translate(float64(img.Rect.Min.X), float64(img.Rect.Min.Y)), DPI: dpi}
	b := img.Bounds()
	if b.Dx() < 32 || b.Dy() < 32 {
		return none, nil
	}
	s := shrink(img)
	res := none
	// toSrc maps the unwarped page (in original-scale pixels) to img's.
	toSrc := translate(float64(b.Min.X), float64(b.Min.Y))
	w, h := float64(b.Dx()), float64(b.Dy())
	level := s
	if q, ok := findPage(s); ok {
		w = (dist(q[0], q[1]) + dist(q[3], q[2])) / 2 * s.f
		h = (dist(q[0], q[3]) + dist(q[1], q[2])) / 2 * s.f
		toSrc = toSrc.Mul(scale(s.f, s.f)).Mul(squareTo(q)).Mul(scale(1/w, 1/h))
		sw, sh := int(w/s.f), int(h/s.f)
		small := warp(context.Background(), &image.Gray{Pix: s.pix, Stride: s.w, Rect: image.Rect(0, 0, s.w, s.h)},
			squareTo(q).Mul(scale(1/float64(sw), 1/float64(sh))), sw, sh)
		level = small
		res.Page = true
		for i, c := range q {
			res.Quad[i] = [2]float64{c[0]*s.f + float64(b.Min.X), c[1]*s.f + float64(b.Min.Y)}
		}
	}
	angle := 0.0
	if pts := inkPoints(level); len(pts) >= minInk {
		side := max(level.w, level.h)
		a0, sc0 := skew(pts, side)
		turned := make([][2]float64, len(pts))
		for i, p := range pts {
			turned[i] = [2]float64{p[1], -p[0]}
		}
		a90, sc90 := skew(turned, side)
		switch {
		case sc90 > sideways*sc0:
			angle = a90 + math.Pi/2
		case math.Abs(a0) >= MinSkew*math.Pi/180:
			angle = a0
		}
	}
	if !res.Page && angle == 0 {
		return none, nil
	}
	c, sn := math.Abs(math.Cos(angle)), math.Abs(math.Sin(angle))
	ow, oh := w*c+h*sn, w*sn+h*c
	if ow*oh > 2*float64(b.Dx())*float64(b.Dy())+1e6 {
		return none, nil // a degenerate outline: never warp into more than twice the pixels
	}
	// The enlargement: towards 300 DPI, where the page's own resolution
	// is the outline's short side over an A4 page's 8.27 inches.
	own := dpi
	if res.Page {
		own = min(w, h) / 8.27
	}
	up := min(max(targetDPI/own, 1), 2, math.Sqrt(2*float64(b.Dx())*float64(b.Dy())/(ow*oh)))
	res.DPI = own * up
	W, H := int(math.Round(ow*up)), int(math.Round(oh*up))
	turn := translate(w/2, h/2).Mul(rotate(angle)).Mul(translate(-ow/2, -oh/2)).Mul(scale(1/up, 1/up))
	res.ToOriginal = toSrc.Mul(turn)
	res.Skew = angle * 180 / math.Pi
	out := warp(ctx, img, res.ToOriginal, W, H)
	if err := ctx.Err(); err != nil {
		return none, err
	}
	res.Image = &image.Gray{Pix: out.pix, Stride: out.w, Rect: image.Rect(0, 0, out.w, out.h)}
	return res, nil
}

// warp returns the w x h picture whose pixel (x, y) is src's at
// m(x+0.5, y+0.5) (bilinear; white outside src). It stops early, leaving
// the rest white, when ctx ends.
func warp(ctx context.Context, src *image.Gray, m Matrix, w, h int) small {
	out := small{pix: make([]uint8, w*h), w: w, h: h, f: 1}
	b := src.Bounds()
	for y := 0; y < h; y++ {
		if y%32 == 0 && ctx.Err() != nil {
			for i := y * w; i < len(out.pix); i++ {
				out.pix[i] = 255
			}
			return out
		}
		fy := float64(y) + 0.5
		// The numerators and denominator are linear in x along a row.
		nx, ny, d := m[1]*fy+m[2]+m[0]*0.5, m[4]*fy+m[5]+m[3]*0.5, m[7]*fy+m[8]+m[6]*0.5
		row := out.pix[y*w : (y+1)*w]
		for x := range row {
			sx, sy := nx/d-0.5-float64(b.Min.X), ny/d-0.5-float64(b.Min.Y)
			nx, ny, d = nx+m[0], ny+m[3], d+m[6]
			row[x] = sample(src, sx, sy)
		}
	}
	return out
}

// sample is src's level at (x, y) relative to its Min, bilinear; white
// outside.
func sample(src *image.Gray, x, y float64) uint8 {
	w, h := src.Rect.Dx(), src.Rect.Dy()
	if !(x >= 0 && y >= 0 && x <= float64(w-1) && y <= float64(h-1)) {
		return 255
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, w-1), min(y0+1, h-1)
	fx, fy := x-float64(x0), y-float64(y0)
	p := src.Pix
	r0, r1 := y0*src.Stride, y1*src.Stride
	top := float64(p[r0+x0])*(1-fx) + float64(p[r0+x1])*fx
	bot := float64(p[r1+x0])*(1-fx) + float64(p[r1+x1])*fx
	return uint8(top*(1-fy) + bot*fy + 0.5)
}

// UpsideDown returns r turned by half a turn, its transform following:
// the text lines' profile cannot tell a page from its upside-down
// image, OCR's confidence can (ingest tries it when the first reading is
// poor).
func (r Result) UpsideDown() Result {
	src := r.Image
	w, h := src.Rect.Dx(), src.Rect.Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		row := src.Pix[y*src.Stride : y*src.Stride+w]
		dst := out.Pix[(h-1-y)*out.Stride:]
		for x, v := range row {
			dst[w-1-x] = v
		}
	}
	r.Image = out
	r.ToOriginal = r.ToOriginal.Mul(Matrix{-1, 0, float64(w), 0, -1, float64(h), 0, 0, 1})
	r.Skew = math.Mod(r.Skew+180, 360)
	return r
}
