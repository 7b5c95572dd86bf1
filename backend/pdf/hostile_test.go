package pdf

import (
	"errors"
	"strings"
	"testing"
	"time"

	"vika/backend/corpus"
	"vika/backend/testpdf"
)

// openHostile opens one of testpdf's hostile files, whose page 2 is the
// odd one, and checks pages 1 and 3 keep their text.
func openHostile(t *testing.T, data []byte) *Document {
	t.Helper()
	d, err := Open(data, Limits{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	for _, n := range []int{1, 3} {
		p, err := d.Page(n)
		if err != nil || !strings.Contains(p.Text, "keeps its text") {
			t.Fatalf("page %d: %q, %v; want its text", n, p.Text, err)
		}
	}
	return d
}

// A page whose forms fan out 10 wide and 8 deep is cut at its deadline
// by the fz_cookie, within a fraction of a second of it.
func TestFanOutStopsAtDeadline(t *testing.T) {
	d := openHostile(t, testpdf.FanOut(10, 8))
	const budget = 500 * time.Millisecond
	start := time.Now()
	d.SetDeadline(start.Add(budget))
	_, err := d.Page(2)
	took := time.Since(start)
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, ErrPage) {
		t.Fatalf("Page(2) = %v, want ErrTimeout", err)
	}
	if !strings.Contains(err.Error(), "page 2 took too long and was skipped") {
		t.Errorf("message %q", err)
	}
	if took > budget+time.Second {
		t.Errorf("Page(2) returned after %v, the deadline was %v", took, budget)
	}
	// The document stays usable after the abort.
	d.SetDeadline(time.Time{})
	if p, err := d.Page(3); err != nil || !strings.Contains(p.Text, "after") {
		t.Errorf("page 3 after the abort: %q, %v", p.Text, err)
	}
	d.SetDeadline(time.Now().Add(budget))
	if _, err := d.Render(2, 300); !errors.Is(err, ErrTimeout) {
		t.Errorf("Render(2) = %v, want ErrTimeout", err)
	}
}

// A 1e20 x 100 pt page fails alone with a clear error instead of asking
// image.NewGray for terabytes.
func TestThinHugePage(t *testing.T) {
	d := openHostile(t, testpdf.ThinPage(1e20, 100))
	if _, err := d.Page(2); !errors.Is(err, ErrPageSize) || !strings.Contains(err.Error(), "larger than the 14400 pt") {
		t.Errorf("Page(2) = %v, want ErrPageSize", err)
	}
	if _, err := d.Render(2, 300); !errors.Is(err, ErrPageSize) {
		t.Errorf("Render(2) = %v, want ErrPageSize", err)
	}
	if _, err := d.RenderRegion(1, Rect{0, 0, 1e9, 0.001}, 300); !errors.Is(err, ErrPageSize) {
		t.Errorf("RenderRegion of a thin huge region = %v, want ErrPageSize", err)
	}
}

// The final pixel count is checked, not the request: a region shrunk to
// fit keeps at least one pixel on its thin side.
func TestPixelArea(t *testing.T) {
	for _, c := range []struct {
		r     Rect
		scale float64
		ok    bool
	}{
		{Rect{0, 0, 612, 792}, 300.0 / 72, true},
		{Rect{0, 0, 14400, 0.01}, 1, true},
		{Rect{0, 0, 1e12, 1}, 1e-3, false},
		{Rect{0, 0, 9000, 9000}, 1, false},
	} {
		if _, err := pixelArea(c.r, c.scale); (err == nil) != c.ok {
			t.Errorf("pixelArea(%v, %v) = %v, want ok=%v", c.r, c.scale, err, c.ok)
		}
	}
}

// A page without text drawing hundreds of overlapping images is skipped
// with its reason, never called scanned.
func TestImageFlood(t *testing.T) {
	d := openHostile(t, testpdf.ImageFlood(400, 64))
	p, err := d.Page(2)
	if !errors.Is(err, ErrPage) || !strings.Contains(err.Error(), "draws 400 images") {
		t.Errorf("Page(2) = %v, want the image flood reported", err)
	}
	if p.Class.Type == corpus.PageScanned || p.OCRCalls() != 0 {
		t.Errorf("flood page classified %s with %d OCR calls", p.Class.Type, p.OCRCalls())
	}
}

// Overlapping images count once towards the scanned-cover test.
func TestUnionCover(t *testing.T) {
	page := Rect{0, 0, 600, 800}
	third := Rect{0, 0, 600, 266}
	many := make([]Rect, 200)
	for i := range many {
		many[i] = Rect{third.X0 + float64(i%5), third.Y0, third.X1, third.Y1}
	}
	if c := unionCover(many, page); c < 0.3 || c > 0.36 {
		t.Errorf("200 overlapping thirds cover %.3f, want about 0.33", c)
	}
	halves := []Rect{{0, 0, 600, 400}, {0, 400, 600, 800}}
	if c := unionCover(halves, page); c < 0.99 {
		t.Errorf("two halves cover %.3f, want 1", c)
	}
	if c := unionCover(nil, page); c != 0 {
		t.Errorf("no image covers %.3f", c)
	}
}
