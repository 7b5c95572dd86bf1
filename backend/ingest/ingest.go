// Package ingest turns the bytes of one PDF into a document, its pages and
// its chunks: validate, extract each page's layout (and, with
// Options.Regions, its tables, figures and display formulas), OCR the
// scanned pages (rebuilding their tables from the word boxes) and the
// text-bearing image regions of mixed pages, detect languages, chunk. It reports progress through a callback, checks for cancellation
// between steps, and times each stage. It does not store or index anything
// (the engine does).
//
// The document is read through a Reader (reader.go): InProcess calls
// package pdf and the given recogniser in this process; the engine passes
// package sandbox's Opener, which does the same in a supervised worker
// process. OCR runs on up to Options.OCRParallel pages at once, each
// rendering and recognising one image at a time.
package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"vika/backend/chunk"
	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/ocr"
	"vika/backend/pdf"
)

// Stages reported in Progress.Stage, in order.
const (
	StageValidating = "validating"
	StageExtracting = "extracting"
	StageOCR        = "ocr"
	StageLanguage   = "language"
	StageChunking   = "chunking"
)

// Progress reports how far Run has got. During extraction Done counts the
// pages read out of Total; during OCR, the pages recognised out of the
// pages that need it.
type Progress struct {
	Stage string
	Done  int
	Total int
}

// Options configures Run.
type Options struct {
	Limits pdf.Limits
	Chunk  chunk.Options
	// OCR recognises scanned pages and image regions. Nil: such pages
	// keep only their text layer and are reported as failed.
	OCR ocr.Recognizer
	// OCRDPI is the resolution pages are rendered at for OCR
	// (default ocr.DefaultDPI).
	OCRDPI float64
	// OCRParallel bounds the pages being OCRed at once (default 2); each
	// holds one image at a time.
	OCRParallel int
	// PageTimeout and OCRTimeout bound the time spent reading one page
	// and OCRing one page (zero: no bound). A page over budget fails alone.
	PageTimeout, OCRTimeout time.Duration
	// Regions turns on the detection of tables, figures and display
	// formulas (pdf.Document.DetectRegions); their passages are chunked
	// beside the running text.
	Regions bool
	// Opener opens the document; nil means InProcess. The engine passes
	// the sandbox's, which reads documents in a supervised worker process.
	Opener Opener
	// Budget bounds what the document's pages may bring into this
	// process (characters, regions, crops, passages), the pages sent to
	// OCR, and the wall and CPU time of the whole document (zero fields:
	// the Max* constants, DocTime, DocCPU).
	Budget Budget
	// Queue, when set, is the session's reading queue: the document takes
	// a place in it before it is opened, gives it up at its share while
	// another waits (between pages and OCR calls) and leaves when Run
	// returns. Its wall time counts the time it held its place.
	Queue *Queue
	// Interim, when set, is given the document as read so far while its
	// OCR runs: when the OCR begins, if it has more targets than
	// OCRParallel (the text layer), then every InterimEvery of OCR when a
	// page more was recognised (a short OCR gives none: the document
	// comes whole, from Run only). Its Doc.Reading counts the pages still
	// to be read; pages not read yet have no passages. It is called from Run's goroutine, never after
	// Run returns, and only with at least one passage. The Result Run
	// returns is the whole document.
	Interim func(Result)
	// InterimEvery is the least time between two Interim calls (default
	// DefaultInterimEvery).
	InterimEvery time.Duration
	// Source is the file the PDF was converted from (package convert);
	// zero when the PDF is the file added.
	Source Source
}

// Source describes the file a PDF was converted from: the document takes
// its id (the file's SHA-256, so that the file added again is a
// duplicate), its format and the unit its pages are cited by.
type Source struct {
	ID, Format, Unit string
}

// DefaultInterimEvery is how often a document being OCRed is given to
// Options.Interim: a scanned page takes 2 to 4 CPU-seconds, so a few pages
// more each time.
const DefaultInterimEvery = 5 * time.Second

// Timings are the seconds spent in each stage of one Run.
type Timings struct {
	// Convert: a file that is not a PDF made into one (package convert),
	// filled by the caller that converts.
	Convert  float64 `json:"convert,omitempty"`
	Validate float64 `json:"validate"`
	Extract  float64 `json:"extract"`
	OCR      float64 `json:"ocr"`
	Lang     float64 `json:"lang"`
	Chunk    float64 `json:"chunk"`
	Embed    float64 `json:"embed"` // filled by the caller that embeds
	Index    float64 `json:"index"` // filled by the caller that indexes
}

