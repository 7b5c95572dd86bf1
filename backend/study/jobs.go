package study

import (
	"context"
	"slices"
	"strings"
	"sync"

	"vika/backend/corpus"
	"vika/backend/jobs"
	"vika/backend/llm"
	"vika/backend/message"
	"vika/backend/prompt"
)

// Event types of a study job.
const (
	EventProgress = "progress"
	EventDone     = "done"
	EventError    = "error"
)

// Event is what a study job reports: progress, then done (with the guide
// or the deck) or error (with its message, llm.Problem: a cancelled job
// ends with message.Cancelled).
type Event struct {
	Type     string           `json:"type"`
	Progress *Progress        `json:"progress,omitempty"`
	Guide    *Guide           `json:"guide,omitempty"`
	Deck     *Deck            `json:"deck,omitempty"`
	Quiz     []QuizItem       `json:"quiz,omitempty"`
	Error    *message.Message `json:"error,omitempty"`
}

// Jobs runs study jobs in the background, by an id the caller chose, and
// keeps each document's last guide for the session.
type Jobs struct {
	s    *Studier
	jobs jobs.Runner // the jobs running, by the id the caller chose

	mu     sync.Mutex
	guides map[[2]string]Guide // guarded by mu: by document ids and section (key)
	store  Store               // guarded by mu: nil keeps guides for the session only
}

// Store keeps guides beyond the study jobs (*engine.Engine): with the
// document's other model outputs, in a course file saved and in the
// processed-document cache while the student has it on.
type Store interface {
	KeepStudy(ctx context.Context, docID, key string, v any)
	KeptStudy(ctx context.Context, docID, key string, v any) bool
}

// SetStore makes the guides finished from now on kept in st too, and Kept
// read them back from it.
func (j *Jobs) SetStore(st Store) {
	j.mu.Lock()
	j.store = st
	j.mu.Unlock()
}

// Close cancels the running jobs and waits for them to end; a job
// started afterwards fails with jobs.ErrClosed.
func (j *Jobs) Close() { j.jobs.Close() }

// NewJobs returns the jobs of s.
func NewJobs(s *Studier) *Jobs {
	return &Jobs{s: s, guides: map[[2]string]Guide{}}
}

// Studier returns the Studier the jobs run on.
func (j *Jobs) Studier() *Studier { return j.s }

// StartGuide makes the guide of sc in the background; its events go to
// emit, the last one done or error. A finished guide is kept (Kept)
// under the key of the documents it was asked of, unless they changed
// while it was made.
func (j *Jobs) StartGuide(ctx context.Context, id string, sc Scope, o Options, emit func(Event)) error {
	return j.start(ctx, id, emit, func(ctx context.Context, progress func(Progress)) (Event, error) {
		k, _, err := j.key(ctx, sc)
		if err != nil {
			return Event{}, err
		}
		g, err := j.s.Guide(ctx, sc, o, progress)
		if err != nil {
			return Event{}, err
		}
		// The documents changed while it was made (one added to the
		// library, one removed): the guide is still shown, but kept under
		// neither the key it was asked under nor the one of now.
		if now, _, err := j.key(ctx, sc); err != nil || now != k || sc.Mine { // a guide of the notes is not the documents'
			return Event{Type: EventDone, Guide: &g}, nil
		}
		j.mu.Lock()
		j.guides[k] = g
		st := j.store
		j.mu.Unlock()
		if st != nil && g.DocID != "" { // a guide of several documents is kept for the session only
			st.KeepStudy(ctx, g.DocID, guideKey(sc.Section), g)
		}
		return Event{Type: EventDone, Guide: &g}, nil
	})
}

// StartCards makes flashcards and their quiz from sc in the background.
func (j *Jobs) StartCards(ctx context.Context, id string, sc Scope, o Options, emit func(Event)) error {
	return j.start(ctx, id, emit, func(ctx context.Context, progress func(Progress)) (Event, error) {
		d, err := j.s.Cards(ctx, sc, o, progress)
		if err != nil {
			return Event{}, err
		}
		return Event{Type: EventDone, Deck: &d, Quiz: Quiz(d.Cards)}, nil
	})
}

