package pdf

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"vika/backend/corpus"
	"vika/backend/testpdf"
)

func TestClassify(t *testing.T) {
	const a4 = 595.0 * 842 // ~501,000 pt^2
	tests := []struct {
		chars  int
		area   float64
		images bool
		want   corpus.PageType
	}{
		{6000, a4, false, corpus.PageText},
		{6000, a4, true, corpus.PageIllustrative},
		{2000, a4, false, corpus.PageText}, // unspecified band: text
		{2000, a4, true, corpus.PageMixed},
		{100, a4, true, corpus.PageScanned},
		{0, a4, false, corpus.PageText}, // blank
		{10, 0, true, corpus.PageScanned},
	}
	for _, tt := range tests {
		if got := Classify(tt.chars, tt.area, tt.images); got != tt.want {
			t.Errorf("Classify(%d, %.0f, %v) = %s, want %s", tt.chars, tt.area, tt.images, got, tt.want)
		}
	}
}

// textPicture renders a page of generated text at 100 DPI and crops it:
// a picture holding text that no text layer carries.
func textPicture(t *testing.T) []byte {
	t.Helper()
	d, err := Open(testpdf.Text("Sampling error shrinks as the sample grows. "+testpdf.Words("label", 60)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	img, err := d.RenderRegion(1, Rect{50, 50, 545, 160}, 100)
	if err != nil {
		t.Fatal(err)
	}
	return encode(t, img)
}

// photo is a smooth dark gradient: no letters, mostly ink.
func photo(t *testing.T) []byte {
	img := image.NewGray(image.Rect(0, 0, 200, 150))
	for y := 0; y < 150; y++ {
		for x := 0; x < 200; x++ {
			img.Pix[y*200+x] = uint8(40 + 100*math.Sin(float64(x)/30)*math.Sin(float64(y)/25)*math.Sin(float64(x)/30)*math.Sin(float64(y)/25))
		}
	}
	return encode(t, img)
}

func encode(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestClassifyRefined(t *testing.T) {
	body := "A page of running text about estimators and their variance. " + testpdf.Words("body", 250)
	pic, ph := textPicture(t), photo(t)
	rule := encode(t, image.NewGray(image.Rect(0, 0, 1, 1))) // black 1x1 image: a rule, as Okasaki's thesis draws them
	pages := []testpdf.Illustrated{
		{Body: body, Figures: []testpdf.Figure{{X: 56, Y: 700, W: 480, H: 0.4, PNG: rule}}},
		{Body: body, Figures: []testpdf.Figure{{X: 80, Y: 450, W: 440, H: 100, PNG: pic}}},
		{Body: body, Figures: []testpdf.Figure{{X: 150, Y: 450, W: 300, H: 220, PNG: ph}}},
		{Figures: []testpdf.Figure{{X: 0, Y: 0, W: 595, H: 842, PNG: pic}}},
		{Body: "Near-blank page.", Figures: []testpdf.Figure{{X: 300, Y: 400, W: 3, H: 3, PNG: rule}}},
		{Body: body, Figures: []testpdf.Figure{{X: 50, Y: 50, W: 500, H: 150, PNG: ph}}}, // drawn over text: a background
	}
	type result struct {
		Type, Baseline corpus.PageType
		Complete       bool
		OCR            []Rect
		Calls          int
	}
	want := []result{
		{corpus.PageText, corpus.PageMixed, true, nil, 0},
		{corpus.PageMixed, corpus.PageMixed, false, []Rect{{80, 450, 520, 550}}, 1},
		{corpus.PageIllustrative, corpus.PageMixed, true, nil, 0},
		{corpus.PageScanned, corpus.PageScanned, false, nil, 1},
		{corpus.PageText, corpus.PageScanned, true, nil, 0},
		{corpus.PageText, corpus.PageMixed, true, nil, 0},
	}
	d, err := Open(testpdf.Illustrations(pages...), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var got []result
	for n := 1; n <= d.NumPages(); n++ {
		p, err := d.Page(n)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, result{p.Class.Type, p.Class.Baseline, p.Class.Complete, p.OCRRegions(), p.OCRCalls()})
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 0.5)); diff != "" {
		t.Errorf("classification (-want +got):\n%s", diff)
	}
}

func TestClassifyUnreadable(t *testing.T) {
	p := Page{Width: 595, Height: 842, Text: "a b c"}
	var d *Document // no image: nothing is rendered
	d.classify(&p, 500)
	if p.Class.Type != corpus.PageScanned || p.Class.Complete {
		t.Errorf("a text layer of unmapped glyphs should be OCRed whole: %+v", p.Class)
	}
}

func TestRender(t *testing.T) {
	d, err := Open(testpdf.Pages(testpdf.Page{Heading: "Dark Heading", Body: "Some body text."}), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	img, err := d.Render(1, 72)
	if err != nil {
		t.Fatal(err)
	}
	if img.Rect != image.Rect(0, 0, 596, 842) {
		t.Errorf("72 DPI page: %v", img.Rect)
	}
	p, _ := d.Page(1)
	head := p.Lines()[0].BBox
	region, err := d.RenderRegion(1, head, 144)
	if err != nil {
		t.Fatal(err)
	}
	if region.Rect.Min.X != int(math.Floor(head.X0*2)) || region.Rect.Dy() < int(head.Dy()*2) {
		t.Errorf("region %v for %v at 144 DPI", region.Rect, head)
	}
	if ink(region, 128) < 0.05 {
		t.Errorf("the heading region has %.3f ink", ink(region, 128))
	}
	blank, _ := d.RenderRegion(1, Rect{300, 700, 400, 800}, 100)
	if ink(blank, 128) != 0 {
		t.Errorf("blank region has ink")
	}
	if _, err := d.Render(2, 72); !errors.Is(err, ErrPage) {
		t.Errorf("Render(2) = %v", err)
	}
	if _, err := d.RenderRegion(1, Rect{}, 72); err == nil {
		t.Error("empty region: no error")
	}
	big, err := d.Render(1, 2000)
	if err != nil || len(big.Pix) > MaxRenderPixels {
		t.Errorf("2000 DPI: %v, %d pixels", err, len(big.Pix))
	}
}

func TestHoldsText(t *testing.T) {
	tests := []struct {
		name string
		png  []byte
		want bool
	}{
		{"text", textPicture(t), true},
		{"photo", photo(t), false},
		{"blank", encode(t, image.NewGray(image.Rect(0, 0, 100, 100))), false},
	}
	for _, tt := range tests {
		img, err := png.Decode(bytes.NewReader(tt.png))
		if err != nil {
			t.Fatal(err)
		}
		g, ok := img.(*image.Gray)
		if !ok {
			t.Fatalf("%s: %T", tt.name, img)
		}
		if got := holdsText(g, 100); got != tt.want {
			t.Errorf("%s: holdsText = %v", tt.name, got)
		}
	}
}
