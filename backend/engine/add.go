package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/message"
)

// Stages of Progress.Stage.
const (
	StageQueued = "queued"
	// StageConverting: a file that is not a PDF being made into one
	// (package convert: LibreOffice, or MuPDF's handlers).
	StageConverting = "converting"
	StageValidating = ingest.StageValidating
	StageExtracting = ingest.StageExtracting
	StageOCR        = ingest.StageOCR
	StageLanguage   = ingest.StageLanguage
	StageChunking   = ingest.StageChunking
	// StageSearchable: the document is stored and BM25 finds it (Doc
	// set); its vectors are being computed (embedding, indexing follow).
	StageSearchable = "searchable"
	StageEmbedding  = "embedding"
	StageIndexing   = "indexing"
	// StageCourse: a course file being opened (its own job): checked,
	// then its PDFs added, Done of Total, each on a row of its own.
	StageCourse    = "course"
	StageDone      = "done"
	StageFailed    = "failed"
	StageCancelled = "cancelled"
)

// Stages are the values of Progress.Stage in the order a job goes through
// them (an add, a description or a summary index); TerminalStages end a job. The page reads
// both from its catalogue.
var (
	Stages         = []string{StageQueued, StageConverting, StageValidating, StageExtracting, StageOCR, StageLanguage, StageChunking, StageSearchable, StageEmbedding, StageIndexing, StageDescribing, StageSummarizing, StageCourse, StageDone, StageFailed, StageCancelled}
	TerminalStages = []string{StageDone, StageFailed, StageCancelled}
)

// Progress reports a step of an add. A synchronous add (Ingest)
// report validating..indexing with an empty JobID; background jobs also
// report queued first and end with exactly one done (Doc set), failed
// (Error set) or cancelled event.
type Progress struct {
	JobID string           `json:"job_id"`
	File  string           `json:"file"`
	Stage string           `json:"stage"` // queued, validating, extracting, ocr, language, chunking, embedding, indexing, done, failed, cancelled
	Done  int              `json:"done"`
	Total int              `json:"total"`
	Doc   *corpus.Document `json:"doc,omitempty"`
	Error string           `json:"error,omitempty"` // English, for the command line
	// Problem is why the job failed, as a code the window translates.
	Problem *message.Message `json:"problem,omitempty"`
}

// progressEvery is the minimum interval between two page-level progress
// reports of the same stage.
const progressEvery = 100 * time.Millisecond

// Report is what an add produced: the document and the time spent in
// each stage.
type Report struct {
	Doc     corpus.Document
	Timings ingest.Timings
	// Cached is set when the document came from the processed-document
	// cache (no PDF worker ran).
	Cached bool
}

// Ingest reads the PDF at path, adds it under its base name and waits,
// reporting the document and its stage timings (the command line's add;
// the window's are StartFile and StartBytes). The file size is checked
// before reading. The same bytes already in the session (same SHA-256)
// fail with ErrDuplicate; the same name with different bytes is kept under
// the label "name (2)". progress may be nil; it is called from the calling
// goroutine.
func (e *Engine) Ingest(ctx context.Context, path string, progress func(Progress)) (Report, error) {
	return e.addFile(ctx, "", path, progress)
}

func (e *Engine) addFile(ctx context.Context, jobID, path string, progress func(Progress)) (Report, error) {
	data, err := readPDF(ctx, path, e.opts.Limits)
	if err != nil {
		return Report{}, err
	}
	return e.add(ctx, jobID, filepath.Base(path), data, progress)
}

func (e *Engine) add(ctx context.Context, jobID, name string, data []byte, progress func(Progress)) (Report, error) {
	return e.addFrom(ctx, jobID, name, data, e.source(ingest.DocID(data)), progress)
}

// addFrom is add that reuses what src keeps of the PDF (kept.go): the
// cache's entries, or a course file's, once checked against the PDF
// (claims.go), when they were made by the same pipeline and models.
func (e *Engine) addFrom(ctx context.Context, jobID, name string, data []byte, src keptSource, progress func(Progress)) (Report, error) {
	return e.addOrigin(ctx, jobID, name, data, src, ingest.Source{}, progress)
}

