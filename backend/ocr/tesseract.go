package ocr

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/otiai10/gosseract/v2"
)

// client is one Tesseract instance. It belongs to the worker goroutine
// that created it: nothing else touches it.
type client struct {
	tess      *gosseract.Client
	langs     []string
	threshold string // configured thresholding_method
	current   string // thresholding_method set on tess
	dpi       int    // user_defined_dpi set on tess
	ready     bool   // Tesseract's Init has succeeded
}

// initMu serialises Tesseract's Init across clients: gosseract redirects
// the process's stderr (file descriptor 2 and the C stdio buffer) around
// Init, and two Inits interleaving could leave stderr pointing at
// /dev/null or at a buffer on a returned stack.
var initMu sync.Mutex

// blank is a small white image used to run Init ahead of the first page.
var blank = func() []byte {
	pix := make([]byte, 16*16)
	for i := range pix {
		pix[i] = 255
	}
	return encodeRaster(pix, 16, 16, DefaultDPI)
}()

// init loads the language models (gosseract initialises lazily, on the
// first recognition) under initMu.
func (c *client) init() error {
	if c.ready {
		return nil
	}
	initMu.Lock()
	defer initMu.Unlock()
	if err := c.tess.SetImageFromBytes(blank); err != nil {
		return fmt.Errorf("%w: %v", ErrTesseract, err)
	}
	if _, err := c.tess.Text(); err != nil {
		return initError(err, c.langs)
	}
	c.ready = true
	return nil
}

func newClient(cfg Config) (*client, error) {
	t := gosseract.NewClient()
	t.Trim = false
	if err := t.SetLanguage(cfg.Languages...); err != nil {
		t.Close()
		return nil, fmt.Errorf("%w: %v", ErrTesseract, err)
	}
	if cfg.TessdataDir != "" {
		if err := t.SetTessdataPrefix(cfg.TessdataDir); err != nil {
			t.Close()
			return nil, fmt.Errorf("%w: %v", ErrTesseract, err)
		}
	}
	// Variables are applied after Tesseract's Init (which would reset a
	// page segmentation mode set before it, as SetPageSegMode does).
	vars := map[string]string{
		"tessedit_pageseg_mode": strconv.Itoa(cfg.PSM),
		"user_defined_dpi":      strconv.Itoa(cfg.DPI),
		"thresholding_method":   cfg.Threshold.tesseractValue(),
	}
	for k, v := range cfg.Variables {
		vars[k] = v
	}
	for k, v := range vars {
		t.SetVariable(gosseract.SettableVariable(k), v) // never fails before Init
	}
	th := cfg.Threshold.tesseractValue()
	return &client{tess: t, langs: cfg.Languages, threshold: th, current: th, dpi: cfg.DPI}, nil
}

func (c *client) close() { c.tess.Close() }

// recognize runs Tesseract on an encoded image rendered at dpi, loading
// the models first if needed. It must run on a thread where
// singleThreadOpenMP was called. A bilevel image skips Sauvola's adaptive
// thresholding, which cannot change it (same text measured on the
// Flajolet scan) and costs 8% there.
func (c *client) recognize(img []byte, bilevel bool, dpi int) (Result, error) {
	if err := c.init(); err != nil {
		return Result{}, err
	}
	start, cpu := time.Now(), threadCPU()
	th := c.threshold
	if bilevel {
		th = ThresholdOtsu.tesseractValue()
	}
	if th != c.current {
		c.tess.SetVariable("thresholding_method", th) // Init is done: applied at once
		c.current = th
	}
	if dpi != c.dpi {
		c.tess.SetVariable("user_defined_dpi", strconv.Itoa(dpi))
		c.dpi = dpi
	}
	if err := c.tess.SetImageFromBytes(img); err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrImage, err)
	}
	// One recognition yields both the words (with their layout numbers)
	// and their confidences; Text() followed by a confidence query would
	// recognise the page twice.
	words, err := c.tess.GetBoundingBoxesVerbose()
	if err != nil {
		return Result{}, initError(err, c.langs)
	}
	res := assemble(words)
	res.Languages = strings.Join(c.langs, "+")
	res.Duration = time.Since(start)
	res.CPU = threadCPU() - cpu
	return res, nil
}

