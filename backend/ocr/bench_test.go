package ocr

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

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
