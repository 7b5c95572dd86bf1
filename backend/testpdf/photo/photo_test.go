package photo

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"vika/backend/imagehead"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// photoOut: where TestPhoto writes photo-of-notes.jpg, the phone photo
// of the lecture page, and blurred-photo.jpg, a photo of it too small and
// blurred to read, that scripts/window/screenshots-photo.sh adds:
//
//	go test ./backend/testpdf/photo -run TestPhoto -args -photo-out DIR
var photoOut = flag.String("photo-out", "", "write photo-of-notes.jpg and blurred-photo.jpg there")

// The lecture page's photo is the same bytes every time, a JPEG of the
// size asked whose header says so, the page landing inside it.
func TestPhoto(t *testing.T) {
	d, err := pdf.Open(testpdf.Text(Lecture), pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	page, err := d.Render(1, 150)
	if err != nil {
		t.Fatal(err)
	}
	shot := Shot{Angle: 6, Keystone: 0.08, Dim: 0.45, Noise: 7, Quality: 80, Seed: 47}
	a, b := Take(page, 600, 800, shot), Take(page, 600, 800, shot)
	if !bytes.Equal(a.JPEG, b.JPEG) {
		t.Fatal("two photos of the same shot differ")
	}
	h, err := imagehead.Check(a.JPEG)
	if err != nil || h.Format != "jpeg" || h.Width != 600 || h.Height != 800 {
		t.Fatalf("header %+v, %v", h, err)
	}
	for _, c := range [][2]float64{{0, 0}, {float64(page.Rect.Dx()), float64(page.Rect.Dy())}} {
		if x, y := a.PageToPhoto.Apply(c[0], c[1]); x < 0 || y < 0 || x > 600 || y > 800 {
			t.Errorf("page corner %v lands at (%.0f, %.0f), outside the photo", c, x, y)
		}
	}
	if *photoOut != "" {
		small, err := d.Render(1, 40)
		if err != nil {
			t.Fatal(err)
		}
		blurred := Take(small, 700, 990, Shot{Angle: -5, Keystone: 0.1, Dim: 0.4, Noise: 10, Quality: 40, Seed: 14})
		sharp := Take(page, 2250, 3000, shot)
		for name, data := range map[string][]byte{"photo-of-notes.jpg": sharp.JPEG, "blurred-photo.jpg": blurred.JPEG} {
			if err := os.WriteFile(filepath.Join(*photoOut, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
