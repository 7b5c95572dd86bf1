package ocr

import (
	"bytes"
	"image"
	"image/color"
	"testing"

	xtiff "golang.org/x/image/tiff"
)

func TestGray(t *testing.T) {
	rgba := image.NewRGBA(image.Rect(0, 0, 4, 2))
	rgba.Set(0, 0, color.RGBA{255, 255, 255, 255})
	rgba.Set(1, 0, color.RGBA{255, 0, 0, 255})
	rgba.Set(2, 0, color.RGBA{0, 255, 0, 255})
	rgba.Set(3, 1, color.RGBA{0, 0, 255, 255})
	pal := image.NewPaletted(rgba.Rect, color.Palette{color.Black, color.White, color.RGBA{255, 0, 0, 255}, color.RGBA{0, 255, 0, 255}, color.RGBA{0, 0, 255, 255}})
	for y := 0; y < 2; y++ {
		for x := 0; x < 4; x++ {
			pal.Set(x, y, rgba.At(x, y))
		}
	}
	want, _, _ := gray(pal) // the generic path: color.GrayModel
	for _, img := range []image.Image{rgba, rgba.SubImage(rgba.Rect)} {
		got, w, h := gray(img)
		if w != 4 || h != 2 {
			t.Fatalf("size %dx%d", w, h)
		}
		for i := range got {
			if d := int(got[i]) - int(want[i]); d < -1 || d > 1 {
				t.Errorf("pixel %d: %d, want %d", i, got[i], want[i])
			}
		}
	}
	// A sub-image keeps its own origin and stride.
	g := image.NewGray(image.Rect(0, 0, 4, 4))
	for i := range g.Pix {
		g.Pix[i] = uint8(i)
	}
	got, w, h := gray(g.SubImage(image.Rect(1, 1, 3, 3)))
	if w != 2 || h != 2 || string(got) != string([]byte{5, 6, 9, 10}) {
		t.Errorf("sub-image: %v (%dx%d)", got, w, h)
	}
}

func TestOtsu(t *testing.T) {
	pix := make([]byte, 1000)
	for i := range pix {
		pix[i] = 220 + uint8(i%20) // paper
		if i%4 == 0 {
			pix[i] = 30 + uint8(i%15) // ink
		}
	}
	level := otsu(pix)
	if level < 44 || level >= 220 {
		t.Fatalf("otsu = %d, want between ink and paper", level)
	}
	binarize(pix)
	for i, p := range pix {
		if want := map[bool]byte{true: 0, false: 255}[i%4 == 0]; p != want {
			t.Fatalf("pixel %d = %d, want %d", i, p, want)
		}
	}
}

func TestEncodeTIFF(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 7, 5)) // odd sizes: no padding
	for i := range g.Pix {
		g.Pix[i] = uint8(i * 7)
	}
	data, bilevel, err := encode(g, false, 300)
	if err != nil {
		t.Fatal(err)
	}
	if bilevel {
		t.Error("a grey ramp reported as bilevel")
	}
	if len(data) != tiffHeaderSize+len(g.Pix) {
		t.Errorf("size %d, want %d", len(data), tiffHeaderSize+len(g.Pix))
	}
	back, err := xtiff.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("our TIFF does not decode: %v", err)
	}
	bg, ok := back.(*image.Gray)
	if !ok || bg.Rect != g.Rect || !bytes.Equal(bg.Pix, g.Pix) {
		t.Errorf("decoded %T %v, want the same grey pixels", back, back.Bounds())
	}
	cfg, err := xtiff.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width != 7 || cfg.Height != 5 || cfg.ColorModel != color.GrayModel {
		t.Errorf("DecodeConfig = %+v, %v", cfg, err)
	}
}

func TestEncodeBilevel(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 8, 8))
	for i := range g.Pix {
		g.Pix[i] = uint8(255 * (i % 2))
	}
	if _, bilevel, _ := encode(g, false, 300); !bilevel {
		t.Error("a black and white image not reported as bilevel")
	}
	g.Pix[3] = 128
	if _, bilevel, _ := encode(g, false, 300); bilevel {
		t.Error("an image with grey reported as bilevel")
	}
	if _, bilevel, _ := encode(g, true, 300); !bilevel {
		t.Error("a binarised image not reported as bilevel")
	}
}
