package straighten

import (
	"context"
	"image"
	"testing"
)

// FuzzPage: any picture is straightened or left as is, without a
// panic, into at most twice its pixels (and 1e6 more), its transform
// mapping the result's corners to finite points.
func FuzzPage(f *testing.F) {
	f.Add([]byte{40, 60, 0, 255, 128, 7})
	f.Add([]byte{200, 10, 255, 0})
	f.Add([]byte{90, 90, 30, 30, 30, 250, 250, 250, 250, 30})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		w, h := 32+int(data[0])*2, 32+int(data[1])*2
		img := image.NewGray(image.Rect(0, 0, w, h))
		body := data[2:]
		for i := range img.Pix {
			// Blocks of 8 x 8 pixels, so that regions and lines can form.
			x, y := (i%w)/8, (i/w)/8
			img.Pix[i] = body[(x+y*(w/8+1))%len(body)]
		}
		res, err := Page(context.Background(), img, 150)
		if err != nil {
			t.Fatal(err)
		}
		b := res.Image.Bounds()
		if b.Dx()*b.Dy() > 2*w*h+1_000_000*4 {
			t.Fatalf("%d x %d into %v", w, h, b)
		}
		x, y := res.ToOriginal.Apply(float64(b.Dx()), float64(b.Dy()))
		if x != x || y != y {
			t.Fatalf("transform gives NaN: %+v", res.ToOriginal)
		}
	})
}
