// Package bench measures Vika's ingestion the way the ingestion issue
// asks, for `vika bench ingest`: text pages per second against pdftotext,
// OCR pages per second against the tesseract command line, the peak
// memory of an ingest of a large deck in a child process, and what each
// file yields (page types, chunks, languages).
//
// The machines are shared, so every speed is a ratio to a reference tool
// run side by side on the same input in interleaved rounds (ours first in
// odd rounds, the reference first in even ones); absolute pages per
// second are reported but mean little on their own.
package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Files of the shared data set (../shared/data/pdfs) the OCR and memory
// measurements use by default.
const (
	ScanPDF   = "flajolet_martin1985_probabilistic_counting_SCANNED.pdf"
	SlidesPDF = "rouviere2019_intro_statistical_learning_slides.pdf"
)

// Aims of the ingestion issue.
const (
	// AimTextRatio: our text pages per second at least a third of
	// pdftotext's.
	AimTextRatio = 1.0 / 3
	// AimOCRRatio: our OCR within 1.3x of the tesseract CLI (CLI time /
	// ours >= 1/1.3).
	AimOCRRatio = 1 / 1.3
	// AimPeakRSSMB: the peak resident memory of the deck's ingest, in MB.
	AimPeakRSSMB = 400
)

// Defaults of Options.
const (
	DefaultRounds   = 3
	DefaultOCRPages = 8
)

// ErrNoData means the folder of PDFs is missing or holds no PDF.
var ErrNoData = errors.New("no PDFs to measure")

// Options configures Run.
type Options struct {
	// Dir holds the PDFs (every *.pdf in it, not recursively).
	Dir string
	// Rounds is the number of interleaved rounds of each comparison
	// (default DefaultRounds).
	Rounds int
	// OCRPages is how many pages of ScanFile the OCR comparison
	// recognises per round; 0 or less skips it.
	OCRPages int
	// ScanFile and MemoryFile name files of Dir (default ScanPDF and
	// SlidesPDF). A missing file skips its measurement, with a note.
	ScanFile   string
	MemoryFile string
	// Child is the command that ingests one file in a child process and
	// prints `vika ingest --json` output, without the file: the vika
	// binary with "bench", "ingest-child", which adds the child's own
	// peak RSS (peak_rss_bytes), or with "ingest", "--json" (the peak is
	// then the kernel's ru_maxrss, which on Linux includes this
	// process's own peak). Empty skips the memory measurement. ChildEnv
	// is added to the child's environment.
	Child    []string
	ChildEnv []string
	// Pdftotext and Tesseract are the reference tools (empty: looked up
	// in PATH). A missing tool skips its comparison, with a note.
	Pdftotext string
	Tesseract string
	// Progress receives one line per step (nil: quiet).
	Progress io.Writer
}

// Report is the outcome of Run. Its JSON form is `vika bench ingest --json`.
type Report struct {
	Dir     string        `json:"dir"`
	CPUs    int           `json:"cpus"`
	Rounds  int           `json:"rounds"`
	Text    *TextResult   `json:"text,omitempty"`
	OCR     *OCRResult    `json:"ocr,omitempty"`
	Memory  *MemoryResult `json:"memory,omitempty"`
	Files   []FileRow     `json:"files"`
	Skipped []string      `json:"skipped,omitempty"` // measurements not made, and why
	Seconds float64       `json:"seconds"`           // wall time of the whole run
}

// Run makes every measurement on the PDFs of opts.Dir. A measurement whose
// tool or file is missing is skipped and listed in Report.Skipped; an
// error that stops a measurement midway is returned.
func Run(ctx context.Context, opts Options) (Report, error) {
	start := time.Now()
	opts = opts.withDefaults()
	rep := Report{Dir: opts.Dir, CPUs: runtime.NumCPU(), Rounds: opts.Rounds}
	files, err := listPDFs(opts.Dir)
	if err != nil {
		return rep, err
	}
	opts.logf("surveying %d PDFs (text layer only, no OCR)", len(files))
	rep.Files, err = survey(ctx, files)
	if err != nil {
		return rep, err
	}
	text, skip, err := measureText(ctx, opts, rep.Files)
	if err != nil {
		return rep, err
	}
	rep.Text = text
	rep.skip(skip)
	ocrRes, skip, err := measureOCR(ctx, opts)
	if err != nil {
		return rep, err
	}
	rep.OCR = ocrRes
	rep.skip(skip)
	mem, skip, err := measureMemory(ctx, opts)
	if err != nil {
		return rep, err
	}
	rep.Memory = mem
	rep.skip(skip)
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

func (r *Report) skip(why string) {
	if why != "" {
		r.Skipped = append(r.Skipped, why)
	}
}

func (o Options) withDefaults() Options {
	if o.Rounds <= 0 {
		o.Rounds = DefaultRounds
	}
	if o.ScanFile == "" {
		o.ScanFile = ScanPDF
	}
	if o.MemoryFile == "" {
		o.MemoryFile = SlidesPDF
	}
	return o
}

func (o Options) logf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}

// path returns the path of a file of Dir, or "" if it does not exist.
func (o Options) path(name string) string {
	p := filepath.Join(o.Dir, name)
	if fi, err := os.Stat(p); err != nil || fi.IsDir() {
		return ""
	}
	return p
}

// listPDFs returns the *.pdf files of dir, sorted.
func listPDFs(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: cannot read %s: %v", ErrNoData, dir, err)
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".pdf") {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: %s holds no .pdf file", ErrNoData, dir)
	}
	slices.Sort(files)
	return files, nil
}

// DefaultDir returns the shared data set's PDF folder,
// ../shared/data/pdfs next to the repository root (found by walking up
// from dir to go.mod). It fails with ErrNoData, suggesting --pdfs, when
// there is no such folder.
func DefaultDir(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			pdfs := filepath.Join(filepath.Dir(d), "shared", "data", "pdfs")
			if fi, err := os.Stat(pdfs); err != nil || !fi.IsDir() {
				return "", fmt.Errorf("%w: the shared data set %s is not there (it is not part of a fresh clone); pass --pdfs DIR", ErrNoData, pdfs)
			}
			return pdfs, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("%w: %s is not inside the Vika repository, so the shared data set cannot be found; pass --pdfs DIR", ErrNoData, dir)
		}
		d = parent
	}
}
