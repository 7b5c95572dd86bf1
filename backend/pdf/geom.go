package pdf

import "math"

// Rect is an axis-aligned rectangle in points, origin at the top left of
// the page, y growing downwards (MuPDF's page space). The zero Rect is
// empty.
type Rect struct {
	X0, Y0, X1, Y1 float64
}

// Dx and Dy are the width and height.
func (r Rect) Dx() float64 { return r.X1 - r.X0 }
func (r Rect) Dy() float64 { return r.Y1 - r.Y0 }

// Area is the area in pt^2 (0 for an empty rectangle).
func (r Rect) Area() float64 {
	if r.Empty() {
		return 0
	}
	return r.Dx() * r.Dy()
}

// Empty reports whether r encloses no area.
func (r Rect) Empty() bool { return r.X1 <= r.X0 || r.Y1 <= r.Y0 }

// Union is the smallest rectangle holding r and s; an empty operand is
// ignored.
func (r Rect) Union(s Rect) Rect {
	switch {
	case r.Empty():
		return s
	case s.Empty():
		return r
	}
	return Rect{math.Min(r.X0, s.X0), math.Min(r.Y0, s.Y0), math.Max(r.X1, s.X1), math.Max(r.Y1, s.Y1)}
}

// Intersect returns r ∩ s and whether it is non-empty. A degenerate r
// (a zero-width or zero-height rule) counts as intersecting when it
// touches s, and is returned clipped.
func (r Rect) Intersect(s Rect) (Rect, bool) {
	i := Rect{math.Max(r.X0, s.X0), math.Max(r.Y0, s.Y0), math.Min(r.X1, s.X1), math.Min(r.Y1, s.Y1)}
	return i, i.X1 >= i.X0 && i.Y1 >= i.Y0 && !(i.X1 == i.X0 && i.Y1 == i.Y0)
}

// overlapX and overlapY are the lengths of the projections' overlap.
func (r Rect) overlapX(s Rect) float64 { return math.Max(0, math.Min(r.X1, s.X1)-math.Max(r.X0, s.X0)) }
func (r Rect) overlapY(s Rect) float64 { return math.Max(0, math.Min(r.Y1, s.Y1)-math.Max(r.Y0, s.Y0)) }
