package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/index"
	"vika/backend/ingest"
	"vika/backend/pdf"
	"vika/backend/store"
)

// FileRow is what the survey ingest made of one file.
type FileRow struct {
	File      string                  `json:"file"`
	Pages     int                     `json:"pages"`
	PageTypes map[corpus.PageType]int `json:"page_types"`
	// OCRNeeded counts the pages the app OCRs (scanned pages whole,
	// mixed pages' image regions); the survey itself runs no OCR, so
	// their OCR text is not in Chunks or Lang.
	OCRNeeded int `json:"ocr_needed"`
	// Scanned: most pages are scans. Such files are left out of the
	// text comparison (pdftotext finds nothing in them).
	Scanned    bool               `json:"scanned"`
	Chunks     int                `json:"chunks"`
	Lang       string             `json:"lang"`
	LangShares map[string]float64 `json:"lang_shares,omitempty"`
	LangMixed  bool               `json:"lang_mixed,omitempty"`
	Failed     int                `json:"failed_pages,omitempty"`
	Seconds    ingest.Timings     `json:"seconds"`
	Error      string             `json:"error,omitempty"`
}

// TextResult is the text comparison: our ingest without OCR and
// embedding against pdftotext on the born-digital files.
type TextResult struct {
	Comparison
	Files    []string `json:"files"`
	Excluded []string `json:"excluded,omitempty"` // scanned or unreadable files
	// Stages are our mean seconds per round in each stage.
	Stages ingest.Timings `json:"stage_seconds_per_round"`
	// OursChars and ReferenceChars count the non-space characters each
	// side extracted in one round (a sanity check: similar amounts).
	OursChars      int `json:"ours_chars"`
	ReferenceChars int `json:"reference_chars"`
}

// pipeline is the engine's ingest of a file (engine.Ingest:
// validate, extract, classify, detect languages, chunk, then store and
// index as the engine's commit does) without OCR, and without embedding.
// The engine itself cannot be told to skip OCR, and OCR is measured on
// its own (see measureOCR).
type pipeline struct {
	opts  ingest.Options
	store *store.Store
	lex   *index.Lexical
}

func newPipeline(ctx context.Context) (*pipeline, error) {
	cfg := engine.DefaultConfig()
	store, err := store.Open(ctx)
	if err != nil {
		return nil, err
	}
	lex, err := index.NewLexical()
	if err != nil {
		store.Close()
		return nil, err
	}
	opts := ingest.Options{Limits: pdf.Limits{MaxBytes: cfg.MaxFileBytes, MaxPages: cfg.MaxPages}}
	return &pipeline{opts: opts, store: store, lex: lex}, nil
}

func (p *pipeline) Close() error { return errors.Join(p.lex.Close(), p.store.Close()) }

// ingest reads, processes, stores and indexes the file at path.
func (p *pipeline) ingest(ctx context.Context, path string) (ingest.Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return ingest.Result{}, err
	}
	res, err := ingest.Run(ctx, filepath.Base(path), data, p.opts, nil)
	if err != nil {
		return ingest.Result{}, err
	}
	start := time.Now()
	if err := p.store.AddDocument(ctx, res.Doc, res.Pages, res.Chunks); err != nil {
		return ingest.Result{}, err
	}
	if err := p.lex.Add(ctx, res.Chunks); err != nil {
		return ingest.Result{}, err
	}
	res.Timings.Index = time.Since(start).Seconds()
	return res, nil
}

// survey ingests every file once with the pipeline (which also warms up
// the language models and the file cache) and describes it. A file the
// pipeline rejects (a scan without text layer, an encrypted file) is
// described from its pages' classification.
func survey(ctx context.Context, files []string) ([]FileRow, error) {
	p, err := newPipeline(ctx)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	rows := make([]FileRow, 0, len(files))
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res, err := p.ingest(ctx, f)
		if err != nil {
			rows = append(rows, probe(f, err))
			continue
		}
		d := res.Doc
		rows = append(rows, describe(FileRow{
			File: d.File, Pages: d.Pages, PageTypes: d.PageTypes, Chunks: d.Chunks,
			Lang: d.Lang, LangShares: d.LangShares, LangMixed: d.LangMixed, Failed: len(d.FailedPages), Seconds: res.Timings,
		}))
	}
	return rows, nil
}

// probe describes a file the pipeline rejected from its pages'
// classification alone.
func probe(path string, cause error) FileRow {
	row := FileRow{File: filepath.Base(path), Error: cause.Error(), PageTypes: map[corpus.PageType]int{}}
	data, err := os.ReadFile(path)
	if err != nil {
		return row
	}
	d, err := pdf.Open(data, pdf.Limits{})
	if err != nil {
		return row
	}
	defer d.Close()
	row.Pages = d.NumPages()
	for n := 1; n <= row.Pages; n++ {
		if p, err := d.Page(n); err == nil {
			row.PageTypes[p.Class.Type]++
		}
	}
	return describe(row)
}

