// Package ocr recognises the text of page images with Tesseract (through
// gosseract): a Pool of Tesseract clients, one per core, each running one
// OpenMP thread, with a per-page timeout that never wedges the pool.
//
// Tesseract clients are not goroutine safe; the Pool hands each call its
// own client, so a Pool may be used from many goroutines at once. A client
// whose page times out (or whose caller gives up) is never reused while
// Tesseract still runs on it: gosseract cannot interrupt a recognition,
// so the client finishes the page in the background and only then goes
// back to the pool.
//
// Errors are sentinels (ErrTimeout, ErrNoLanguageData, ErrClosed, ErrImage,
// ErrTesseract) wrapped with a message safe to show; test them with
// errors.Is. A cancelled context yields an error that wraps ctx.Err().
//
// Images are handed to Tesseract as uncompressed grey TIFF, the fastest
// format for Leptonica to read. Config.DPI must match the resolution the
// pages were rendered at. The defaults were chosen by measurement (see
// MEASUREMENTS.md and TestSweep).
//
// CER and Normalize measure recognition quality against a reference text.
package ocr

import (
	"context"
	"errors"
	"fmt"
	"image"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"vika/backend/config"
	"vika/backend/message"
)

// Recognizer turns the image of a page (or of a region of a page) into
// text. Implementations must be safe for concurrent use.
type Recognizer interface {
	Recognize(ctx context.Context, img image.Image, h Hints) (Result, error)
}

// Hints are what the caller knows of one image; zero fields take the
// pool's configuration.
type Hints struct {
	// Lang is the image's language as an ISO 639-1 code ("fr") when it
	// is known: Tesseract then recognises with that language alone, if
	// it is one of Config.Languages (else, or when empty, with all of
	// them). One language does half the work of fra+eng (TestLessOCR).
	Lang string
	// DPI is the resolution the image was rendered at (default
	// Config.DPI).
	DPI int
}

// tesseractCodes maps the ISO 639-1 codes package langid answers to
// Tesseract's language codes.
var tesseractCodes = map[string]string{
	"en": "eng", "fr": "fra", "de": "deu", "es": "spa", "it": "ita", "pt": "por", "nl": "nld",
}

// languagesFor returns the Tesseract languages to recognise an image
// in under h: Lang's alone when it is configured, else all of them.
func (c Config) languagesFor(h Hints) []string {
	if code, ok := tesseractCodes[h.Lang]; ok && slices.Contains(c.Languages, code) {
		return []string{code}
	}
	return c.Languages
}

// Result is the text recognised in one image.
type Result struct {
	// Text has one line per recognised text line and a blank line
	// between paragraphs.
	Text string
	// Confidence is the mean word confidence, in [0, 1]; 0 when no word
	// was recognised.
	Confidence float64
	// Words is the number of recognised words.
	Words int
	// Boxes are the recognised words with their boxes in the image's
	// pixels, in reading order (scanned tables are rebuilt from them).
	Boxes []WordBox
	// Languages are the Tesseract languages the image was recognised
	// with, joined by "+" ("fra", "fra+eng").
	Languages string
	// Duration is the time Tesseract spent on the image (the wait for a
	// free client, the image conversion and a new client's loading of
	// the models are not included).
	Duration time.Duration
	// CPU is the CPU time Tesseract spent on the image (its thread's
	// user and system time; 0 where the system does not tell): unlike
	// Duration, it does not grow with the machine's load.
	CPU time.Duration
}

// WordBox is one recognised word: its text, its box in the image's
// pixels and the line it belongs to (numbered in reading order).
type WordBox struct {
	Text string
	Box  image.Rectangle
	Line int
	// Para numbers the paragraph (Tesseract's block and paragraph).
	Para int
}

// Sentinel errors. Each is returned wrapped with details (%w).
var (
	ErrTimeout        = errors.New("OCR timed out")
	ErrNoLanguageData = errors.New("OCR language data missing")
	ErrClosed         = errors.New("OCR pool closed")
	ErrImage          = errors.New("image cannot be recognised")
	ErrTesseract      = errors.New("tesseract failed")
)

func init() {
	message.Register(ErrNoLanguageData, message.NoOCRData)
	for _, err := range []error{ErrTimeout, ErrClosed, ErrImage, ErrTesseract} {
		message.Register(err, message.OCRFailed)
	}
}

// Page segmentation modes worth choosing from (Tesseract's numbering).
const (
	PSMAutoOSD = 1 // automatic segmentation with orientation and script detection
	PSMAuto    = 3 // fully automatic segmentation, no OSD (Tesseract's default)
	PSMBlock   = 6 // a single uniform block of text
)

// Threshold selects how Tesseract turns grey pixels into ink and paper.
type Threshold int

const (
	// ThresholdDefault is ThresholdSauvola.
	ThresholdDefault Threshold = iota
	// ThresholdOtsu is Tesseract's own default: one global Otsu level.
	ThresholdOtsu
	// ThresholdLeptonicaOtsu is Leptonica's tiled Otsu.
	ThresholdLeptonicaOtsu
	// ThresholdSauvola adapts the level to each neighbourhood.
	ThresholdSauvola
)