// addOrigin is addFrom for a PDF converted from another file before
// (origin: a course's document, courseOrigin), which keeps that file's
// id, format and unit; a zero origin is addFrom.
func (e *Engine) addOrigin(ctx context.Context, jobID, name string, data []byte, src keptSource, origin ingest.Source, progress func(Progress)) (Report, error) {
	name = fileName(name)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(e.ctx, cancel)() // Close cancels adds in flight

	id := cmp.Or(origin.ID, ingest.DocID(data))
	release, err := e.reserve(id, name)
	if err != nil {
		return Report{}, err
	}
	defer release()
	// A file that is not a PDF is read as the PDF it converts to
	// (convert.go); the document keeps the file's id.
	converting := e.now()
	data, source, notice, err := e.prepare(ctx, id, name, data, func() {
		if progress != nil {
			progress(Progress{JobID: jobID, File: name, Stage: StageConverting})
		}
	})
	converted := e.now().Sub(converting).Seconds()
	if err != nil {
		return Report{}, err
	}
	if origin.ID != "" && source.ID == "" {
		source = origin
	}
	src = convertedSource(src, source, data)

	th := throttle{every: progressEvery, now: e.now}
	report := func(stage string, done, total int) {
		if progress != nil && th.allow(stage, done, total) {
			progress(Progress{JobID: jobID, File: name, Stage: stage, Done: done, Total: total})
		}
	}
	searchable := func(doc corpus.Document) {
		if progress != nil {
			progress(Progress{JobID: jobID, File: name, Stage: StageSearchable, Doc: &doc})
		}
	}
	// While its OCR runs, the document is searchable by the pages read so
	// far (interim.go).
	interim := &interimCommits{e: e, data: data, cancel: cancel, progress: searchable}
	res, hit, derived, err := e.extract(ctx, src, name, data, source, report, interim)
	if err == nil && res.Doc.Warning == nil {
		res.Doc.Warning = notice
	}
	res.Timings.Convert = converted
	// What a course gave is never cached, nor what is computed from it.
	var sink *cacheSource
	if s, ok := convertedSource(e.source(id), source, data).(cacheSource); ok && derived {
		sink = &s
	}
	e.markClaimed(id, !derived)
	if err != nil {
		if interim.doc != nil {
			err = errors.Join(err, e.undoText(ctx, interim.doc.ID))
		}
		return Report{}, err
	}
	// Searchable by BM25 and the page index from here; the vectors follow.
	start := e.now()
	var doc corpus.Document
	if interim.doc == nil {
		doc, err = e.commitText(ctx, res, data)
	} else {
		doc, err = e.replaceText(ctx, *interim.doc, res)
		if errors.Is(err, corpus.ErrNotFound) {
			err = context.Canceled // removed while it was read
		}
		if err != nil {
			err = errors.Join(err, e.undoText(ctx, interim.doc.ID))
		}
	}
	res.Timings.Index = e.now().Sub(start).Seconds()
	if err != nil {
		return Report{}, err
	}
	res.Doc = doc
	searchable(doc)
	start = e.now()
	vecs, figs, set, err := e.vectors(ctx, src, sink, res, report)
	res.Timings.Embed = e.now().Sub(start).Seconds()
	if err == nil {
		report(StageIndexing, 0, len(res.Chunks))
		start = e.now()
		err = e.attachVectors(ctx, res, set, vecs, figs)
		res.Timings.Index += e.now().Sub(start).Seconds()
	}
	if err != nil {
		return Report{}, errors.Join(err, e.undoText(ctx, doc.ID))
	}
	// A course's models' outputs answer for this session's (outputs.go).
	e.keepCourseOutputs(id, src)
	doc.Embedding = false
	// The document as a listing gives it, vectors counted: the window
	// shows the add's report (the "done" event) without listing again.
	doc.Vectors = e.models.Load().ret.DocVectors(doc.ID)
	return Report{Doc: doc, Timings: res.Timings, Cached: hit}, nil
}