func describe(row FileRow) FileRow {
	row.OCRNeeded = row.PageTypes[corpus.PageScanned] + row.PageTypes[corpus.PageMixed]
	row.Scanned = 2*row.PageTypes[corpus.PageScanned] > row.Pages
	return row
}

// measureText compares the pipeline with pdftotext on the born-digital
// files of rows.
func measureText(ctx context.Context, opts Options, rows []FileRow) (*TextResult, string, error) {
	tool, err := lookTool(opts.Pdftotext, "pdftotext")
	if err != nil {
		return nil, "text comparison: pdftotext (Debian package poppler-utils) is not installed", nil
	}
	res := &TextResult{}
	var paths []string
	pages := 0
	for _, r := range rows {
		if r.Scanned || r.Error != "" {
			res.Excluded = append(res.Excluded, r.File)
			continue
		}
		res.Files = append(res.Files, r.File)
		paths = append(paths, filepath.Join(opts.Dir, r.File))
		pages += r.Pages
	}
	if len(paths) == 0 {
		return nil, "text comparison: no born-digital PDF in " + opts.Dir, nil
	}
	opts.logf("text: %d pages in %d files, %d rounds against %s", pages, len(paths), opts.Rounds, tool)
	var stages ingest.Timings
	round := 0
	ours := func() (time.Duration, error) {
		d, chars, err := oursRound(ctx, paths, &stages)
		res.OursChars = chars
		round++
		opts.logf("text: ours %d/%d: %.2fs", round, opts.Rounds, d.Seconds())
		return d, err
	}
	reference := func() (time.Duration, error) {
		d, chars, err := pdftotextRound(ctx, tool, paths)
		res.ReferenceChars = chars
		opts.logf("text: pdftotext: %.2fs", d.Seconds())
		return d, err
	}
	rounds, err := interleave(opts.Rounds, ours, reference)
	if err != nil {
		return nil, "", fmt.Errorf("text comparison: %w", err)
	}
	res.Comparison = compare("pdftotext", pages, rounds, AimTextRatio)
	res.Stages = scale(stages, 1/float64(len(rounds)))
	return res, "", nil
}

// oursRound ingests paths into a fresh session (its setup not timed) and
// returns the time the ingests took and the non-space characters of
// their pages; it adds each stage's seconds to stages.
func oursRound(ctx context.Context, paths []string, stages *ingest.Timings) (time.Duration, int, error) {
	p, err := newPipeline(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer p.Close()
	var total time.Duration
	chars := 0
	for _, path := range paths {
		start := time.Now()
		res, err := p.ingest(ctx, path)
		total += time.Since(start)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", filepath.Base(path), err)
		}
		*stages = add(*stages, res.Timings)
		for _, pg := range res.Pages {
			chars += nonSpace(pg.Text)
		}
	}
	return total, chars, nil
}

// pdftotextRound runs `pdftotext FILE -` on each path, one after the
// other, and returns the time and the non-space characters printed.
func pdftotextRound(ctx context.Context, tool string, paths []string) (time.Duration, int, error) {
	var total time.Duration
	chars := 0
	for _, path := range paths {
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, tool, path, "-")
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		err := cmd.Run()
		total += time.Since(start)
		if err != nil {
			return 0, 0, fmt.Errorf("pdftotext %s: %v: %s", filepath.Base(path), err, strings.TrimSpace(stderr.String()))
		}
		chars += nonSpace(stdout.String())
	}
	return total, chars, nil
}

func nonSpace(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

func add(a, b ingest.Timings) ingest.Timings {
	return ingest.Timings{
		Validate: a.Validate + b.Validate, Extract: a.Extract + b.Extract, OCR: a.OCR + b.OCR,
		Lang: a.Lang + b.Lang, Chunk: a.Chunk + b.Chunk, Index: a.Index + b.Index,
	}
}

func scale(t ingest.Timings, k float64) ingest.Timings {
	return ingest.Timings{
		Validate: t.Validate * k, Extract: t.Extract * k, OCR: t.OCR * k,
		Lang: t.Lang * k, Chunk: t.Chunk * k, Index: t.Index * k,
	}
}

// lookTool returns path if set, else name's path in PATH.
func lookTool(path, name string) (string, error) {
	if path != "" {
		return exec.LookPath(path)
	}
	return exec.LookPath(name)
}
