//go:build tune

package ocr

import (
	"context"
	"fmt"
	"image"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestLessOCR measures the OCR ideas of issue 30 against the defaults, in
// the same rounds (variants interleaved, the default first in odd rounds,
// last in even ones): Tesseract's CPU seconds per page (its thread's CPU
// time, which the machine's load does not inflate as it does wall time) and the CER of the made
// French scan (normalised, figure masked), and on the first pages of the
// Flajolet-Martin scan (English, 300 dpi bilevel) the seconds and how far
// each variant's text is from the default's. An experiment, not a check:
// go test -tags tune -run TestLessOCR -v -timeout 60m ./backend/ocr/
func TestLessOCR(t *testing.T) {
	_, clean := frenchReference(t)
	type variant struct {
		name  string
		dpi   int // render and told resolution
		cfg   Config
		hints []Hints // per page (none: Hints{})
	}
	fr1 := []Hints{{DPI: 204}, {Lang: "fr", DPI: 204}, {Lang: "fr", DPI: 204}}
	fr := []variant{
		{"default: 300 DPI, fra+eng, Sauvola", 300, Config{}, nil},
		{"scan's own 204 DPI, fra+eng", 204, Config{DPI: 204}, nil},
		{"300 DPI, fra only", 300, Config{Languages: []string{"fra"}}, nil},
		{"204 DPI, fra only", 204, Config{DPI: 204, Languages: []string{"fra"}}, nil},
		{"300 DPI, tessedit_do_invert=0", 300, Config{Variables: map[string]string{"tessedit_do_invert": "0"}}, nil},
		{"204 DPI, fra only, tessedit_do_invert=0", 204, Config{DPI: 204, Languages: []string{"fra"}, Variables: map[string]string{"tessedit_do_invert": "0"}}, nil},
		{"as ingested: 204 DPI, page 1 fra+eng, then fra", 204, Config{DPI: 204}, fr1},
	}
	en := []variant{
		{"default: 300 DPI, fra+eng", 300, Config{}, nil},
		{"300 DPI, eng only", 300, Config{Languages: []string{"eng"}}, nil},
		{"300 DPI, eng only, tessedit_do_invert=0", 300, Config{Languages: []string{"eng"}, Variables: map[string]string{"tessedit_do_invert": "0"}}, nil},
	}
	frImgs := map[int][]image.Image{}
	for _, v := range fr {
		if frImgs[v.dpi] == nil {
			imgs := renderShared(t, frenchScan, float64(v.dpi), nil)
			frImgs[v.dpi] = []image.Image{imgs[0], imgs[1], maskFigure(imgs[2])}
		}
	}
	enImgs := renderShared(t, flajoletScan, 300, []int{0, 1})

	run := func(v variant, imgs []image.Image) ([]Result, time.Duration) {
		cfg := v.cfg
		cfg.Workers = 1  // one page at a time: the seconds are one core's
		cfg.Timeout = -1 // a loaded machine is slow, not wrong
		p, err := NewPool(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		recognizeAll(t, p, []image.Image{crop(imgs[0], 200)}) // load the models
		var rs []Result
		var d time.Duration
		for i, img := range imgs {
			var h Hints
			if v.hints != nil {
				h = v.hints[i]
				if _, err := p.Recognize(context.Background(), crop(img, 200), h); err != nil { // load that language's models
					t.Fatal(err)
				}
			}
			r, err := p.Recognize(context.Background(), img, h)
			if err != nil {
				t.Fatal(err)
			}
			rs, d = append(rs, r), d+r.CPU
		}
		return rs, d
	}
	rounds := intsFromEnv("VIKA_OCR_ROUNDS", []int{2})[0]
	frTime := make([][]float64, len(fr))
	frCER := make([]float64, len(fr))
	enTime := make([][]float64, len(en))
	enDiff := make([]float64, len(en))
	var enBase string
	for round := range rounds {
		order := func(n int) []int {
			idx := make([]int, n)
			for i := range idx {
				idx[i] = i
			}
			if round%2 == 1 {
				slices.Reverse(idx)
			}
			return idx
		}
		for _, i := range order(len(fr)) {
			rs, d := run(fr[i], frImgs[fr[i].dpi])
			frTime[i] = append(frTime[i], d.Seconds()/float64(len(rs)))
			frCER[i] = CER(Normalize(clean), Normalize(joinText(rs)))
			t.Logf("round %d %s: %.2f CPU s/page, CER masked %.2f%%", round+1, fr[i].name, d.Seconds()/float64(len(rs)), 100*frCER[i])
		}
		for _, i := range order(len(en)) {
			rs, d := run(en[i], enImgs)
			enTime[i] = append(enTime[i], d.Seconds()/float64(len(rs)))
			txt := Normalize(joinText(rs))
			if i == 0 {
				enBase = txt
			}
			if enBase != "" {
				enDiff[i] = CER(enBase, txt)
			}
			t.Logf("round %d %s: %.2f CPU s/page, %.2f%% from the default's text", round+1, en[i].name, d.Seconds()/float64(len(rs)), 100*enDiff[i])
		}
	}
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nFrench scan (3 pages, chart masked), %d rounds\n| variant | CPU s/page | CPU / default | CER normalised, masked |\n|---|---|---|---|\n", rounds)
	for i, v := range fr {
		fmt.Fprintf(&b, "| %s | %.2f | %.2f | %.2f%% |\n", v.name, mean(frTime[i]), mean(frTime[i])/mean(frTime[0]), 100*frCER[i])
	}
	fmt.Fprintf(&b, "\nFlajolet-Martin scan (pages 1-2, English), %d rounds\n| variant | CPU s/page | CPU / default | text distance to the default |\n|---|---|---|---|\n", rounds)
	for i, v := range en {
		fmt.Fprintf(&b, "| %s | %.2f | %.2f | %.2f%% |\n", v.name, mean(enTime[i]), mean(enTime[i])/mean(enTime[0]), 100*enDiff[i])
	}
	t.Log(b.String())
}
