package ocr

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/otiai10/gosseract/v2"
)

const sampleBody = "Vika recognises scanned pages quickly. La biodiversité des échantillons est évaluée avec précision."

// sample is the top of a generated page holding sampleBody, small enough
// to recognise in a fraction of a second.
func sample(t testing.TB) image.Image { return crop(textPage(t, sampleBody), 420) }

// densePage is half an A4 page of text at 300 DPI: a second or more of work.
func densePage(t testing.TB) image.Image {
	var b strings.Builder
	for i := range 25 {
		fmt.Fprintf(&b, "Ligne %d : la courbe de raréfaction est utilisée pour déterminer la profondeur. ", i)
	}
	return textPage(t, b.String())
}

func newPool(t testing.TB, cfg Config) *Pool {
	t.Helper()
	p, err := NewPool(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func wantWords(t testing.TB, text string, words ...string) {
	t.Helper()
	for _, w := range words {
		if !strings.Contains(text, w) {
			t.Errorf("recognised text lacks %q:\n%s", w, text)
		}
	}
}

func TestRecognize(t *testing.T) {
	p := newPool(t, Config{Workers: 1})
	res, err := p.Recognize(context.Background(), sample(t), Hints{})
	if err != nil {
		t.Fatal(err)
	}
	wantWords(t, res.Text, "Vika", "recognises", "scanned", "biodiversité", "échantillons", "évaluée", "précision")
	if res.Confidence <= 0 || res.Confidence > 1 {
		t.Errorf("Confidence = %v, want in (0, 1]", res.Confidence)
	}
	if res.Confidence < 0.8 {
		t.Errorf("Confidence = %.2f on clean text, want >= 0.8", res.Confidence)
	}
	if got := len(strings.Fields(res.Text)); res.Words != got {
		t.Errorf("Words = %d, text has %d", res.Words, got)
	}
	if res.Duration <= 0 {
		t.Errorf("Duration = %v", res.Duration)
	}
	if runtime.GOOS == "linux" && (res.CPU <= 0 || res.CPU > 2*res.Duration) {
		t.Errorf("CPU = %v for a recognition of %v on one thread", res.CPU, res.Duration)
	}
	if res.Languages != "fra+eng" {
		t.Errorf("Languages = %q, want fra+eng", res.Languages)
	}
	en, err := p.Recognize(context.Background(), sample(t), Hints{Lang: "en"})
	if err != nil || en.Languages != "eng" {
		t.Errorf("with Lang en: languages %q, err %v; want eng", en.Languages, err)
	}
	de, err := p.Recognize(context.Background(), sample(t), Hints{Lang: "de"}) // not configured
	if err != nil || de.Languages != "fra+eng" {
		t.Errorf("with Lang de: languages %q, err %v; want fra+eng (deu is not configured)", de.Languages, err)
	}
}

func TestRecognizeBlank(t *testing.T) {
	p := newPool(t, Config{Workers: 1})
	img := image.NewGray(image.Rect(0, 0, 600, 400))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	res, err := p.Recognize(context.Background(), img, Hints{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "" || res.Words != 0 || res.Confidence != 0 {
		t.Errorf("blank image: %+v, want no text", res)
	}
}

func TestRecognizeBadImage(t *testing.T) {
	p := newPool(t, Config{Workers: 1})
	for _, img := range []image.Image{nil, image.NewGray(image.Rect(0, 0, 2, 2)), image.NewGray(image.Rect(0, 0, 40000, 1))} {
		if _, err := p.Recognize(context.Background(), img, Hints{}); !errors.Is(err, ErrImage) {
			t.Errorf("Recognize(%v) error = %v, want ErrImage", describeImage(img), err)
		}
	}
}

func describeImage(img image.Image) string {
	if img == nil {
		return "nil"
	}
	return img.Bounds().String()
}

// TestTimeout: a page that takes too long returns ErrTimeout at once; its
// client finishes in the background and is not reused until then, so the
// single-worker pool serves the next call after it.
func TestTimeout(t *testing.T) {
	p := newPool(t, Config{Workers: 1})
	_, err := p.recognize(context.Background(), densePage(t), Hints{}, time.Millisecond)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("error = %v, want ErrTimeout", err)
	}
	if n := p.finished.Load(); n != 0 {
		t.Errorf("the timeout came back after Tesseract finished (%d images done)", n)
	}
	res, err := p.Recognize(context.Background(), sample(t), Hints{})
	if err != nil {
		t.Fatalf("after a timeout: %v", err)
	}
	wantWords(t, res.Text, "biodiversité")
}

func TestCancel(t *testing.T) {
	p := newPool(t, Config{Workers: 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Recognize(ctx, sample(t), Hints{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: error = %v, want context.Canceled", err)
	}

	dense := densePage(t)
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel) // after the image is handed over
	_, err := p.Recognize(ctx, dense, Hints{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel during recognition: error = %v, want context.Canceled", err)
	}
	if n := p.finished.Load(); n != 0 {
		t.Errorf("the cancellation came back after Tesseract finished (%d images done)", n)
	}

	// The worker is still busy with the dense page: a caller waiting for
	// it gives up with its own context.
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := p.Recognize(ctx, sample(t), Hints{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting for a busy worker: error = %v, want context.DeadlineExceeded", err)
	}

	if _, err := p.Recognize(context.Background(), sample(t), Hints{}); err != nil {
		t.Fatalf("after cancellations: %v", err)
	}
	// The single worker took the dense page before the cancellation and
	// finished it before this last image.
	if n := p.finished.Load(); n < 2 {
		t.Errorf("%d images finished, want the dense page and the last one", n)
	}
}

// TestConcurrent shares one pool between many goroutines (run with -race).
func TestConcurrent(t *testing.T) {
	p := newPool(t, Config{Workers: 2})
	other := crop(textPage(t, "Probabilistic counting algorithms for data base applications."), 300)
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			img, want := sample(t), "biodiversité"
			if i%2 == 1 {
				img, want = other, "Probabilistic"
			}
			res, err := p.Recognize(context.Background(), img, Hints{})
			if err != nil {
				t.Errorf("goroutine %d: %v", i, err)
				return
			}
			wantWords(t, res.Text, want)
		}()
	}
	wg.Wait()
	p.mu.Lock()
	started := p.started
	p.mu.Unlock()
	if started > 2 {
		t.Errorf("%d workers started, want at most 2", started)
	}
}

func TestClosed(t *testing.T) {
	p := newPool(t, Config{Workers: 1})
	if _, err := p.Recognize(context.Background(), sample(t), Hints{}); err != nil {
		t.Fatal(err)
	}
	p.Close()
	p.Close()
	if _, err := p.Recognize(context.Background(), sample(t), Hints{}); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: error = %v, want ErrClosed", err)
	}
}

func TestMissingLanguage(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"unknown second language", Config{Languages: []string{"fra", "zzz"}}, []string{"zzz.traineddata", "tesseract-ocr-zzz"}},
		{"unknown first language", Config{Languages: []string{"zzz", "eng"}}, []string{"zzz.traineddata"}},
		{"empty tessdata", Config{TessdataDir: t.TempDir()}, []string{"fra.traineddata", "tesseract-ocr-fra"}},
		{"not a code", Config{Languages: []string{"../eng"}}, []string{`"../eng"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewPool(tt.cfg)
			if !errors.Is(err, ErrNoLanguageData) {
				t.Fatalf("error = %v, want ErrNoLanguageData", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// TestInitError: when no tessdata directory is known, Tesseract's own
// Init failure is reported as ErrNoLanguageData naming the packages.
func TestInitError(t *testing.T) {
	cfg := Config{Languages: []string{"zzz"}}.withDefaults()
	p := &Pool{cfg: cfg, jobs: make(chan job), done: make(chan struct{})} // skip resolveTessdata
	defer p.Close()
	_, err := p.Recognize(context.Background(), image.NewGray(image.Rect(0, 0, 10, 10)), Hints{})
	if !errors.Is(err, ErrNoLanguageData) || !strings.Contains(err.Error(), "tesseract-ocr-zzz") {
		t.Errorf("error = %v, want ErrNoLanguageData naming tesseract-ocr-zzz", err)
	}
	if err := initError(errors.New("Error opening data file x\nFailed loading language 'abc'"), nil); !strings.Contains(err.Error(), "abc.traineddata") {
		t.Errorf("initError = %v", err)
	}
}

func TestConfigFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cfg, err := ConfigFromEnv(Config{Workers: 3}, env(map[string]string{
		EnvWorkers: "4", EnvTimeout: "90s", EnvLanguages: "eng+fra",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Workers != 4 || cfg.Timeout != 90*time.Second || strings.Join(cfg.Languages, "+") != "eng+fra" {
		t.Errorf("ConfigFromEnv = %+v", cfg)
	}
	if cfg, _ := ConfigFromEnv(Config{Workers: 3}, env(nil)); cfg.Workers != 3 {
		t.Errorf("no variables: Workers = %d, want 3 kept", cfg.Workers)
	}
	for _, bad := range []map[string]string{{EnvWorkers: "0"}, {EnvWorkers: "two"}, {EnvTimeout: "60"}} {
		if _, err := ConfigFromEnv(Config{}, env(bad)); err == nil {
			t.Errorf("ConfigFromEnv(%v) accepted a bad value", bad)
		}
	}
	d := Config{}.withDefaults()
	if d.Workers < 1 || d.Timeout != DefaultTimeout || d.PSM != DefaultPSM || d.DPI != DefaultDPI || len(d.Languages) != 2 {
		t.Errorf("defaults = %+v", d)
	}
}

// TestSingleThreadOpenMP checks the mechanism that keeps Tesseract to one
// thread per page (see openmp.go) on the test's own locked thread, which
// is discarded when the test ends.
func TestSingleThreadOpenMP(t *testing.T) {
	runtime.LockOSThread() // never unlocked: the thread dies with the test
	if !singleThreadOpenMP() {
		t.Skip("no OpenMP runtime in this process (Tesseract built without OpenMP)")
	}
	if got := openMPMaxActiveLevels(); got != 0 {
		t.Errorf("max active levels = %d after singleThreadOpenMP, want 0", got)
	}
	if got := os.Getenv("OMP_THREAD_LIMIT"); got == "" {
		t.Error("OMP_THREAD_LIMIT is not set for child processes")
	}
}

func TestAssemble(t *testing.T) {
	box := func(word string, conf float64, block, par, line int) gosseract.BoundingBox {
		return gosseract.BoundingBox{Word: word, Confidence: conf, BlockNum: block, ParNum: par, LineNum: line}
	}
	res := assemble([]gosseract.BoundingBox{
		box("Thèse", 90, 1, 1, 1), box("de", 80, 1, 1, 1), box("médecine", 70, 1, 1, 1),
		box("La", 100, 2, 1, 1), box("diversité", 60, 2, 1, 1),
		box("alpha", 100, 2, 1, 2),
		box(" ", 0, 2, 1, 2), // empty words are skipped
		box("Elle", 120, 2, 2, 1),
	})
	want := "Thèse de médecine\n\nLa diversité\nalpha\n\nElle"
	if res.Text != want {
		t.Errorf("Text = %q, want %q", res.Text, want)
	}
	if res.Words != 7 {
		t.Errorf("Words = %d, want 7", res.Words)
	}
	if want := (90 + 80 + 70 + 100 + 60 + 100 + 100) / 700.0; math.Abs(res.Confidence-want) > 1e-9 {
		t.Errorf("Confidence = %v, want %v (clamped to 100 per word)", res.Confidence, want)
	}
	if empty := assemble(nil); empty.Text != "" || empty.Words != 0 || empty.Confidence != 0 {
		t.Errorf("no words: %+v", empty)
	}
}
