//go:build tune

package ocr

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The OCR speed measurements on the real scans behind
// backend/ocr/MEASUREMENTS.md. Experiments, not checks: they take a minute
// or more and build only with the tag "tune" (`make test` vets them):
//
//	go test -tags tune -run 'TestFlajoletScan|TestOCRPoolVsCLI' -v ./backend/ocr/

// TestOCRPoolVsCLI measures our pool against the tesseract command line
// on the same pages of the real Flajolet-Martin scan, side by side: 2 CLI
// processes at a time, each with OMP_THREAD_LIMIT=1 and the pool's
// settings (languages, psm, dpi, thresholding), reading PNG files,
// against a warm pool of 2 workers (as the app keeps it; the CLI loads
// the models for every page, which is its way of working). The machine
// is shared and its load swings, so the rounds alternate which side goes
// first and the verdict is the median of the per-round ratios.
func TestOCRPoolVsCLI(t *testing.T) {
	pages := benchPages(t)
	p := warmPool(t)
	rounds := 4
	if v, err := strconv.Atoi(os.Getenv("VIKA_BENCH_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	var cli, pool, ratio []float64
	for r := range rounds {
		var c, q float64
		if r%2 == 0 {
			c, q = cliRound(t, pages), poolRound(t, p, pages)
		} else {
			q, c = poolRound(t, p, pages), cliRound(t, pages)
		}
		cli, pool, ratio = append(cli, c), append(pool, q), append(ratio, q/c)
		t.Logf("round %d: CLI %.3f pages/s, pool %.3f pages/s, pool/CLI %.2f", r+1, c, q, q/c)
	}
	t.Logf("%d pages at 300 DPI, 2 at a time, %d rounds: median CLI %.3f pages/s, median pool %.3f pages/s, median pool/CLI ratio %.2f",
		len(pages.imgs), rounds, median(cli), median(pool), median(ratio))
	if r := median(ratio); r < 1/1.3 {
		t.Errorf("pool is %.2fx slower than the CLI (aim: within 1.3x)", 1/r)
	}
}

// TestFlajoletScan recognises the whole 28-page real scan (300 DPI
// bilevel) with a pool sized to the machine and reports throughput,
// confidence and a sample of the text.
func TestFlajoletScan(t *testing.T) {
	start := time.Now()
	imgs := renderShared(t, flajoletScan, 300, nil)
	render := time.Since(start)
	p, err := NewPool(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	start = time.Now()
	rs := make([]Result, len(imgs))
	var wg sync.WaitGroup
	for i, img := range imgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := p.Recognize(context.Background(), img, Hints{})
			if err != nil {
				t.Errorf("page %d: %v", i+1, err)
			}
			rs[i] = r
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	words, low := 0, 0
	for i, r := range rs {
		words += r.Words
		if r.Confidence < 0.8 {
			low++
			t.Logf("page %d: confidence %.2f (%d words)", i+1, r.Confidence, r.Words)
		}
	}
	conf := meanConfidence(rs)
	t.Logf("%d pages rendered in %s; recognised by %d workers (%d CPUs) in %s: %.3f pages/s; %d words, mean word confidence %.3f; %d pages below 0.8",
		len(imgs), render.Round(time.Millisecond), p.Config().Workers, runtime.NumCPU(), elapsed.Round(time.Millisecond),
		float64(len(imgs))/elapsed.Seconds(), words, conf, low)
	for _, n := range []int{0, 1, 9} {
		lines := strings.Split(rs[n].Text, "\n")
		t.Logf("page %d, first lines:\n%s", n+1, strings.Join(lines[:min(12, len(lines))], "\n"))
	}
	if conf < 0.8 {
		t.Errorf("mean confidence %.3f < 0.8", conf)
	}
}
