package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"unicode/utf8"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/session"
)

// ingestReport is one line of `vika ingest --json`. Field names are a
// contract: scripts and tests read them.
type ingestReport struct {
	File      string                  `json:"file"`
	DocID     string                  `json:"doc_id,omitempty"`
	Format    string                  `json:"format,omitempty"` // a file converted to PDF: "pptx", "epub", "png"...
	Unit      string                  `json:"unit,omitempty"`   // "slide" for a slide deck
	Pages     int                     `json:"pages"`
	PageTypes map[corpus.PageType]int `json:"page_types,omitempty"`
	Lang      string                  `json:"lang"`
	LangMixed bool                    `json:"lang_mixed,omitempty"`
	OCRPages  int                     `json:"ocr_pages"`
	Chunks    int                     `json:"chunks"`
	// Tables, Figures and Formulas count the regions detected.
	Tables   int             `json:"tables"`
	Figures  int             `json:"figures"`
	Formulas int             `json:"formulas"`
	Failed   []int           `json:"failed_pages,omitempty"`
	Seconds  *ingest.Timings `json:"seconds,omitempty"`
	// Cached is set when the document came from the --cache.
	Cached   bool         `json:"cached,omitempty"`
	PageList []pageReport `json:"page_list,omitempty"`
	// PageErrors says why each failed page failed (a page over its time
	// budget, one that crashed the PDF reader, ...).
	PageErrors []pageError `json:"page_errors,omitempty"`
	Error      string      `json:"error,omitempty"`
	// Warning is the document's warning in English (truncated, a budget
	// that cut it).
	Warning string `json:"warning,omitempty"`
}

// pageError is a failed page of `vika ingest --json`.
type pageError struct {
	Page  int    `json:"page"`
	Error string `json:"error"`
}

// pageReport is one page of `vika ingest --json --pages`.
type pageReport struct {
	Page          int      `json:"page"`
	Type          string   `json:"type"`
	Lang          string   `json:"lang"`
	Chars         int      `json:"chars"`
	OCRConfidence *float64 `json:"ocr_confidence"`
	Text          string   `json:"text"`
	Error         string   `json:"error,omitempty"`
	// Regions lists the page's tables, figures and formulas with their
	// boxes (x0, y0, x1, y1 in points from the top left).
	Regions []regionReport `json:"regions,omitempty"`
}

// regionReport is one region of `vika ingest --json --pages`.
type regionReport struct {
	Kind    corpus.ChunkKind `json:"kind"`
	BBox    [4]float64       `json:"bbox"`
	Caption string           `json:"caption,omitempty"`
	Text    string           `json:"text"`
	// ImageBytes is the size of a figure's PNG crop (0 without one).
	ImageBytes int `json:"image_bytes,omitempty"`
}

// errSomeFailed reports that at least one document could not be ingested
// (the others were still processed).
var errSomeFailed = errors.New("some documents could not be ingested")

func runIngest(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := newFlagSet("ingest", errOut)
	asJSON := fs.Bool("json", false, "print one JSON object per document")
	cacheDir := fs.String("cache", "", "keep and reuse processed documents (and their vectors) in the document cache in DIR (see vika cache)")
	withPages := fs.Bool("pages", false, "also list each page: type, language, characters, OCR confidence, text, and its tables, figures and formulas with their boxes")
	var pipe pipelineFlags
	pipe.register(fs, false)
	fs.Usage = func() {
		fmt.Fprintln(errOut, "Usage: vika ingest [--json] [--pages] [--cache DIR] [--chunk-size N] [--chunk-overlap N] FILE...")
		fs.PrintDefaults()
	}
	files, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%w: no files given", errUsage)
	}
	chunking, err := pipe.chunking()
	if err != nil {
		return err
	}
	// Ingestion reports what was extracted; it needs no embeddings,
	// unless the cache is to keep the vectors too.
	eng, err := openSession(ctx, "", *cacheDir == "", false, errOut)
	if err != nil {
		return err
	}
	defer eng.Close()
	eng.SetChunking(chunking)
	closeCache, err := useCache(ctx, eng, *cacheDir, errOut)
	if err != nil {
		return err
	}
	defer closeCache()

	failed := 0
	for _, f := range files {
		rep := ingestOne(ctx, eng, f, *withPages)
		if rep.Error != "" {
			failed++
		}
		if err := printReport(out, rep, *asJSON); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w (%d of %d)", errSomeFailed, failed, len(files))
	}
	return nil
}

