package study

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"vika/backend/corpus"
	"vika/backend/crash"
	"vika/backend/message"
	"vika/backend/prompt"
	"vika/backend/rag"
)

// Event types of a study job.
const (
	EventProgress = "progress"
	EventDone     = "done"
	EventError    = "error"
)

// Event is what a study job reports: progress, then done (with the guide
// or the deck) or error (with its message, rag.Problem: a cancelled job
// ends with message.Cancelled).
type Event struct {
	Type     string           `json:"type"`
	Progress *Progress        `json:"progress,omitempty"`
	Guide    *Guide           `json:"guide,omitempty"`
	Deck     *Deck            `json:"deck,omitempty"`
	Quiz     []QuizItem       `json:"quiz,omitempty"`
	Error    *message.Message `json:"error,omitempty"`
}

// ErrInvalid is a job id that is malformed or already in use.
var ErrInvalid = errors.New("invalid study job id")

var validID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Jobs runs study jobs in the background, by an id the caller chose, and
// keeps each document's last guide for the session.
type Jobs struct {
	s *Studier

	wg      sync.WaitGroup // the jobs running, for Close to wait for
	mu      sync.Mutex
	closed  bool                          // guarded by mu: Close was called
	running map[string]context.CancelFunc // guarded by mu
	guides  map[[2]string]Guide           // guarded by mu: by document ids and section (key)
	store   Store                         // guarded by mu: nil keeps guides for the session only
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

// ErrClosed is a job started after Close.
var ErrClosed = errors.New("study jobs closed")

// Close cancels the running jobs and waits for them to end; a job
// started afterwards fails with ErrClosed.
func (j *Jobs) Close() {
	j.mu.Lock()
	j.closed = true
	for _, cancel := range j.running {
		cancel()
	}
	j.mu.Unlock()
	j.wg.Wait()
}

// NewJobs returns the jobs of s.
func NewJobs(s *Studier) *Jobs {
	return &Jobs{s: s, running: map[string]context.CancelFunc{}, guides: map[[2]string]Guide{}}
}

// Studier returns the Studier the jobs run on.
func (j *Jobs) Studier() *Studier { return j.s }

// StartGuide makes the guide of sc in the background; its events go to
// emit, the last one done or error. A finished guide is kept (Kept).
func (j *Jobs) StartGuide(ctx context.Context, id string, sc Scope, o Options, emit func(Event)) error {
	return j.start(ctx, id, emit, func(ctx context.Context, progress func(Progress)) (Event, error) {
		g, err := j.s.Guide(ctx, sc, o, progress)
		if err != nil {
			return Event{}, err
		}
		k, _, err := j.key(ctx, sc)
		if err != nil {
			return Event{}, err
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

func (j *Jobs) start(ctx context.Context, id string, emit func(Event), run func(context.Context, func(Progress)) (Event, error)) error {
	if !validID.MatchString(id) {
		return fmt.Errorf("%w: %q", ErrInvalid, id)
	}
	ctx, cancel := context.WithCancel(ctx)
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		cancel()
		return ErrClosed
	}
	if _, busy := j.running[id]; busy {
		j.mu.Unlock()
		cancel()
		return fmt.Errorf("%w: %q is running", ErrInvalid, id)
	}
	j.running[id] = cancel
	j.wg.Add(1)
	j.mu.Unlock()
	go func() {
		defer j.wg.Done()
		defer func() {
			j.mu.Lock()
			delete(j.running, id)
			j.mu.Unlock()
			cancel()
		}()
		ev, err := runJob(ctx, id, emit, run)
		if err != nil {
			m := rag.Problem(err)
			emit(Event{Type: EventError, Error: &m})
			return
		}
		emit(ev)
	}()
	return nil
}

// runJob runs one job. A panic in it (a bug reached by odd input, or in
// emit) ends this job with message.Internal, its stack logged; the
// session goes on.
func runJob(ctx context.Context, id string, emit func(Event), run func(context.Context, func(Progress)) (Event, error)) (ev Event, err error) {
	defer crash.Recover("study job "+id, &err)
	return run(ctx, func(p Progress) { emit(Event{Type: EventProgress, Progress: &p}) })
}

// Cancel stops a job; it reports whether it was running.
func (j *Jobs) Cancel(id string) bool {
	j.mu.Lock()
	cancel, ok := j.running[id]
	j.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}

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
	if !st.KeptStudy(ctx, docID, guideKey(section), &kept) || kept.DocID != docID {
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