// tesseractValue is the value of Tesseract's thresholding_method.
func (t Threshold) tesseractValue() string {
	switch t {
	case ThresholdOtsu:
		return "0"
	case ThresholdLeptonicaOtsu:
		return "1"
	default:
		return "2"
	}
}

// Defaults, chosen by measurement on the French scan of the shared data
// set (TestSweep): rendered at 300 DPI, Sauvola thresholding and automatic
// page segmentation gave the lowest character error rate at no speed cost.
// psm 4 (one column) scored within noise of psm 3 but would interleave
// the columns of two-column papers; psm 6 and Otsu scored worse.
const (
	DefaultTimeout   = 60 * time.Second
	DefaultDPI       = 300
	DefaultPSM       = PSMAuto
	DefaultThreshold = ThresholdSauvola
)

// DefaultLanguages are the Tesseract languages used when Config.Languages
// is empty: French first, then English.
var DefaultLanguages = []string{"fra", "eng"}

// Config configures a Pool. The zero value means: DefaultLanguages, one
// client per CPU, DefaultTimeout, DefaultPSM, DefaultDPI,
// DefaultThreshold, Tesseract's own tessdata directory.
type Config struct {
	// Languages are Tesseract language codes ("fra", "eng", ...); the
	// first one is the primary language.
	Languages []string
	// Workers is the number of Tesseract clients, hence of pages
	// recognised at once.
	Workers int
	// Timeout bounds the recognition of one image. Negative disables it.
	Timeout time.Duration
	// PSM is Tesseract's page segmentation mode.
	PSM int
	// DPI is the resolution the images are rendered at; Tesseract's
	// thresholds depend on it (images carry no resolution).
	DPI int
	// Threshold is Tesseract's thresholding method.
	Threshold Threshold
	// Binarize thresholds images with a global Otsu level in Go before
	// Tesseract sees them. It measured worse than every Tesseract method
	// and is off by default.
	Binarize bool
	// TessdataDir is the directory holding the *.traineddata files.
	// Empty: $TESSDATA_PREFIX, else Tesseract's compiled-in default.
	TessdataDir string
	// Variables are extra Tesseract variables set on every client.
	Variables map[string]string
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	if len(c.Languages) == 0 {
		c.Languages = DefaultLanguages
	}
	c.Languages = slices.Clone(c.Languages)
	c.Variables = maps.Clone(c.Variables)
	if c.Workers <= 0 {
		c.Workers = runtime.NumCPU()
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.PSM == 0 {
		c.PSM = DefaultPSM
	}
	if c.DPI <= 0 {
		c.DPI = DefaultDPI
	}
	if c.Threshold == ThresholdDefault {
		c.Threshold = DefaultThreshold
	}
	return c
}

// Environment variables read by ConfigFromEnv (declared in package config).
var (
	EnvWorkers   = config.OCRWorkers.Name   // number of clients, e.g. 2
	EnvTimeout   = config.OCRTimeout.Name   // per-page timeout, e.g. 90s
	EnvLanguages = config.OCRLanguages.Name // e.g. fra+eng
)

// ConfigFromEnv returns base with the fields set by the VIKA_OCR_*
// variables that getenv reports (pass config.Getenv). An unparsable value is
// an error naming the variable.
func ConfigFromEnv(base Config, getenv func(string) string) (Config, error) {
	if v := strings.TrimSpace(getenv(EnvWorkers)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return base, fmt.Errorf("%s=%q: want a positive number of OCR workers", EnvWorkers, v)
		}
		base.Workers = n
	}
	if v := strings.TrimSpace(getenv(EnvTimeout)); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return base, fmt.Errorf("%s=%q: want a duration such as 60s", EnvTimeout, v)
		}
		base.Timeout = d
	}
	if v := strings.TrimSpace(getenv(EnvLanguages)); v != "" {
		base.Languages = strings.FieldsFunc(v, func(r rune) bool { return r == '+' || r == ',' || r == ' ' })
	}
	return base, nil
}

// PoorConfidence is the mean word confidence below which a page's
// reading is poor. Measured (straighten's TestPoorThreshold): pages read
// well score 0.964 to 0.966 (a clean render, photos of it straightened)
// and the real scans 0.74 to 0.88 (the 1985 scan's math-heavy pages 0.74
// to 0.78, MEASUREMENTS.md); pages read badly 0.29 to 0.35 (a page upside
// down, blurred photos of 500 and 700 pixels rendered four and three
// times larger). Confidence cannot see a reading that missed most of a
// page (a photo lying sideways, not straightened: 12 words at 0.97).
const PoorConfidence = 0.6

// Poor reports whether res is a poor reading: words recognised with a
// mean confidence under PoorConfidence (no word at all is not poor: a
// blank page).
func Poor(res Result) bool { return res.Words > 0 && res.Confidence < PoorConfidence }
