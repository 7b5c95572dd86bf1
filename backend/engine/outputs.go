package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log"
	"slices"
	"strings"
	"unicode/utf8"

	"vika/backend/corpus"
	"vika/backend/jsonbound"
	"vika/backend/kept"
	"vika/backend/message"
)

// A model's output about a document (a figure's description, a table's
// summary, a formula's LaTeX, a passage's summary, or its refusal to
// write one) is paid for once: it is
// kept by what it is of (the model's input), the model that wrote it and
// the prompt's version (outputKey), for the session (Engine.outputs),
// in the processed-document cache when the student turned it on, and in
// a course file saved. Describe and Summarize ask the model only for
// what none of them holds. Outputs a course file gives are the
// classmate's model's words: taken as text within bounds (courseOutputs),
// checked as a fresh answer is (latex.Check for a formula), reused and
// saved again with the course, never copied into the student's cache.

// Kinds of kept outputs (kept.Output.Kind).
const (
	outputRegion  = "region"  // a figure's description, a table's summary, a formula's LaTeX
	outputPassage = "passage" // a passage's summary
	outputStudy   = "study"   // a study guide, in kept's encoding
)

// outputKey names a model's output: the task, the prompt version and the
// model ("provider/id"), and what it is of.
func outputKey(task, prompt, model string, of ...any) string {
	return fingerprint(append([]any{"output", task, prompt, model}, of...)...)
}

// regionOutputKey is the key of model's description (figure), summary (table)
// or LaTeX (formula) of region r in a passage of language lang.
func regionOutputKey(prompt, model string, r corpus.Region, lang string) string {
	img := sha256.Sum256(r.Image)
	return outputKey(outputRegion, prompt, model, r.Kind, r.Page, r.BBox, r.Caption, r.Text, hex.EncodeToString(img[:]), lang)
}

// passageOutputKey is the key of model's summary of passage c: what
// prompt.SummaryRequest sends of it (its section's title, its text, its
// language) and its kind.
func passageOutputKey(prompt, model string, c corpus.Chunk) string {
	return outputKey(outputPassage, prompt, model, c.Kind, c.Lang, c.Text, strings.TrimSpace(c.SectionTitle))
}

// Bounds of the outputs a course file gives of one document: as many as
// it may have passages, each as long as the longest answer a describing
// or summarising model is allowed (a few hundred tokens) many times over,
// a study guide within maxStudyBytes. A guide's lines are what its last
// reduce wrote (study.NoteTokens, 2,048 tokens: some 8 KB of text), each
// with its verdict and citations, and its extractive outline (at most 60
// rows a document); the largest the tests make, with a fake model that
// passes every batch's notes through the reduce (more than a real one
// writes), is Okasaki's thesis (162 pages): 96 lines, 18 KB of text,
// 87 KB encoded; the ten shared PDFs' others 11-43 KB. Every kept line is
// checked again when it is read back (study.Jobs.Kept), so a guide past
// these bounds is not read: the student is asked to make it again.
const (
	maxCourseOutputs    = 100_000
	maxOutputBytes      = 16 << 10
	maxStudyBytes       = 256 << 10
	maxOutputModelBytes = 256
)

// studyBounds bound the decoding of a kept study guide: 512 items an
// array (lines of a kind, an outline, a line's citations), some 3 times
// the values and containers of 512 lines of each kind.
var studyBounds = jsonbound.Limits{MaxValues: 1 << 16, MaxContainers: 1 << 14, MaxArray: 512, MaxDepth: 16}

// courseOutputs are the outputs of a course's document that may be
// reused, by key: valid UTF-8 text within the bounds above, not empty,
// under a key of the engine's shape; the others are left out.
func courseOutputs(list []kept.Output) map[string]kept.Output {
	if len(list) == 0 {
		return nil
	}
	out := make(map[string]kept.Output, min(len(list), maxCourseOutputs))
	for _, o := range list[:min(len(list), maxCourseOutputs)] {
		o.Text = strings.TrimSpace(o.Text)
		limit := maxOutputBytes
		switch o.Kind {
		case outputStudy:
			limit = maxStudyBytes
		case outputRegion, outputPassage:
		default:
			continue
		}
		// A course's refusals are not taken: believed, they would keep the
		// student from asking that model at all.
		if len(o.Key) != 64 || !isHex(o.Key) || o.Text == "" || o.Refusal != nil || len(o.Text) > limit || len(o.Model) > maxOutputModelBytes ||
			!utf8.ValidString(o.Text) || !utf8.ValidString(o.Model) {
			continue
		}
		out[o.Key] = o
	}
	return out
}