// Result is a processed document. Doc.Label is the file name; callers that
// need unique labels set it.
type Result struct {
	Doc     corpus.Document
	Pages   []corpus.Page
	Chunks  []corpus.Chunk
	Timings Timings
}

// DocID returns the document id of data: its SHA-256, in hex.
func DocID(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// stopwatch times consecutive stages.
type stopwatch struct{ last time.Time }

func (s *stopwatch) lap() float64 {
	now := time.Now()
	d := now.Sub(s.last).Seconds()
	s.last = now
	return d
}

// Run processes one PDF named name. progress may be nil; it is called from
// the calling goroutine. Errors from the pdf package (pdf.ErrNotPDF, ...)
// are returned wrapped; if ctx is cancelled Run returns ctx.Err().
func Run(ctx context.Context, name string, data []byte, opts Options, progress func(Progress)) (Result, error) {
	report := func(stage string, done, total int) {
		if progress != nil {
			progress(Progress{Stage: stage, Done: done, Total: total})
		}
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	place, err := opts.Queue.Enter(ctx)
	if err != nil {
		return Result{}, err
	}
	defer place.Leave()
	var res Result
	sw := stopwatch{last: time.Now()}
	report(StageValidating, 0, 0)
	id := DocID(data)
	if opts.Source.ID != "" {
		id = opts.Source.ID
	}
	opener := opts.Opener
	if opener == nil {
		opener = InProcess
	}
	doc, err := opener.Open(ctx, data, opts)
	if err != nil {
		return Result{}, err
	}
	defer doc.Close()
	res.Timings.Validate = sw.lap()

	n := doc.NumPages()
	report(StageExtracting, 0, n)
	budget := newDocBudget(opts.Budget, doc, place)
	pages, targets, err := extract(ctx, doc, id, budget, func(done int) { report(StageExtracting, done, n) })
	if err != nil {
		return Result{}, err
	}
	res.Timings.Extract = sw.lap()

	targets = capOCR(pages, targets, budget)
	base := corpus.Document{ID: id, File: name, Label: name, Bytes: int64(len(data)), Pages: n, Format: opts.Source.Format, Unit: opts.Source.Unit}
	base.Meta, base.Outline = doc.About()
	var interim func(ocrPages, pending int)
	var langs pageLangs
	if opts.Interim != nil {
		langs = pageLangs{}
		interim = func(ocrPages, pending int) {
			snap := slices.Clone(pages)
			d, chunks := passages(describe(base, snap, ocrPages, langs), snap, opts.Chunk, budget)
			if len(chunks) > 0 {
				d.Reading = pending
				opts.Interim(Result{Doc: d, Pages: snap, Chunks: chunks})
			}
		}
	}
	ocrPages, err := recognise(ctx, doc, pages, targets, opts, budget, func(done, total int) { report(StageOCR, done, total) }, interim)
	if err != nil {
		return Result{}, err
	}
	res.Timings.OCR = sw.lap()

	warning := checkTruncation(doc, pages)
	if warning == nil {
		warning = budget.warning(pages)
	}
	if warning == nil {
		warning = poorOCR(pages)
	}
	failed := failedPages(pages)
	if len(failed) == n && budget.timeUp {
		return Result{}, message.Wrap(fmt.Errorf("%w: it ran out of its time (%s) before any of its %d pages was read", ErrDocTime, budget.timeLimit(), n), message.DocTimeOut, "limit", budget.timeLimit())
	}
	if len(failed) == n {
		return Result{}, fmt.Errorf("%w: none of its %d pages can be read (%s)", pdf.ErrCorrupt, n, pages[0].Problem.English())
	}

	report(StageLanguage, 0, 0)
	base.Warning = warning
	d := describe(base, pages, ocrPages, langs)
	res.Timings.Lang = sw.lap()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	report(StageChunking, 0, 0)
	d, chunks := passages(d, pages, opts.Chunk, budget)
	if d.Warning == nil {
		d.Warning = budget.warning(pages) // the passages' cap comes last
	}
	res.Timings.Chunk = sw.lap()
	res.Doc, res.Pages, res.Chunks = d, pages, chunks
	return res, nil
}

// failedPages lists the pages whose text could not be read.
func failedPages(pages []corpus.Page) []int {
	var failed []int
	for _, p := range pages {
		if p.Failed() {
			failed = append(failed, p.Number)
		}
	}
	return failed
}

// describe sets the languages of pages (langs: detectLanguages) and
// returns the document they make: base (what does not depend on the
// pages) with their languages, failed pages and counts.
func describe(base corpus.Document, pages []corpus.Page, ocrPages int, langs pageLangs) corpus.Document {
	d := base
	d.FailedPages, d.OCRPages = failedPages(pages), ocrPages
	detectLanguages(&d, pages, langs)
	d.PageTypes = countTypes(pages)
	d.Regions = countRegions(pages)
	d.Links = documentLinks(pages)
	return d
}

// passages cuts d's pages into passages within the document's passage
// budget, each in its page's language, and counts them in d.
func passages(d corpus.Document, pages []corpus.Page, o chunk.Options, budget *docBudget) (corpus.Document, []corpus.Chunk) {
	chunks := budget.capPassages(chunk.Split(d, pages, o))
	langOf := make(map[int]string, len(pages))
	for _, p := range pages {
		langOf[p.Number] = p.Lang
	}
	for i := range chunks {
		chunks[i].Lang = langOf[chunks[i].Page]
	}
	d.Chunks = len(chunks)
	return d, chunks
}

// extract reads every page's layout. A page that cannot be read keeps its
// error and never fails the document. It also returns what must be OCRed.
func extract(ctx context.Context, doc Reader, id string, budget *docBudget, step func(done int)) ([]corpus.Page, []OCRTarget, error) {
	n := doc.NumPages()
	pages := make([]corpus.Page, 0, n)
	var targets []OCRTarget
	for i := 1; i <= n; i++ {
		if err := budget.yield(ctx, doc); err != nil {
			return nil, nil, err
		}
		if budget.outOfTime() { // over the document's time: not read
			page := corpus.Page{DocID: id, Number: i}
			budget.mark(&page, message.New(message.PageDocBudget, "page", i, "limit", budget.timeLimit()))
			pages = append(pages, page)
			step(i)
			continue
		}
		if budget.over > 0 { // over the document's text budget: not read
			page := corpus.Page{DocID: id, Number: i}
			budget.admit(&page)
			pages = append(pages, page)
			step(i)
			continue
		}
		r, err := doc.Page(ctx, i)
		if err != nil {
			return nil, nil, err
		}
		page := r.Page
		page.DocID, page.Number = id, i // the page number is ours, not the worker's
		if !budget.admit(&page) {
			pages = append(pages, page)
			step(i)
			continue
		}
		if !page.Failed() && r.Target.Page > 0 {
			r.Target.Page = i // ours too
			targets = append(targets, r.Target)
		}
		pages = append(pages, page)
		step(i)
	}
	return pages, targets, nil
}

// checkTruncation marks the empty pages of a truncated file as failed
// (their content was cut off, not blank) and returns the document's
// warning, or nil if the file is whole.
func checkTruncation(doc Reader, pages []corpus.Page) *message.Message {
	if !doc.Truncated() {
		return nil
	}
	for i := range pages {
		if !pages[i].Failed() && strings.TrimSpace(pages[i].Text) == "" {
			m := message.New(message.PageTruncated, "page", pages[i].Number)
			pages[i].Problem = &m
		}
	}
	m := message.New(message.Truncated)
	return &m
}

// documentLinks lists the pages' links, each target once (its first
// page), at most corpus.MaxLinks.
func documentLinks(pages []corpus.Page) []corpus.Link {
	var out []corpus.Link
	seen := map[string]bool{}
	for _, p := range pages {
		for _, l := range p.Links {
			if len(out) == corpus.MaxLinks {
				return out
			}
			if !seen[l.URI] {
				seen[l.URI] = true
				out = append(out, l)
			}
		}
	}
	return out
}

func countRegions(pages []corpus.Page) map[corpus.ChunkKind]int {
	var counts map[corpus.ChunkKind]int
	for _, p := range pages {
		for _, r := range p.Regions {
			if counts == nil {
				counts = map[corpus.ChunkKind]int{}
			}
			counts[r.Kind]++
		}
	}
	return counts
}

func countTypes(pages []corpus.Page) map[corpus.PageType]int {
	counts := map[corpus.PageType]int{}
	for _, p := range pages {
		counts[p.Type]++
	}
	return counts
}
