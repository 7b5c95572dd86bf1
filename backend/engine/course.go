package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log"

	"vika/backend/corpus"
	"vika/backend/course"
	"vika/backend/crash"
	"vika/backend/ingest"
	"vika/backend/jsonbound"
	"vika/backend/kept"
	"vika/backend/message"
)

// A course file (package course) keeps the session's PDFs with what
// processing them produced (kept.Document, without crops), their vectors
// (kept.Vectors) and the models' outputs about them (kept.Output),
// fingerprinted like the cache's entries, in package kept's encoding.
// Opening it reads each PDF again from its bytes in the workers; in a
// session of the same pipeline and models, the course's OCR text and
// vectors are reused once checked against the PDF (claims.go), which
// skips most of the OCR and the embedder, and its models' outputs answer
// for the describing and summarising models (outputs.go); nothing else
// of the course is taken as given.

// courseEntry is a document as a course file gives it, its claims not
// checked yet (claims.go checks them against the PDF): the keptSource of
// an add from a course.
type courseEntry struct {
	doc     kept.Document
	models  string
	vecs    kept.Vectors
	outputs map[string]kept.Output // by key, checked as text (courseOutputs)
	cited   []int                  // pages the course's conversation cites: their OCR claims are checked
}

func (p *courseEntry) read(ctx context.Context, e *Engine, name string, data []byte, opts ingest.Options, progress func(ingest.Progress)) (ingest.Result, bool, bool, error) {
	return e.ingestClaimed(ctx, p, name, data, opts, progress)
}

// vectors returns the given vectors when set's models made them and they
// stand for res's passages (claimVectorsChecked).
func (p *courseEntry) vectors(ctx context.Context, set *modelSet, res ingest.Result) ([][]float32, figureVecs, bool) {
	if p.models == "" || p.models != set.modelsKey() || len(p.vecs.Vecs) != len(res.Chunks) {
		return nil, figureVecs{}, false
	}
	figs, ok := keptFigures(p.vecs, res.Chunks)
	if !ok || !claimVectorsChecked(ctx, set, p, res, p.vecs.Vecs, figs) {
		return nil, figureVecs{}, false
	}
	return p.vecs.Vecs, figs, true
}

func (p *courseEntry) output(_ context.Context, _, key string) (kept.Output, bool) {
	o, ok := p.outputs[key]
	return o, ok
}

// SaveCourse writes the session's documents, with their processed data
// and vectors, and conversation and reviews when not nil (the caller's
// encodings), to the course file at path.
func (e *Engine) SaveCourse(ctx context.Context, path string, conversation, reviews []byte) (int, error) {
	if e.isClosed() {
		return 0, ErrClosed
	}
	docs, err := e.store.Documents(ctx)
	if err != nil {
		return 0, err
	}
	c := course.Course{Conversation: conversation, Reviews: reviews}
	set, release := e.acquire()
	defer release()
	setup, models := e.setup(), set.modelsKey()
	for _, d := range docs {
		cd, err := e.courseDocument(ctx, set, d, setup, models)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", d.Label, err)
		}
		c.Documents = append(c.Documents, cd)
	}
	return len(c.Documents), course.Save(ctx, path, c)
}

func (e *Engine) courseDocument(ctx context.Context, set *modelSet, d corpus.Document, setup, models string) (course.Document, error) {
	data, err := e.store.File(ctx, d.ID)
	if err != nil {
		return course.Document{}, err
	}
	pages, err := e.store.Pages(ctx, d.ID)
	if err != nil {
		return course.Document{}, err
	}
	regions, err := e.store.Regions(ctx, d.ID, true)
	if err != nil {
		return course.Document{}, err
	}
	for _, r := range regions {
		if i := r.Page - 1; i >= 0 && i < len(pages) {
			pages[i].Regions = append(pages[i].Regions, r)
		}
	}
	chunks, err := e.store.DocumentChunks(ctx, d.ID)
	if err != nil {
		return course.Document{}, err
	}
	processed, err := kept.Marshal(kept.Document{Doc: d, Pages: pages, Chunks: chunks, Outputs: e.outputsOf(d.ID)})
	if err != nil {
		return course.Document{}, err
	}
	vecs, figs, figVecs := set.ret.Held(chunks)
	kv := kept.Vectors{Vecs: vecs, FigVectors: figVecs}
	for _, f := range figs {
		kv.FigChunks = append(kv.FigChunks, f.ID)
	}
	vj, err := kept.Marshal(kv)
	if err != nil {
		return course.Document{}, err
	}
	// The course's fingerprint is its PDF's: a document converted from
	// another file (package convert) keeps the file's id, format and unit
	// in its processed data (courseOrigin reads them back).
	return course.Document{File: d.File, PDF: data, SHA256: ingest.DocID(data), Setup: setup, Processed: processed, Models: models, Vectors: vj}, nil
}