// extract reads the document from src (the cache's entry) or the PDF
// workers (ingest.Run then waits for its place in the session's reading
// queue), which give interim what they have read while the OCR runs; from
// a course entry, the workers read it with the claims' OCR checked and
// reused (ingestClaimed). derived reports that all of it was read here
// from the PDF's bytes.
func (e *Engine) extract(ctx context.Context, src keptSource, name string, data []byte, source ingest.Source, report func(string, int, int), interim *interimCommits) (res ingest.Result, hit, derived bool, err error) {
	opts := e.ingestOptions()
	opts.Source = source
	opts.Interim = func(r ingest.Result) { interim.commit(ctx, r) }
	progress := func(p ingest.Progress) { report(p.Stage, p.Done, p.Total) }
	return src.read(ctx, e, name, data, opts, progress)
}

// vectors computes res's passage and figure vectors (from src or the
// models, then kept in sink when not nil) in one of the MaxJobs
// embedding slots, with the models in force, which it returns.
func (e *Engine) vectors(ctx context.Context, src keptSource, sink *cacheSource, res ingest.Result, report func(string, int, int)) ([][]float32, figureVecs, *modelSet, error) {
	select {
	case e.embedSlots <- struct{}{}:
	case <-ctx.Done():
		return nil, figureVecs{}, nil, ctx.Err()
	}
	defer func() { <-e.embedSlots }()
	set, releaseSet := e.acquire()
	defer releaseSet()
	vecs, figs, ok := src.vectors(ctx, set, res)
	if !ok && sink != nil && src != keptSource(*sink) {
		vecs, figs, ok = sink.vectors(ctx, set, res) // a course's PDF read here: the cache may hold its vectors
	}
	if ok {
		return vecs, figs, set, nil
	}
	vecs, figs, err := computeVectors(ctx, set, res, func(done, total int) { report(StageEmbedding, done, total) })
	if err == nil && sink != nil {
		sink.keepVectors(ctx, set, res, vecs, figs)
	}
	return vecs, figs, set, err
}

// reserve marks id as being added, failing with ErrDuplicate if it is in
// the session or being added, or ErrClosed. release undoes it. (commit
// checks again for a twin committed meanwhile.)
func (e *Engine) reserve(id, name string) (release func(), err error) {
	if err := e.checkNew(e.ctx, id); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, ErrClosed
	}
	if other, ok := e.pending[id]; ok {
		return nil, message.Wrap(fmt.Errorf("%w as %s (still being processed)", ErrDuplicate, other), message.Duplicate, "label", other)
	}
	e.pending[id] = name
	e.wg.Add(1)
	return func() {
		e.mu.Lock()
		delete(e.pending, id)
		e.mu.Unlock()
		e.wg.Done()
	}, nil
}

// checkNew fails with ErrDuplicate if document id is in the session.
func (e *Engine) checkNew(ctx context.Context, id string) error {
	d, err := e.store.DocumentByID(ctx, id)
	switch {
	case err == nil:
		return message.Wrap(fmt.Errorf("%w as %s", ErrDuplicate, d.Label), message.Duplicate, "label", d.Label)
	case errors.Is(err, corpus.ErrNotFound):
		return nil
	case e.isClosed():
		return ErrClosed
	default:
		return err
	}
}

// fileName keeps the base name of a path-like name ("C:\\x\\a.pdf" too).
func fileName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = cleanName(name)
	if name == "" || name == "." || name == ".." {
		return "document.pdf"
	}
	return name
}

// cleanName makes a file name safe to show, log, cite and put in the
// prompt's cite attribute: control characters (line breaks, ESC) become
// spaces, format characters (bidi overrides and isolates, zero-width
// characters, tag characters) are dropped, square brackets (which delimit
// citations) become parentheses, and runs of spaces one.
func cleanName(name string) string {
	name = strings.Map(func(r rune) rune {
		switch {
		case r == '[':
			return '('
		case r == ']':
			return ')'
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			return ' '
		case unicode.Is(unicode.Cf, r) || r == utf8.RuneError:
			return -1
		}
		return r
	}, name)
	return strings.Join(strings.Fields(name), " ")
}

// throttle lets stage changes and the last step of a stage through, and
// other steps at most once per interval.
type throttle struct {
	every time.Duration
	now   func() time.Time
	stage string
	last  time.Time
}

func (t *throttle) allow(stage string, done, total int) bool {
	now := t.now()
	if stage != t.stage || done >= total || now.Sub(t.last) >= t.every {
		t.stage, t.last = stage, now
		return true
	}
	return false
}
