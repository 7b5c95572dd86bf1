package straighten_test

import (
	"context"
	"image"
	"math"
	"testing"
	"time"

	"vika/backend/ocr"
	"vika/backend/pdf"
	"vika/backend/straighten"
	"vika/backend/testpdf"
	"vika/backend/testpdf/photo"
)

// page renders body's page at dpi and returns it with its text layer.
func page(t *testing.T, dpi float64) (*image.Gray, pdf.Page) {
	t.Helper()
	doc, err := pdf.Open(testpdf.Text(photo.Lecture), pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	p, err := doc.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	img, err := doc.Render(1, dpi)
	if err != nil {
		t.Fatal(err)
	}
	return img, p
}

func pool(t *testing.T) *ocr.Pool {
	t.Helper()
	p, err := ocr.NewPool(ocr.Config{Workers: 1, Languages: []string{"eng"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// shots are the photos read: the same page taken as a student would.
var shots = []struct {
	name string
	shot photo.Shot
}{
	{"turned 6, keystone, dim, noisy", photo.Shot{Angle: 6, Keystone: 0.08, Dim: 0.45, Noise: 7, Quality: 75, Seed: 1}},
	{"turned -8, keystone", photo.Shot{Angle: -8, Keystone: 0.12, Dim: 0.3, Noise: 5, Seed: 2}},
	{"turned 4, even light", photo.Shot{Angle: 4, Keystone: 0.05, Noise: 4, Seed: 3}},
	{"sideways (turned 93)", photo.Shot{Angle: 93, Keystone: 0.05, Dim: 0.3, Noise: 5, Fill: 0.95, Seed: 4}},
	{"turned 5, dark corner", photo.Shot{Angle: 5, Keystone: 0.06, Dim: 0.7, Noise: 6, Seed: 5}},
	{"turned -5, close-up (no outline)", photo.Shot{Angle: -5, Dim: 0.3, Noise: 5, Fill: 1.6, Seed: 6}},
}

// TestPhotoCER photographs a rendered page and reads it with OCR, plain
// and straightened, reporting each CER against the page's text layer.
// Straightened, it must read within 5% CER and place its words on the
// photo where the page's lines are.
func TestPhotoCER(t *testing.T) {
	const dpi = 150
	src, p := page(t, dpi)
	ref := ocr.Normalize(p.Text)
	rec := pool(t)
	ctx := context.Background()
	for _, s := range shots {
		t.Run(s.name, func(t *testing.T) {
			w, h := 1800, 2400
			if math.Abs(s.shot.Angle) > 45 {
				w, h = 2400, 1800
			}
			ph := photo.Take(src, w, h, s.shot)
			img, err := photo.Grey(ph.JPEG)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := rec.Recognize(ctx, img, ocr.Hints{DPI: dpi})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			res, err := straighten.Page(ctx, img, 150)
			took := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			fixed, err := rec.Recognize(ctx, res.Image, ocr.Hints{DPI: int(res.DPI)})
			if err != nil {
				t.Fatal(err)
			}
			before, after := ocr.CER(ref, ocr.Normalize(plain.Text)), ocr.CER(ref, ocr.Normalize(fixed.Text))
			t.Logf("CER plain %.3f (confidence %.2f), straightened %.3f (confidence %.2f); page found %v, skew %.2f degrees, in %v",
				before, plain.Confidence, after, fixed.Confidence, res.Page, res.Skew, took.Round(time.Millisecond))
			if outline := s.shot.Fill <= 1; res.Page != outline {
				t.Errorf("page outline found %v, want %v", res.Page, outline)
			}
			if !res.Page {
				// A close-up cuts lines off at the photo's edges: no CER
				// bar, but the skew must be found.
				if math.Abs(res.Skew-s.shot.Angle) > 0.5 {
					t.Errorf("skew %.2f, want %.2f", res.Skew, s.shot.Angle)
				}
			} else if after > 0.05 {
				t.Errorf("straightened CER %.3f, want at most 0.05\n%s", after, fixed.Text)
			}
			if after > before {
				t.Errorf("straightening made it worse: %.3f against %.3f", after, before)
			}
			checkPlaced(t, fixed.Boxes, res.ToOriginal, ph.PageToPhoto.Inverse(), p, dpi)
		})
	}
}

// checkPlaced maps each word found on the straightened picture back to
// the photo (toPhoto), then to the page picture, and checks that most
// words' centres fall in a line of the page's text layer (at dpi).
func checkPlaced(t *testing.T, boxes []ocr.WordBox, toPhoto, photoToPage straighten.Matrix, p pdf.Page, dpi float64) {
	t.Helper()
	k := dpi / 72
	in := 0
	for _, b := range boxes {
		r := toPhoto.MapRect(b.Box)
		cx, cy := photoToPage.Apply(float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2)
		for _, l := range p.Lines() {
			const slack = 4 // pixels
			if cx >= l.BBox.X0*k-slack && cx <= l.BBox.X1*k+slack && cy >= l.BBox.Y0*k-slack && cy <= l.BBox.Y1*k+slack {
				in++
				break
			}
		}
	}
	if len(boxes) == 0 || float64(in) < 0.95*float64(len(boxes)) {
		t.Errorf("%d of %d words placed on their line of the page", in, len(boxes))
	}
}

// A clean render, a scan with white to its edges, comes back untouched;
// one turned 3 degrees is levelled, and its words placed back.
func TestScanLevelled(t *testing.T) {
	src, _ := page(t, 100)
	res, err := straighten.Page(context.Background(), src, 100)
	if err != nil || res.Changed() || res.Image != src {
		t.Fatalf("a level page was changed: %+v, %v", res, err)
	}
	turned := rotateGray(src, 3)
	res, err = straighten.Page(context.Background(), turned, 100)
	if err != nil {
		t.Fatal(err)
	}
	if res.Page || math.Abs(res.Skew-3) > 0.3 {
		t.Fatalf("page found %v, skew %.2f; want no page and 3 degrees", res.Page, res.Skew)
	}
}

// rotateGray turns img by deg degrees clockwise about its centre, white
// around.
func rotateGray(img *image.Gray, deg float64) *image.Gray {
	b := img.Bounds()
	out := image.NewGray(b)
	a := -deg * math.Pi / 180
	cx, cy := float64(b.Dx())/2, float64(b.Dy())/2
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := int(cx+dx*math.Cos(a)-dy*math.Sin(a)), int(cy+dx*math.Sin(a)+dy*math.Cos(a))
			v := uint8(255)
			if sx >= 0 && sy >= 0 && sx < b.Dx() && sy < b.Dy() {
				v = img.Pix[sy*img.Stride+sx]
			}
			out.Pix[y*out.Stride+x] = v
		}
	}
	return out
}

// Uneven light needs no binarisation of Vika's own: on a straightened
// photo whose far corner gets 55%, 30% and 15% of the light, Tesseract's
// Sauvola thresholding (Vika's setting) reads it whole, where its Otsu
// default loses more and more of the dark side (logged).
func TestUnevenLight(t *testing.T) {
	src, p := page(t, 150)
	ref := ocr.Normalize(p.Text)
	pools := map[ocr.Threshold]*ocr.Pool{}
	for _, th := range []ocr.Threshold{ocr.ThresholdOtsu, ocr.ThresholdSauvola} {
		pl, err := ocr.NewPool(ocr.Config{Workers: 1, Languages: []string{"eng"}, Threshold: th})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pl.Close() })
		pools[th] = pl
	}
	for _, dim := range []float64{0.45, 0.7, 0.85} {
		img, err := photo.Grey(photo.Take(src, 1800, 2400, photo.Shot{Angle: 5, Keystone: 0.06, Dim: dim, Noise: 6, Seed: 5}).JPEG)
		if err != nil {
			t.Fatal(err)
		}
		res, err := straighten.Page(context.Background(), img, 150)
		if err != nil {
			t.Fatal(err)
		}
		var cer [2]float64
		for i, th := range []ocr.Threshold{ocr.ThresholdOtsu, ocr.ThresholdSauvola} {
			r, err := pools[th].Recognize(context.Background(), res.Image, ocr.Hints{DPI: int(res.DPI)})
			if err != nil {
				t.Fatal(err)
			}
			cer[i] = ocr.CER(ref, ocr.Normalize(r.Text))
		}
		t.Logf("far corner at %.0f%% of the light: CER Otsu %.3f, Sauvola %.3f", 100*(1-dim), cer[0], cer[1])
		if cer[1] > 0.01 {
			t.Errorf("Sauvola CER %.3f with the far corner at %.0f%%", cer[1], 100*(1-dim))
		}
	}
}