// CourseResult is what opening a course file added.
type CourseResult struct {
	Added        []corpus.Document `json:"added"`
	Failed       []Progress        `json:"failed"` // one per PDF not added (a duplicate, say), with its problem
	Conversation []byte            `json:"-"`      // the caller's encoding, nil when none was kept
	Reviews      []byte            `json:"-"`      // the caller's encoding of the flashcards' reviews, nil when none
}

// StartCourse opens the course file at path in the background, as a job
// of its own (OpenCourse's work; Cancel stops it, its checks included):
// its row reports StageCourse, Done PDFs of Total once the file is
// checked, and ends done (no Doc) or failed with the course's problem;
// each PDF has its own row as in OpenCourse. opened, when set, is given
// what was added, from the job's goroutine, before the job's last event
// (the session restores the conversation there).
func (e *Engine) StartCourse(path string, progress func(Progress), cited CitedFunc, opened func(CourseResult)) string {
	name := fileName(path)
	return e.start(name, progress, func(ctx context.Context, id string, p func(Progress)) (corpus.Document, error) {
		p(Progress{JobID: id, File: name, Stage: StageCourse})
		res, err := e.openCourse(ctx, path, p, cited, func(done, total int) {
			p(Progress{JobID: id, File: name, Stage: StageCourse, Done: done, Total: total})
		})
		if err == nil && opened != nil {
			opened(res)
		}
		return corpus.Document{}, err
	})
}

// OpenCourse checks the course file at path (package course: refused
// whole when it fails a check) and adds its PDFs to the session, each
// read again from its bytes, reusing the OCR text and vectors of its
// processed data, once checked, when this session's pipeline and models
// made it (claims.go). cited, when given, names the pages the course's
// conversation cites (by document id; the caller owns its encoding):
// their OCR is among the pages checked. A PDF already in the session is reported in
// Failed; the others are added. Each PDF's progress has its own job id
// and ends as every add's does, as soon as that PDF is through: done with
// its document, or failed (and listed in Failed), so that no row is left
// at its last stage.
func (e *Engine) OpenCourse(ctx context.Context, path string, progress func(Progress), cited CitedFunc) (CourseResult, error) {
	return e.openCourse(ctx, path, progress, cited, nil)
}

// CitedFunc reads a course's conversation (the caller's encoding:
// untrusted) and names the pages it cites, by document id; nil when it
// cannot.
type CitedFunc func(conversation []byte) map[string][]int

// openCourse is OpenCourse, telling counted, when set, how many of the
// course's PDFs are through.
func (e *Engine) openCourse(ctx context.Context, path string, progress func(Progress), cited CitedFunc, counted func(done, total int)) (CourseResult, error) {
	if counted == nil {
		counted = func(int, int) {}
	}
	if e.isClosed() {
		return CourseResult{}, ErrClosed
	}
	lim := course.DefaultLimits
	lim.MaxPDFBytes = min(lim.MaxPDFBytes, e.opts.Limits.MaxBytes)
	cf, err := course.Open(ctx, path, lim)
	if err != nil {
		return CourseResult{}, err
	}
	defer cf.Close()
	var out CourseResult
	if out.Conversation, err = cf.Conversation(ctx); errors.Is(err, course.ErrTooLarge) {
		log.Printf("course: %s: conversation left out: %v", fileName(path), err)
	} else if err != nil {
		return CourseResult{}, err
	}
	if out.Reviews, err = cf.Reviews(ctx); errors.Is(err, course.ErrTooLarge) {
		log.Printf("course: %s: reviews left out: %v", fileName(path), err)
	} else if err != nil {
		return CourseResult{}, err
	}
	setup := e.setup()
	var pages map[string][]int
	if cited != nil && out.Conversation != nil {
		pages = cited(out.Conversation)
	}
	for i := range cf.Len() {
		counted(i, cf.Len())
		d, err := cf.Document(ctx, i)
		if err != nil {
			return out, err
		}
		given, origin := decodeEntry(d, setup, e.opts.Limits.MaxPages)
		if given != nil {
			given.cited = pages[cmp.Or(origin.ID, d.SHA256)]
		}
		d.Processed, d.Vectors = nil, nil // decoded: not held through the add
		id := e.jobs.NewID()
		r, err := e.addCourseDocument(ctx, id, d, given, origin, progress)
		if err != nil {
			// Its row ends now, not when the whole course has: cancelled
			// with the course, or failed with its problem.
			name := fileName(d.File)
			if ctx.Err() != nil {
				if progress != nil {
					progress(Progress{JobID: id, File: name, Stage: StageCancelled, Error: "cancelled"})
				}
				return out, ctx.Err()
			}
			m := message.Of(err)
			failed := Progress{JobID: id, File: name, Stage: StageFailed, Error: err.Error(), Problem: &m}
			if progress != nil {
				progress(failed)
			}
			out.Failed = append(out.Failed, failed)
			continue
		}
		if progress != nil {
			progress(Progress{JobID: id, File: fileName(d.File), Stage: StageDone, Done: 1, Total: 1, Doc: &r.Doc})
		}
		out.Added = append(out.Added, r.Doc)
	}
	return out, nil
}

