package docserve

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"vika/backend/corpus"
)

// TestCrops: a crop is served by document, page and index as image/png,
// never sniffed or cached; anything else is 404.
func TestCrops(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 3, 2))
	img.SetGray(1, 1, color.Gray{Y: 200})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	crops := CropSource(func(_ context.Context, doc string, page, n int) ([]byte, error) {
		if doc == "abc" && page == 2 && n == 1 {
			return buf.Bytes(), nil
		}
		return nil, fmt.Errorf("%w: no such crop", corpus.ErrNotFound)
	})
	srv := httptest.NewServer(Serve(source(map[string][]byte{"abc": []byte("%PDF-1.4\n%%EOF\n")}), crops))
	defer srv.Close()
	if got := CropURL("abc", 2, 1); got != "/crops/abc/2/1" {
		t.Errorf("CropURL = %q", got)
	}
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/crops/abc/2/1", 200},
		{"GET", "/crops/abc/2/0", 404},
		{"GET", "/crops/abc/0/1", 404},
		{"GET", "/crops/abc/x/1", 404},
		{"GET", "/crops/abc/2", 404},
		{"GET", "/crops/abc/2/1/extra", 404},
		{"POST", "/crops/abc/2/1", 405},
		{"GET", "/docs/abc", 200},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Errorf("%s %s = %d, want %d", tc.method, tc.path, res.StatusCode, tc.status)
		}
		if tc.status != 200 || tc.path != "/crops/abc/2/1" {
			continue
		}
		if res.Header.Get("Content-Type") != "image/png" || res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("headers = %v", res.Header)
		}
		back, err := png.Decode(bytes.NewReader(body))
		if err != nil || back.Bounds() != img.Bounds() || back.(*image.Gray).GrayAt(1, 1).Y != 200 {
			t.Errorf("decoded %v (%v), want the 3x2 image with its pixel", back, err)
		}
	}
}
