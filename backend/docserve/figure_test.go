package docserve

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

func TestFigureURL(t *testing.T) {
	if got := FigureURL(nil); got != "" {
		t.Errorf("FigureURL(nil) = %q, want empty", got)
	}
	img := image.NewGray(image.Rect(0, 0, 3, 2))
	img.SetGray(1, 1, color.Gray{Y: 200})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	url := FigureURL(buf.Bytes())
	data, ok := strings.CutPrefix(url, "data:image/png;base64,")
	if !ok {
		t.Fatalf("FigureURL = %.40q..., want a PNG data URL", url)
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		t.Fatal(err)
	}
	back, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the URL's bytes are not the PNG: %v", err)
	}
	if back.Bounds() != img.Bounds() || back.(*image.Gray).GrayAt(1, 1).Y != 200 {
		t.Errorf("decoded %v, want the 3x2 image with its pixel", back.Bounds())
	}
}