// addCourseDocument adds one PDF of a course; a panic in it fails that PDF
// alone (error.internal), and the course goes on with the next.
func (e *Engine) addCourseDocument(ctx context.Context, id string, d course.Document, given *courseEntry, origin ingest.Source, progress func(Progress)) (r Report, err error) {
	defer crash.Recover(id+" ("+fileName(d.File)+")", &err)
	var src keptSource = e.source(cmp.Or(origin.ID, d.SHA256))
	if given != nil {
		src = given
	}
	return e.addOrigin(ctx, id, d.File, d.PDF, src, origin, progress)
}

// decodeEntry decodes and checks a course document's processed data,
// vectors and outputs; nil (process the PDF again) when they were made by
// another pipeline or do not belong to its PDF. origin is the file the
// PDF was converted from, when the processed data says so (courseOrigin),
// whatever the pipeline.
func decodeEntry(d course.Document, setup string, maxPages int) (*courseEntry, ingest.Source) {
	if d.Processed == nil {
		return nil, ingest.Source{}
	}
	var kd kept.Document
	if err := kept.Unmarshal(d.Processed, &kd, processedBounds); err != nil {
		return nil, ingest.Source{}
	}
	origin := courseOrigin(kd.Doc, d.SHA256)
	if d.Setup != setup || !kd.Belongs(cmp.Or(origin.ID, d.SHA256), maxPages) {
		return nil, origin
	}
	p := &courseEntry{outputs: courseOutputs(kd.Outputs)}
	kd.Crops, kd.Outputs = nil, nil // a course's crops are not read: the PDF is
	p.doc = kd
	if d.Vectors != nil && kept.Unmarshal(d.Vectors, &p.vecs, vectorsBounds) == nil {
		p.models = d.Models
	}
	return p, origin
}

// Bounds of a course document's processed data and vectors, checked as
// they are read before anything is decoded (package jsonbound): "{},"
// is three bytes of JSON and a whole page or line once decoded, so the
// file's byte limits alone let 14 MiB become 2.7 GB. A real document
// sits inside them: a 27-page paper's processed data holds 3,861 objects
// and arrays and 20,354 values (143 and 754 a page), so a 3,000-page book
// about 430,000 and 2.3 million; never more than ingest.MaxDocPassages
// passages. Data past them is not an error: the PDF is read again, as for
// a course of another pipeline. The worst a file within them can cost is
// about 200 MB of structs and 130 MB of strings and numbers for the
// processed data, and 256 MB of floats for the vectors.
var (
	processedBounds = jsonbound.Limits{MaxValues: 8 << 20, MaxContainers: 1 << 20, MaxArray: ingest.MaxDocPassages, MaxDepth: 16}
	vectorsBounds   = jsonbound.Limits{MaxValues: 64 << 20, MaxContainers: 2*ingest.MaxDocPassages + 16, MaxArray: ingest.MaxDocPassages, MaxDepth: 8}
)

// CourseEntry is one PDF of a course file as ReadCourse reads it.
type CourseEntry struct {
	File  string
	PDF   []byte
	Setup string // the pipeline fingerprint its processed data was made with
	// Result is its processed document, nil when the file holds none
	// that belongs to the PDF.
	Result *ingest.Result
	// Vectors reports whether its vectors are kept.
	Vectors bool
}

// ReadCourse checks the course file at path (the checks of OpenCourse,
// within course.DefaultLimits) and returns its PDFs with their processed
// data, without adding them to a session (vika course info, vika eval
// pages --course), and the conversation's encoding (nil when none).
func ReadCourse(ctx context.Context, path string) ([]CourseEntry, []byte, error) {
	cf, err := course.Open(ctx, path, course.DefaultLimits)
	if err != nil {
		return nil, nil, err
	}
	defer cf.Close()
	conv, err := cf.Conversation(ctx)
	if err != nil {
		return nil, nil, err
	}
	out := make([]CourseEntry, 0, cf.Len())
	for i := range cf.Len() {
		d, err := cf.Document(ctx, i)
		if err != nil {
			return nil, nil, err
		}
		e := CourseEntry{File: fileName(d.File), PDF: d.PDF, Setup: d.Setup}
		if p, _ := decodeEntry(d, d.Setup, 0); p != nil {
			res := p.doc.Result()
			res.Doc.File, res.Doc.Label = e.File, e.File
			e.Result, e.Vectors = &res, p.models != ""
		}
		out = append(out, e)
	}
	return out, conv, nil
}

// Setup is the fingerprint of this session's pipeline: a course entry
// made with another is processed again when opened.
func (e *Engine) Setup() string { return e.setup() }