func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// keepCourseOutputs holds, for the session, the outputs a course entry
// gives of document id (src, when it is one).
func (e *Engine) keepCourseOutputs(id string, src keptSource) {
	ce, ok := src.(*courseEntry)
	if !ok || len(ce.outputs) == 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.outputs == nil {
		e.outputs = map[string]map[string]kept.Output{}
	}
	e.outputs[id] = ce.outputs
}

// reused returns the output kept under key about document docID: this
// session's (made here or given by a course), else the cache's.
func (e *Engine) reused(ctx context.Context, docID, key string) (kept.Output, bool) {
	e.mu.Lock()
	o, ok := e.outputs[docID][key]
	e.mu.Unlock()
	if ok {
		return o, true
	}
	if o, ok = e.source(docID).output(ctx, docID, key); ok {
		e.holdOutput(docID, o)
	}
	return o, ok
}

// keptRefusal returns why the model's answer under key, of the kind, was
// refused when that refusal is kept (this session, the cache).
func (e *Engine) keptRefusal(ctx context.Context, docID, key, kind string) (message.Message, bool) {
	o, ok := e.reused(ctx, docID, key)
	if !ok || o.Kind != kind || o.Refusal == nil {
		return message.Message{}, false
	}
	return *o.Refusal, true
}

// keepOutput keeps an output made now about document docID: for the
// session, and in the cache when it is on, unless a course gave the
// document's text (claims.go).
func (e *Engine) keepOutput(ctx context.Context, docID string, o kept.Output) {
	e.holdOutput(docID, o)
	if s, ok := e.source(docID).(cacheSource); ok && !e.isClaimed(docID) {
		s.keepOutput(ctx, docID, o)
	}
}

// holdOutput holds o about document docID for the session.
func (e *Engine) holdOutput(docID string, o kept.Output) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.outputs == nil {
		e.outputs = map[string]map[string]kept.Output{}
	}
	m := e.outputs[docID]
	if m == nil {
		m = map[string]kept.Output{}
		e.outputs[docID] = m
	}
	m[o.Key] = o
}

// outputsOf lists the outputs held about document docID, by key (for a
// course file).
func (e *Engine) outputsOf(docID string) []kept.Output {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []kept.Output
	for _, o := range e.outputs[docID] {
		if o.Refusal == nil { // a course carries none (courseOutputs)
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(a, b kept.Output) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// forgetOutputs drops what the session holds about a document removed.
func (e *Engine) forgetOutputs(docID string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.outputs, docID)
}

// studyVersion names the shape of the study material kept: change it when
// a study guide's fields change, so that guides kept before are not read.
const studyVersion = "vika-study-1"

// studyOutputKey is the key of a study guide kept under key (its section
// and the study prompts' version: study.guideKey).
func studyOutputKey(key string) string { return outputKey(outputStudy, studyVersion, "", key) }

// KeepStudy keeps v (a study guide of the document docID, under key) as
// the models' other outputs are: for the session (a course file saved
// carries it), and in the document cache when it is on, unless a course
// gave the document's text. An encoding that fails is logged: the guide
// stays with the study jobs.
func (e *Engine) KeepStudy(ctx context.Context, docID, key string, v any) {
	b, err := kept.Marshal(v)
	if err != nil {
		log.Printf("keep a study guide: %v", err)
		return
	}
	e.keepOutput(ctx, docID, kept.Output{Kind: outputStudy, Key: studyOutputKey(key), Text: string(b)})
}

// KeptStudy decodes into v (a pointer) the guide kept under docID and key
// (this session's, a course file's or the cache's), within bounds
// (maxStudyBytes, studyBounds), and reports whether there was one. A guide from a course is a claim: the
// caller checks its lines again (study.Jobs.Kept).
func (e *Engine) KeptStudy(ctx context.Context, docID, key string, v any) bool {
	o, ok := e.reused(ctx, docID, studyOutputKey(key))
	if !ok || o.Kind != outputStudy || len(o.Text) > maxStudyBytes {
		return false
	}
	if err := kept.Unmarshal([]byte(o.Text), v, studyBounds); err != nil {
		log.Printf("read a kept study guide: %v", err)
		return false
	}
	return true
}
