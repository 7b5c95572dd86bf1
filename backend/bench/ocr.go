package bench

import (
	"bytes"
	"context"
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
	"time"

	"vika/backend/config"
	"vika/backend/ocr"
	"vika/backend/pdf"
)

// OCRResult is the OCR comparison: our Tesseract pool against the
// tesseract command line on the same page images.
type OCRResult struct {
	Comparison
	File string `json:"file"`
	// Workers is the pool's size, and the number of CLI processes run
	// at once.
	Workers   int      `json:"workers"`
	DPI       int      `json:"dpi"`
	CLIArgs   []string `json:"cli_args"` // after the image file
	RenderSec float64  `json:"render_seconds"`
	// OursChars and ReferenceChars count the non-space characters each
	// side recognised in one round (a sanity check).
	OursChars      int `json:"ours_chars"`
	ReferenceChars int `json:"reference_chars"`
}

// measureOCR renders the first opts.OCRPages pages of opts.ScanFile once,
// then recognises them in interleaved rounds with a new pool (as the
// engine configures it: workers = CPUs, model loading included) and with
// tesseract processes, as many at a time as the pool has workers, each
// with OMP_THREAD_LIMIT=1 and the pool's languages, page segmentation
// mode, DPI and thresholding. The CLI reads PNG files.
func measureOCR(ctx context.Context, opts Options) (*OCRResult, string, error) {
	if opts.OCRPages <= 0 {
		return nil, "OCR comparison: disabled (--ocr-pages 0)", nil
	}
	tool, err := lookTool(opts.Tesseract, "tesseract")
	if err != nil {
		return nil, "OCR comparison: the tesseract command (Debian package tesseract-ocr) is not installed", nil
	}
	path := opts.path(opts.ScanFile)
	if path == "" {
		return nil, fmt.Sprintf("OCR comparison: %s is not in %s", opts.ScanFile, opts.Dir), nil
	}
	cfg, err := poolConfig()
	if err != nil {
		return nil, "", fmt.Errorf("OCR comparison: %w", err)
	}
	start := time.Now()
	imgs, err := render(path, opts.OCRPages, float64(cfg.DPI))
	if err != nil {
		return nil, "", fmt.Errorf("OCR comparison: %w", err)
	}
	res := &OCRResult{File: filepath.Base(path), Workers: cfg.Workers, DPI: cfg.DPI, CLIArgs: cliArgs(cfg), RenderSec: time.Since(start).Seconds()}
	dir, err := os.MkdirTemp("", "vika-bench-ocr-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(dir)
	files, err := writePNGs(dir, imgs)
	if err != nil {
		return nil, "", fmt.Errorf("OCR comparison: %w", err)
	}
	opts.logf("ocr: %d pages of %s at %d DPI, %d workers, %d rounds against %s", len(imgs), res.File, cfg.DPI, cfg.Workers, opts.Rounds, tool)
	round := 0
	ours := func() (time.Duration, error) {
		d, chars, err := poolRound(ctx, cfg, imgs)
		res.OursChars = chars
		round++
		opts.logf("ocr: pool %d/%d: %.2fs", round, opts.Rounds, d.Seconds())
		return d, err
	}
	reference := func() (time.Duration, error) {
		d, chars, err := cliRound(ctx, tool, res.CLIArgs, cfg.Workers, files)
		res.ReferenceChars = chars
		opts.logf("ocr: tesseract CLI: %.2fs", d.Seconds())
		return d, err
	}
	rounds, err := interleave(opts.Rounds, ours, reference)
	if err != nil {
		return nil, "", fmt.Errorf("OCR comparison: %w", err)
	}
	res.Comparison = compare("tesseract CLI", len(imgs), rounds, AimOCRRatio)
	return res, "", nil
}

// poolConfig returns the engine's OCR configuration (VIKA_OCR_* applied)
// with every default filled in.
func poolConfig() (ocr.Config, error) {
	cfg, err := ocr.ConfigFromEnv(ocr.Config{}, config.Getenv)
	if err != nil {
		return cfg, err
	}
	p, err := ocr.NewPool(cfg)
	if err != nil {
		return cfg, err
	}
	defer p.Close()
	return p.Config(), nil
}

// cliArgs are the tesseract arguments equivalent to the pool's cfg.
func cliArgs(cfg ocr.Config) []string {
	args := []string{"stdout", "-l", strings.Join(cfg.Languages, "+"),
		"--psm", strconv.Itoa(cfg.PSM), "--dpi", strconv.Itoa(cfg.DPI),
		"-c", "thresholding_method=" + thresholdValue(cfg.Threshold)}
	if cfg.TessdataDir != "" {
		args = append(args, "--tessdata-dir", cfg.TessdataDir)
	}
	keys := make([]string, 0, len(cfg.Variables))
	for k := range cfg.Variables {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		args = append(args, "-c", k+"="+cfg.Variables[k])
	}
	return args
}

// thresholdValue is Tesseract's thresholding_method for t (the ocr
// package's mapping, which it does not export).
func thresholdValue(t ocr.Threshold) string {
	switch t {
	case ocr.ThresholdOtsu:
		return "0"
	case ocr.ThresholdLeptonicaOtsu:
		return "1"
	default:
		return "2"
	}
}

// render draws the first n pages of the PDF at path as the ingest does
// for OCR (8-bit gray).
func render(path string, n int, dpi float64) ([]*image.Gray, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d, err := pdf.Open(data, pdf.Limits{})
	if err != nil {
		return nil, err
	}
	defer d.Close()
	n = min(n, d.NumPages())
	imgs := make([]*image.Gray, 0, n)
	for i := 1; i <= n; i++ {
		img, err := d.Render(i, dpi)
		if err != nil {
			return nil, err
		}
		imgs = append(imgs, img)
	}
	return imgs, nil
}

func writePNGs(dir string, imgs []*image.Gray) ([]string, error) {
	files := make([]string, len(imgs))
	for i, img := range imgs {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return nil, err
		}
		files[i] = filepath.Join(dir, fmt.Sprintf("page%03d.png", i+1))
		if err := os.WriteFile(files[i], buf.Bytes(), 0o600); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// poolRound recognises imgs, all submitted at once, with a new pool and
// returns the time (pool start and model loading included) and the
// non-space characters recognised.
func poolRound(ctx context.Context, cfg ocr.Config, imgs []*image.Gray) (time.Duration, int, error) {
	start := time.Now()
	p, err := ocr.NewPool(cfg)
	if err != nil {
		return 0, 0, err
	}
	defer p.Close()
	texts := make([]string, len(imgs))
	errs := make([]error, len(imgs))
	var wg sync.WaitGroup
	for i, img := range imgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := p.Recognize(ctx, img, ocr.Hints{})
			texts[i], errs[i] = r.Text, err
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	chars := 0
	for i := range imgs {
		if errs[i] != nil {
			return 0, 0, fmt.Errorf("page %d: %w", i+1, errs[i])
		}
		chars += nonSpace(texts[i])
	}
	return elapsed, chars, nil
}

// cliRound runs tesseract on every file, parallel processes at a time,
// and returns the time and the non-space characters printed.
func cliRound(ctx context.Context, tool string, args []string, parallel int, files []string) (time.Duration, int, error) {
	env := append(withoutVar(os.Environ(), "OMP_THREAD_LIMIT"), "OMP_THREAD_LIMIT=1")
	texts := make([]string, len(files))
	errs := make([]error, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range max(parallel, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var stdout, stderr bytes.Buffer
				cmd := exec.CommandContext(ctx, tool, append([]string{files[i]}, args...)...)
				cmd.Env, cmd.Stdout, cmd.Stderr = env, &stdout, &stderr
				if err := cmd.Run(); err != nil {
					errs[i] = fmt.Errorf("tesseract %s: %v: %s", filepath.Base(files[i]), err, strings.TrimSpace(stderr.String()))
				}
				texts[i] = stdout.String()
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	elapsed := time.Since(start)
	chars := 0
	for i := range files {
		if errs[i] != nil {
			return 0, 0, errs[i]
		}
		chars += nonSpace(texts[i])
	}
	return elapsed, chars, nil
}

// withoutVar returns env without the variable name.
func withoutVar(env []string, name string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
