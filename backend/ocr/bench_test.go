package ocr

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

// benchEnabled gates the slow measurements on real scans.
func benchEnabled(t testing.TB) {
	t.Helper()
	if os.Getenv("VIKA_BENCH") != "1" {
		t.Skip("set VIKA_BENCH=1 to run OCR speed measurements on the real scans (a minute or more)")
	}
}

// BenchmarkImageFormats compares ways to hand a 300 DPI page to
// Tesseract: encode/<format> is the work in Go (from the rendered RGBA
// page), decode/<format> Leptonica's reading in SetImageFromBytes.
func BenchmarkImageFormats(b *testing.B) {
	page := textPage(b, strings.Repeat("Le microbiote est l'ensemble des micro-organismes. ", 60))
	grayOf := func() *image.Gray {
		pix, w, h := gray(page)
		return &image.Gray{Pix: pix, Stride: w, Rect: image.Rect(0, 0, w, h)}
	}
	formats := []struct {
		name   string
		encode func() []byte
	}{
		{"tiff-ours", func() []byte { pix, w, h := gray(page); return encodeTIFF(pix, w, h, 300) }},
		{"pgm", func() []byte { return pgm(gray(page)) }},
		{"bmp-gray", func() []byte { var buf bytes.Buffer; bmp.Encode(&buf, grayOf()); return buf.Bytes() }},
		{"tiff-gray", func() []byte {
			var buf bytes.Buffer
			tiff.Encode(&buf, grayOf(), &tiff.Options{Compression: tiff.Uncompressed})
			return buf.Bytes()
		}},
		{"png-gray", func() []byte { var buf bytes.Buffer; png.Encode(&buf, grayOf()); return buf.Bytes() }},
		{"png-rgba", func() []byte { var buf bytes.Buffer; png.Encode(&buf, page); return buf.Bytes() }},
	}
	c, err := newClient(Config{}.withDefaults())
	if err != nil {
		b.Fatal(err)
	}
	defer c.close()
	for _, f := range formats {
		data := f.encode()
		b.Run("encode/"+f.name, func(b *testing.B) {
			for b.Loop() {
				f.encode()
			}
			b.ReportMetric(float64(len(data))/1e6, "MB")
		})
		b.Run("decode/"+f.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.tess.SetImageFromBytes(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// pgm encodes a grey raster as binary PGM (for comparison only).
func pgm(pix []byte, w, h int) []byte {
	return append([]byte(fmt.Sprintf("P5\n%d %d\n255\n", w, h)), pix...)
}

// BenchmarkOCRPoolVsCLI is TestOCRPoolVsCLI as a benchmark: one CLI
// round and one pool round per iteration (run with -benchtime=3x).
func BenchmarkOCRPoolVsCLI(b *testing.B) {
	pages := benchPages(b)
	p := warmPool(b)
	var pool, cli float64
	for b.Loop() {
		cli += cliRound(b, pages)
		pool += poolRound(b, p, pages)
	}
	b.ReportMetric(pool/float64(b.N), "pool-pages/s")
	b.ReportMetric(cli/float64(b.N), "cli-pages/s")
	b.ReportMetric(pool/cli, "pool/cli")
}

// TestOCRPoolVsCLI measures our pool against the tesseract command line
// on the same pages of the real Flajolet-Martin scan, side by side: 2 CLI
// processes at a time, each with OMP_THREAD_LIMIT=1 and the pool's
// settings (languages, psm, dpi, thresholding), reading PNG files,
// against a warm pool of 2 workers (as the app keeps it; the CLI loads
// the models for every page, which is its way of working). The machine
// is shared and its load swings, so the rounds alternate which side goes
// first and the verdict is the median of the per-round ratios.
func TestOCRPoolVsCLI(t *testing.T) {
	benchEnabled(t)
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

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// warmPool returns a pool of 2 workers with the models loaded.
func warmPool(t testing.TB) *Pool {
	t.Helper()
	p := newPool(t, Config{Workers: 2})
	tiny := crop(textPage(t, "warm up"), 200)
	recognizeAll(t, p, []image.Image{tiny, tiny})
	return p
}

type benchSet struct {
	imgs       []image.Image
	files      []string // the same pages as PNG, for the CLI
	thresholds []string // the thresholding_method the pool uses for each
}

// benchPages renders the first VIKA_BENCH_PAGES (default 4) pages of the
// Flajolet scan at 300 DPI, as images and as PNG files.
func benchPages(t testing.TB) benchSet {
	t.Helper()
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("the tesseract command (Debian package tesseract-ocr) is not installed")
	}
	n := 4
	if v, err := strconv.Atoi(os.Getenv("VIKA_BENCH_PAGES")); err == nil && v > 0 {
		n = v
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	s := benchSet{imgs: renderShared(t, flajoletScan, 300, idx)}
	dir := t.TempDir()
	for i, img := range s.imgs {
		pix, w, h := gray(img)
		var buf bytes.Buffer
		if err := png.Encode(&buf, &image.Gray{Pix: pix, Stride: w, Rect: image.Rect(0, 0, w, h)}); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, fmt.Sprintf("page%02d.png", i+1))
		if err := os.WriteFile(f, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		s.files = append(s.files, f)
		th := Config{}.withDefaults().Threshold.tesseractValue()
		if isBilevel(pix) {
			th = ThresholdOtsu.tesseractValue()
		}
		s.thresholds = append(s.thresholds, th)
	}
	return s
}

// cliRound runs tesseract on every file, two processes at a time, and
// returns pages per second.
func cliRound(t testing.TB, s benchSet) float64 {
	t.Helper()
	cfg := Config{}.withDefaults()
	files := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failure error
	start := time.Now()
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range files {
				f := s.files[i]
				cmd := exec.Command("tesseract", f, "stdout", "-l", strings.Join(cfg.Languages, "+"),
					"--psm", strconv.Itoa(cfg.PSM), "--dpi", strconv.Itoa(cfg.DPI),
					"-c", "thresholding_method="+s.thresholds[i])
				cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
				if out, err := cmd.CombinedOutput(); err != nil {
					mu.Lock()
					failure = fmt.Errorf("tesseract %s: %v\n%s", f, err, out)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range s.files {
		files <- i
	}
	close(files)
	wg.Wait()
	if failure != nil {
		t.Fatal(failure)
	}
	return float64(len(s.files)) / time.Since(start).Seconds()
}

// poolRound recognises every image with p and returns pages per second.
func poolRound(t testing.TB, p *Pool, s benchSet) float64 {
	t.Helper()
	start := time.Now()
	recognizeAll(t, p, s.imgs)
	return float64(len(s.imgs)) / time.Since(start).Seconds()
}

// TestFlajoletScan recognises the whole 28-page real scan (300 DPI
// bilevel) with a pool sized to the machine and reports throughput,
// confidence and a sample of the text.
func TestFlajoletScan(t *testing.T) {
	benchEnabled(t)
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
			r, err := p.Recognize(context.Background(), img)
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
