package pdf

import (
	"fmt"
	"image"
	"math"
)

// MaxRenderPixels bounds the size of a rendered image (8-bit gray, so as
// many bytes). Render and RenderRegion lower the resolution of larger
// requests (a poster at 300 DPI) to fit.
const MaxRenderPixels = 64 << 20

// Render draws page n (1-based) at dpi dots per inch as 8-bit gray, the
// input OCR wants. Annotations (reader highlights, ink) are not drawn.
func (d *Document) Render(n int, dpi float64) (*image.Gray, error) {
	if err := d.checkPage(n); err != nil {
		return nil, err
	}
	bounds, err := boundPage(d.fz, n-1)
	if err != nil {
		return nil, fmt.Errorf("page %d: %w (%v)", n, ErrPage, err)
	}
	if err := checkSide(n, bounds); err != nil {
		return nil, err
	}
	return d.RenderRegion(n, bounds, dpi)
}

// RenderRegion draws the part r (points, page space as in Page) of page n
// at dpi dots per inch as 8-bit gray. The image's bounds are r in pixels
// (r scaled by dpi/72, rounded outwards), so pixel (x, y) shows the page
// point (x, y)*72/dpi.
func (d *Document) RenderRegion(n int, r Rect, dpi float64) (*image.Gray, error) {
	if err := d.checkPage(n); err != nil {
		return nil, err
	}
	if r.Empty() || !(dpi > 0) || math.IsInf(dpi, 0) {
		return nil, fmt.Errorf("page %d: nothing to render (region %v at %v dpi)", n, r, dpi)
	}
	if err := checkSide(n, r); err != nil {
		return nil, err
	}
	scale := dpi / 72
	if px := (r.Dx()*scale + 2) * (r.Dy()*scale + 2); px > MaxRenderPixels { // +2: rounding outwards
		scale *= math.Sqrt(MaxRenderPixels/px) * 0.999
	}
	area, err := pixelArea(r, scale)
	if err != nil {
		return nil, fmt.Errorf("page %d: region %.4g x %.4g pt at %v dpi: %w", n, r.Dx(), r.Dy(), dpi, err)
	}
	img := image.NewGray(area)
	err = renderGray(d.fz, n-1, scale, [4]int{area.Min.X, area.Min.Y, area.Max.X, area.Max.Y}, img.Pix, d.deadline)
	if err != nil {
		return nil, d.pageError(n, err)
	}
	return img, nil
}

// pixelArea is r scaled and rounded outwards, checked on its final
// integer size: shrinking a thin region proportionally rounds its thin
// side up to a pixel, so the cap is enforced on the result, not the
// request.
func pixelArea(r Rect, scale float64) (image.Rectangle, error) {
	const maxCoord = 1 << 30 // far beyond any page; keeps int arithmetic exact
	f := [4]float64{math.Floor(r.X0 * scale), math.Floor(r.Y0 * scale), math.Ceil(r.X1 * scale), math.Ceil(r.Y1 * scale)}
	for _, v := range f {
		if !(math.Abs(v) < maxCoord) {
			return image.Rectangle{}, fmt.Errorf("too large to render (%w)", ErrPageSize)
		}
	}
	a := image.Rect(int(f[0]), int(f[1]), int(f[2]), int(f[3]))
	if w, h := int64(a.Dx()), int64(a.Dy()); w < 1 || h < 1 || w*h > MaxRenderPixels {
		return image.Rectangle{}, fmt.Errorf("%d x %d pixels, the limit is %d (%w)", w, h, MaxRenderPixels, ErrPageSize)
	}
	return a, nil
}

func (d *Document) checkPage(n int) error {
	if n < 1 || n > d.pages {
		return fmt.Errorf("%w: page %d does not exist (the document has %d)", ErrPage, n, d.pages)
	}
	return nil
}
