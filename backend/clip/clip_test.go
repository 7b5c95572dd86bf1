package clip

import (
	"context"
	"errors"
	"image"
	"math"
	"testing"

	"vika/backend/assets"
	"vika/backend/assets/assetstest"
	"vika/backend/models"
	"vika/backend/models/modelstest"
)

// tiny loads the tiny CLIP of testdata/clip, installed under a temporary
// root through the real downloader (its registry pins re-pinned to the
// fixtures).
func tiny(t *testing.T) *Model {
	t.Helper()
	assetstest.Require(t, assets.ORT)
	root := t.TempDir()
	modelstest.InstallCLIP(t, root)
	m, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func maxDiff(t *testing.T, got []float32, want []float64) float64 {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d values, want %d", len(got), len(want))
	}
	var worst float64
	for i := range got {
		worst = max(worst, math.Abs(float64(got[i])-want[i]))
	}
	return worst
}

// TestTinyModelGolden: the text and image vectors of the tiny model run by
// ONNX Runtime agree with numpy's (tiny_clip.py golden), the images
// prepared by Go and the texts tokenized by Go.
func TestTinyModelGolden(t *testing.T) {
	m := tiny(t)
	g := golden(t)
	if m.Dim() != g.Dim || m.Name() != Name {
		t.Fatalf("dim %d name %s, want %d %s", m.Dim(), m.Name(), g.Dim, Name)
	}
	ctx := context.Background()
	for _, c := range g.Text {
		v, err := m.EmbedText(ctx, c.Text)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxDiff(t, v, c.Vector); d > 1e-5 {
			t.Errorf("text %q: largest difference %g", c.Text, d)
		}
	}
	var imgs []image.Image
	for _, c := range g.Image {
		imgs = append(imgs, decodeFixture(t, c.File))
	}
	for _, batch := range []int{1, 2, 8} { // batches of one, a partial batch, all at once
		m.batch = batch
		vecs, err := m.EmbedImages(ctx, imgs)
		if err != nil {
			t.Fatal(err)
		}
		if len(vecs) != len(imgs) {
			t.Fatalf("%d vectors for %d images", len(vecs), len(imgs))
		}
		for i, c := range g.Image {
			// The golden's pixels come from PIL: equal to float32 rounding.
			if d := maxDiff(t, vecs[i], c.Vector); d > 1e-4 {
				t.Errorf("batch %d, image %s: largest difference %g", batch, c.File, d)
			}
		}
	}
}

func TestModelErrors(t *testing.T) {
	m := tiny(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.EmbedText(ctx, "a cat"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled EmbedText: %v", err)
	}
	if _, err := m.EmbedImages(ctx, []image.Image{image.NewGray(image.Rect(0, 0, 4, 4))}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled EmbedImages: %v", err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := m.EmbedText(context.Background(), "a cat"); !errors.Is(err, ErrClosed) {
		t.Errorf("EmbedText after Close: %v", err)
	}
	if _, err := Open(t.TempDir()); !errors.Is(err, models.ErrNotInstalled) {
		t.Errorf("Open(empty root) = %v, want ErrNotInstalled", err)
	}
}
