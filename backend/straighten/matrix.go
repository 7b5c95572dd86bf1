package straighten

import (
	"image"
	"math"
)

// Matrix is a plane projective transform (a homography), row by row:
// a point (x, y) goes to ((m0 x + m1 y + m2) / w, (m3 x + m4 y + m5) / w)
// with w = m6 x + m7 y + m8. Rotations, scalings and translations are
// the ones whose last row is 0 0 1.
type Matrix [9]float64

// Identity leaves every point where it is.
var Identity = Matrix{1, 0, 0, 0, 1, 0, 0, 0, 1}

// Apply maps the point (x, y).
func (m Matrix) Apply(x, y float64) (float64, float64) {
	w := m[6]*x + m[7]*y + m[8]
	if w == 0 {
		w = 1e-12
	}
	return (m[0]*x + m[1]*y + m[2]) / w, (m[3]*x + m[4]*y + m[5]) / w
}

// Mul returns the transform that applies n, then m.
func (m Matrix) Mul(n Matrix) Matrix {
	var r Matrix
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[3*i+j] = m[3*i]*n[j] + m[3*i+1]*n[3+j] + m[3*i+2]*n[6+j]
		}
	}
	return r
}

// MapRect returns the smallest rectangle holding r's four corners
// mapped by m: where a box of the straightened image lies on the
// original (a slanted word's box grows to hold it).
func (m Matrix) MapRect(r image.Rectangle) image.Rectangle {
	x0, y0 := math.Inf(1), math.Inf(1)
	x1, y1 := math.Inf(-1), math.Inf(-1)
	for _, p := range [4][2]float64{{float64(r.Min.X), float64(r.Min.Y)}, {float64(r.Max.X), float64(r.Min.Y)},
		{float64(r.Max.X), float64(r.Max.Y)}, {float64(r.Min.X), float64(r.Max.Y)}} {
		x, y := m.Apply(p[0], p[1])
		x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
	}
	return image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1)), int(math.Ceil(y1)))
}

func scale(sx, sy float64) Matrix     { return Matrix{sx, 0, 0, 0, sy, 0, 0, 0, 1} }
func translate(tx, ty float64) Matrix { return Matrix{1, 0, tx, 0, 1, ty, 0, 0, 1} }

// rotate turns points by a radians about the origin (clockwise on an
// image, whose y axis points down).
func rotate(a float64) Matrix {
	c, s := math.Cos(a), math.Sin(a)
	return Matrix{c, -s, 0, s, c, 0, 0, 0, 1}
}

// Quad is a quadrilateral: its top-left, top-right, bottom-right and
// bottom-left corners.
type Quad [4][2]float64

// squareTo maps the unit square's corners (0,0), (1,0), (1,1), (0,1) to
// q's (Heckbert 1989, "Fundamentals of texture mapping", 2.2.3).
func squareTo(q Quad) Matrix {
	x0, y0 := q[0][0], q[0][1]
	x1, y1 := q[1][0], q[1][1]
	x2, y2 := q[2][0], q[2][1]
	x3, y3 := q[3][0], q[3][1]
	sx, sy := x0-x1+x2-x3, y0-y1+y2-y3
	if math.Abs(sx) < 1e-9 && math.Abs(sy) < 1e-9 {
		return Matrix{x1 - x0, x3 - x0, x0, y1 - y0, y3 - y0, y0, 0, 0, 1}
	}
	dx1, dx2, dy1, dy2 := x1-x2, x3-x2, y1-y2, y3-y2
	den := dx1*dy2 - dx2*dy1
	if den == 0 {
		den = 1e-12
	}
	g := (sx*dy2 - dx2*sy) / den
	h := (dx1*sy - sx*dy1) / den
	return Matrix{x1 - x0 + g*x1, x3 - x0 + h*x3, x0, y1 - y0 + g*y1, y3 - y0 + h*y3, y0, g, h, 1}
}

func dist(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }

// area is q's area (shoelace), positive for corners in image order.
func (q Quad) area() float64 {
	s := 0.0
	for i := 0; i < 4; i++ {
		j := (i + 1) % 4
		s += q[i][0]*q[j][1] - q[j][0]*q[i][1]
	}
	return s / 2
}

// convex reports whether q turns the same way at each corner.
func (q Quad) convex() bool {
	sign := 0.0
	for i := 0; i < 4; i++ {
		a, b, c := q[i], q[(i+1)%4], q[(i+2)%4]
		cross := (b[0]-a[0])*(c[1]-b[1]) - (b[1]-a[1])*(c[0]-b[0])
		if cross == 0 || (sign != 0 && (cross > 0) != (sign > 0)) {
			return false
		}
		sign = cross
	}
	return true
}

// Inverse returns the transform that undoes m (m must be invertible).
func (m Matrix) Inverse() Matrix {
	a, b, c, d, e, f, g, h, i := m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]
	A, B, C := e*i-f*h, -(d*i - f*g), d*h-e*g
	det := a*A + b*B + c*C
	if det == 0 {
		det = 1e-12
	}
	inv := Matrix{A, -(b*i - c*h), b*f - c*e, B, a*i - c*g, -(a*f - c*d), C, -(a*h - b*g), a*e - b*d}
	for k := range inv {
		inv[k] /= det
	}
	return inv
}

// QuadMatrix maps the w x h rectangle's corners (0,0), (w,0), (w,h),
// (0,h) to q's.
func QuadMatrix(q Quad, w, h float64) Matrix { return squareTo(q).Mul(scale(1/w, 1/h)) }
