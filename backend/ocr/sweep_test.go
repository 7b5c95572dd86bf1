//go:build tune

package ocr

import (
	"fmt"
	"image"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSweep measures the French scan's CER over rendering DPI, page
// segmentation mode and preprocessing, the measurement behind the
// defaults. An experiment, not a check: it takes minutes and builds only
// with the tag "tune" (`make test` vets it):
// go test -tags tune -run TestSweep -v -timeout 60m ./backend/ocr/
func TestSweep(t *testing.T) {
	raw, clean := frenchReference(t)
	dpis := intsFromEnv("VIKA_OCR_SWEEP_DPI", []int{200, 300, 400})
	psms := intsFromEnv("VIKA_OCR_SWEEP_PSM", []int{1, 3, 4, 6})
	preps := []struct {
		name string
		cfg  func(*Config)
	}{
		{"gray, tesseract otsu", func(c *Config) { c.Threshold = ThresholdOtsu }},
		{"gray, go otsu", func(c *Config) { c.Threshold = ThresholdOtsu; c.Binarize = true }},
		{"gray, sauvola", func(c *Config) { c.Threshold = ThresholdSauvola }},
	}
	if only := os.Getenv("VIKA_OCR_SWEEP_PREP"); only != "" {
		kept := preps[:0]
		for _, p := range preps {
			if strings.Contains(p.name, only) {
				kept = append(kept, p)
			}
		}
		preps = kept
	}
	var rows []string
	for _, dpi := range dpis {
		imgs := renderShared(t, frenchScan, float64(dpi), nil)
		for _, psm := range psms {
			for _, prep := range preps {
				cfg := Config{PSM: psm, DPI: dpi, Workers: 2}
				prep.cfg(&cfg)
				p, err := NewPool(cfg)
				if err != nil {
					t.Fatal(err)
				}
				recognizeAll(t, p, []image.Image{crop(imgs[0], 200), crop(imgs[0], 200)}) // load models
				rs := recognizeAll(t, p, append(imgs[:3:3], maskFigure(imgs[2])))
				p.Close()
				masked := joinText([]Result{rs[0], rs[1], rs[3]})
				rs = rs[:3]
				var d time.Duration
				for _, r := range rs {
					d += r.Duration
				}
				hyp := joinText(rs)
				if dir := os.Getenv("VIKA_OCR_SWEEP_DUMP"); dir != "" {
					os.WriteFile(fmt.Sprintf("%s/fr_%d_%d_%s.txt", dir, dpi, psm, strings.NewReplacer(" ", "", ",", "_").Replace(prep.name)), []byte(hyp), 0o644)
				}
				row := fmt.Sprintf("| %d | %d | %s | %.2f%% | %.2f%% | %.2f%% | %.2f | %.2f |", dpi, psm, prep.name,
					100*CER(raw, hyp), 100*CER(Normalize(clean), Normalize(hyp)), 100*CER(Normalize(clean), Normalize(masked)),
					d.Seconds()/float64(len(rs)), meanConfidence(rs))
				t.Log(row)
				rows = append(rows, row)
			}
		}
	}
	t.Log("\n| DPI | psm | preprocessing | CER raw | CER normalised | CER normalised, figure masked | s/page | confidence |\n|---|---|---|---|---|---|---|---|\n" + strings.Join(rows, "\n"))
}

func intsFromEnv(name string, def []int) []int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		var n int
		fmt.Sscan(f, &n)
		out = append(out, n)
	}
	return out
}