func ingestOne(ctx context.Context, eng *session.Session, path string, withPages bool) ingestReport {
	r, err := eng.Ingest(ctx, path, nil)
	if err != nil {
		return ingestReport{File: filepath.Base(path), Error: err.Error()}
	}
	d := r.Doc
	rep := ingestReport{
		File: d.File, DocID: d.ID, Format: d.Format, Unit: d.Unit, Pages: d.Pages, PageTypes: d.PageTypes, Lang: d.Lang, LangMixed: d.LangMixed,
		OCRPages: d.OCRPages, Chunks: d.Chunks, Failed: d.FailedPages, Seconds: &r.Timings, Cached: r.Cached,
		Tables: d.Regions[corpus.ChunkTable], Figures: d.Regions[corpus.ChunkFigure], Formulas: d.Regions[corpus.ChunkFormula],
	}
	if d.Warning != nil {
		rep.Warning = d.Warning.English()
	}
	if withPages || len(d.FailedPages) > 0 {
		pages, err := eng.Pages(ctx, d.ID)
		if err != nil {
			rep.Error = err.Error()
			return rep
		}
		regions, err := eng.Regions(ctx, d.ID, true)
		if err != nil {
			rep.Error = err.Error()
			return rep
		}
		byPage := map[int][]regionReport{}
		for _, r := range regions {
			byPage[r.Page] = append(byPage[r.Page], regionReport{Kind: r.Kind, BBox: r.BBox, Caption: r.Caption, Text: r.Text, ImageBytes: len(r.Image)})
		}
		for _, p := range pages {
			var why string
			if p.Failed() {
				why = p.Problem.English()
				rep.PageErrors = append(rep.PageErrors, pageError{Page: p.Number, Error: why})
			}
			if !withPages {
				continue
			}
			rep.PageList = append(rep.PageList, pageReport{
				Page: p.Number, Type: string(p.Type), Lang: p.Lang, Chars: utf8.RuneCountInString(p.Text),
				OCRConfidence: p.OCRConfidence, Text: p.Text, Error: why, Regions: byPage[p.Number],
			})
		}
	}
	return rep
}

func printReport(out io.Writer, rep ingestReport, asJSON bool) error {
	if asJSON && rep.Error != "" { // a failed document prints {"file","error"}
		return json.NewEncoder(out).Encode(struct {
			File  string `json:"file"`
			Error string `json:"error"`
		}{rep.File, rep.Error})
	}
	if asJSON {
		return json.NewEncoder(out).Encode(rep)
	}
	if rep.Error != "" {
		_, err := fmt.Fprintf(out, "%s: error: %s\n", rep.File, rep.Error)
		return err
	}
	s := rep.Seconds
	total := s.Convert + s.Validate + s.Extract + s.OCR + s.Lang + s.Chunk + s.Embed + s.Index
	unit := "pages"
	if rep.Unit == corpus.UnitSlide {
		unit = "slides"
	}
	_, err := fmt.Fprintf(out, "%s: %d %s %v, lang %s, %d OCRed, %d chunks, %d tables, %d figures, %d formulas in %.2fs%s (doc_id %s)\n",
		rep.File, rep.Pages, unit, rep.PageTypes, orUnknown(rep.Lang), rep.OCRPages, rep.Chunks, rep.Tables, rep.Figures, rep.Formulas, total, fromCache(rep.Cached), rep.DocID[:12])
	if err != nil {
		return err
	}
	if rep.Warning != "" {
		if _, err := fmt.Fprintf(out, "  warning: %s\n", rep.Warning); err != nil {
			return err
		}
	}
	for _, p := range rep.PageList {
		if _, err := fmt.Fprintf(out, "  p.%d %s %s %d chars: %s\n", p.Page, p.Type, orUnknown(p.Lang), p.Chars, oneLine(p.Text, 100)); err != nil {
			return err
		}
		for _, r := range p.Regions {
			if _, err := fmt.Fprintf(out, "    %s [%.0f %.0f %.0f %.0f] %s\n", r.Kind, r.BBox[0], r.BBox[1], r.BBox[2], r.BBox[3], oneLine(r.Caption, 80)); err != nil {
				return err
			}
		}
	}
	for _, p := range rep.PageErrors {
		if _, err := fmt.Fprintf(out, "  p.%d failed: %s\n", p.Page, p.Error); err != nil {
			return err
		}
	}
	return nil
}

func orUnknown(lang string) string {
	if lang == "" {
		return "und"
	}
	return lang
}

func fromCache(cached bool) string {
	if cached {
		return " from the cache"
	}
	return ""
}