// assemble lays words out as Tesseract's GetUTF8Text does: words of a
// line joined by spaces, lines by newlines, and paragraphs and blocks by a
// blank line.
func assemble(words []gosseract.BoundingBox) Result {
	var b strings.Builder
	var sum float64
	n, line, para := 0, 0, 0
	var boxes []WordBox
	var prev gosseract.BoundingBox
	for _, w := range words {
		if strings.TrimSpace(w.Word) == "" {
			continue
		}
		if n > 0 {
			switch {
			case w.BlockNum != prev.BlockNum || w.ParNum != prev.ParNum:
				b.WriteString("\n\n")
				line++
				para++
			case w.LineNum != prev.LineNum:
				b.WriteByte('\n')
				line++
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString(w.Word)
		boxes = append(boxes, WordBox{Text: w.Word, Box: w.Box, Line: line, Para: para})
		sum += min(max(w.Confidence, 0), 100)
		n++
		prev = w
	}
	res := Result{Text: b.String(), Words: n, Boxes: boxes}
	if n > 0 {
		res.Confidence = sum / float64(n) / 100
	}
	return res
}

// failedLanguage matches Tesseract's message for a language it cannot load.
var failedLanguage = regexp.MustCompile(`Failed loading language '([^']+)'`)

// initError classifies an error from gosseract's lazy Init, which fails
// when the first language cannot be loaded (gosseract does not always
// relay Tesseract's message).
func initError(err error, langs []string) error {
	msg := strings.TrimSpace(err.Error())
	if m := failedLanguage.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%w: Tesseract cannot load %s.traineddata; install the package %s or set TESSDATA_PREFIX to the directory holding it",
			ErrNoLanguageData, m[1], aptPackage(m[1]))
	}
	if strings.Contains(msg, "failed to initialize TessBaseAPI") {
		pkgs := make([]string, len(langs))
		for i, l := range langs {
			pkgs[i] = aptPackage(l)
		}
		return fmt.Errorf("%w: Tesseract cannot load the data of %s; install %s or set TESSDATA_PREFIX to the directory holding the .traineddata files (%s)",
			ErrNoLanguageData, strings.Join(langs, "+"), strings.Join(pkgs, " "), msg)
	}
	return fmt.Errorf("%w: %s", ErrTesseract, msg)
}

// aptPackage names the Debian/Ubuntu package that ships lang's data.
func aptPackage(lang string) string {
	return "tesseract-ocr-" + strings.ReplaceAll(strings.ToLower(lang), "_", "-")
}

// tessdataCandidates are where distributions install traineddata files,
// most likely first (Debian/Ubuntu Tesseract 5 and 4, Fedora/Arch, source
// builds and Homebrew on Intel, Homebrew on Apple silicon).
var tessdataCandidates = []string{
	"/usr/share/tesseract-ocr/5/tessdata",
	"/usr/share/tesseract-ocr/4.00/tessdata",
	"/usr/share/tessdata",
	"/usr/local/share/tessdata",
	"/opt/homebrew/share/tessdata",
}

var languageCode = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// resolveTessdata picks the directory Tesseract will load languages from
// and checks every language has its traineddata there. Tesseract itself
// only fails when the first language is missing: it silently skips the
// others, so a missing "eng" in "fra+eng" would go unnoticed. It returns
// "" (Tesseract's compiled-in default) when no directory is known; Init
// errors then report a missing language.
func resolveTessdata(cfg Config, getenv func(string) string) (string, error) {
	for _, l := range cfg.Languages {
		if !languageCode.MatchString(l) {
			return "", fmt.Errorf("%w: %q is not a Tesseract language code (such as fra or eng)", ErrNoLanguageData, l)
		}
	}
	dir := cfg.TessdataDir
	if dir == "" {
		dir = fromPrefix(getenv("TESSDATA_PREFIX"))
	}
	if dir == "" {
		dir = firstCandidate(cfg.Languages[0])
	}
	if dir == "" {
		return "", nil
	}
	for _, l := range cfg.Languages {
		file := filepath.Join(dir, l+".traineddata")
		if _, err := os.Stat(file); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return "", fmt.Errorf("%w: %s.traineddata is not in %s; install the package %s or set TESSDATA_PREFIX to the directory holding it",
					ErrNoLanguageData, l, dir, aptPackage(l))
			}
			return "", fmt.Errorf("%w: %v", ErrNoLanguageData, err)
		}
	}
	return dir, nil
}

// fromPrefix accepts TESSDATA_PREFIX both as the tessdata directory
// (Tesseract 4 and 5) and as its parent (Tesseract 3).
func fromPrefix(prefix string) string {
	if prefix == "" {
		return ""
	}
	if sub := filepath.Join(prefix, "tessdata"); isDir(sub) {
		return sub
	}
	return prefix
}

// firstCandidate returns the first candidate holding lang, else the first
// existing candidate (so the error names a real place), else "".
func firstCandidate(lang string) string {
	first := ""
	for _, d := range tessdataCandidates {
		if !isDir(d) {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, lang+".traineddata")); err == nil {
			return d
		}
		if first == "" {
			first = d
		}
	}
	return first
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