// start runs a study job on j.jobs: an id malformed or in use fails
// with jobs.ErrBadID. A panic in it (a bug reached by odd input, or in
// emit) ends this job with message.Internal, its stack logged; the
// session goes on.
func (j *Jobs) start(ctx context.Context, id string, emit func(Event), run func(context.Context, func(Progress)) (Event, error)) error {
	var ev Event
	_, err := j.jobs.Start(ctx, id, func(ctx context.Context) error {
		var err error
		ev, err = run(ctx, func(p Progress) { emit(Event{Type: EventProgress, Progress: &p}) })
		return err
	}, func(_ context.Context, err error) {
		if err != nil {
			m := llm.Problem(err)
			emit(Event{Type: EventError, Error: &m})
			return
		}
		emit(ev)
	})
	return err
}

// Cancel stops a job; it reports whether it was running.
func (j *Jobs) Cancel(id string) bool { return j.jobs.Cancel(id) }

// Kept returns the last guide made of sc (a document's section, a
// document, several documents or all of them, as they are now) this
// session.
func (j *Jobs) Kept(ctx context.Context, sc Scope) (Guide, bool) {
	k, docs, err := j.key(ctx, sc)
	if err != nil {
		return Guide{}, false
	}
	section := sc.Section
	j.mu.Lock()
	g, ok := j.guides[k]
	st := j.store
	j.mu.Unlock()
	if ok || st == nil || len(docs) != 1 {
		return g, ok
	}
	docID := docs[0].ID
	var kept Guide
	if !st.KeptStudy(ctx, docID, guideKey(section), &kept) || kept.DocID != docID ||
		normTitle(kept.Section) != normTitle(section) || // a guide of another section is not this one
		len(kept.Summary)+len(kept.Terms)+len(kept.QAs) > maxKeptLines { // nor one no reduce writes: not checked, made again

		return Guide{}, false
	}
	// Kept outside the session (a course file's may be anyone's): its
	// verdicts are this session's checker's, not the file's.
	kept, err = j.s.Recheck(ctx, kept)
	if err != nil {
		return Guide{}, false
	}
	j.mu.Lock()
	j.guides[k] = kept
	j.mu.Unlock()
	return kept, true
}

// maxKeptLines bounds the lines of a guide read back from its store,
// each checked again against every passage of its scope: a reduce writes
// at most NoteTokens (2,048 tokens), a line with its citation some ten
// tokens or more, so some 200 lines; the largest guide the tests make
// (Okasaki's thesis, a fake model passing every batch's notes through
// the reduce) has 96. A hostile course file's thousands of lines would
// keep the Study view waiting for their checks.
const maxKeptLines = 400

// key is the key a guide of sc is kept under: its documents' ids, in the
// library's order, and its section; and those documents.
func (j *Jobs) key(ctx context.Context, sc Scope) ([2]string, []corpus.Document, error) {
	docs, err := j.s.scopeDocs(ctx, sc)
	if err != nil {
		return [2]string{}, nil, err
	}
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	return [2]string{strings.Join(ids, "+"), normTitle(sc.Section)}, docs, nil
}

// guideKey is the key a guide of section is stored under, with the study
// prompts' version (a guide of older prompts is not read as this one's).
// The model is not part of it: a guide names the models that wrote it
// (Guide.Models), and the one kept is the last made.
func guideKey(section string) string {
	return "guide:" + prompt.StudyVersion + ":" + normTitle(section)
}

// Forget drops the guides of a document removed from the session, those
// of several documents among them too.
func (j *Jobs) Forget(docID string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for k := range j.guides {
		if slices.Contains(strings.Split(k[0], "+"), docID) {
			delete(j.guides, k)
		}
	}
}
