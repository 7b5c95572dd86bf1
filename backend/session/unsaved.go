package session

import (
	"context"
	"path/filepath"
	"slices"
	"sync"

	"vika/backend/engine"
	"vika/backend/rag"
	"vika/backend/study"
)

// Unsaved work. The session lives in memory; a course file (.vika) is the
// student's explicit save. The session counts every change to the work it
// holds (a document added, removed or cut into passages again, a
// conversation turn kept, a study guide or flashcards made, a card graded,
// a quiz question answered) and remembers
// the count at which it last matched a course file: when it was saved to
// one, or when one was opened into an empty session. The window asks
// before quitting while the two differ (Unsaved).

// savedState is the session's record of unsaved work.
type savedState struct {
	mu      sync.Mutex
	changes uint64 // guarded by mu: changes to the session's work
	at      uint64 // guarded by mu: changes when the session last matched a course file
	path    string // guarded by mu: that course file, "" when none
}

// changed counts a change to the session's work.
func (s *Session) changed() {
	s.saved.mu.Lock()
	s.saved.changes++
	s.saved.mu.Unlock()
}

// mark returns the count of changes so far.
func (s *Session) mark() uint64 {
	s.saved.mu.Lock()
	defer s.saved.mu.Unlock()
	return s.saved.changes
}

// matched records that the session held, at mark, what the course file at
// path holds.
func (s *Session) matched(mark uint64, path string) {
	path = absPath(path)
	s.saved.mu.Lock()
	s.saved.at, s.saved.path = mark, path
	s.saved.mu.Unlock()
}

// absPath is path made absolute (as it is when that fails).
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// Unsaved reports whether the session holds work that no course file
// holds: it changed since it was last saved to a course file or opened
// from one into an empty session, and it holds a document (a course
// keeps none without: the window saves none then).
func (s *Session) Unsaved() bool {
	s.saved.mu.Lock()
	dirty := s.saved.changes != s.saved.at
	s.saved.mu.Unlock()
	return dirty && !s.empty()
}

// CoursePath is the course file the session was last saved to or opened
// from into an empty session ("" when none), as an absolute path.
func (s *Session) CoursePath() string {
	s.saved.mu.Lock()
	defer s.saved.mu.Unlock()
	return s.saved.path
}

// empty reports whether the session holds no document; a session whose
// documents cannot be listed (closed) is not.
func (s *Session) empty() bool {
	docs, err := s.eng.Documents(context.Background())
	return err == nil && len(docs) == 0
}

// turnKept wraps an answer's emit (nil: none) to count the turn it keeps.
func (s *Session) turnKept(emit func(rag.Event)) func(rag.Event) {
	return func(ev rag.Event) {
		if ev.Type == rag.EventDone {
			s.changed()
		}
		if emit != nil {
			emit(ev)
		}
	}
}

// opening follows a course being opened: whether the session was empty
// when it started, the count of changes then, and what it brought.
type opening struct {
	path  string
	empty bool
	mark  uint64
	// background: a StartCourse job, whose own last event ends the
	// opening (OpenCourse ends it when it returns).
	background bool

	mu       sync.Mutex
	job      string // guarded by mu: the course job's id (its first event)
	added    int    // guarded by mu: PDFs added
	restored int    // guarded by mu: conversation turns and cards under review restored
}

// startOpening records the session as a course starts opening.
func (s *Session) startOpening(path string, background bool) *opening {
	o := &opening{path: path, mark: s.mark(), background: background}
	o.empty = s.empty()
	return o
}

// courseProgress is progress for a course's PDFs: their adds are counted
// for the course (opened), not as changes of their own; a course job's
// last event ends the opening (before it goes out).
func (s *Session) courseProgress(o *opening) func(engine.Progress) {
	return func(p engine.Progress) {
		o.mu.Lock()
		if o.background && o.job == "" {
			o.job = p.JobID // the course job's "queued" comes first
		}
		if p.Stage == engine.StageDone && p.Doc != nil {
			o.added++
		}
		ended := o.background && p.JobID == o.job && slices.Contains(engine.TerminalStages, p.Stage)
		o.mu.Unlock()
		if ended {
			s.opened(o, p.Stage == engine.StageDone)
		}
		s.emitProgress(p)
	}
}

// addRestored counts the conversation turns and the cards under review a
// course brought.
func (o *opening) addRestored(n int) {
	o.mu.Lock()
	o.restored += n
	o.mu.Unlock()
}

// opened ends an opening: a course opened whole into an empty session
// that nothing else changed meanwhile leaves the session matching that
// course file; anything else it brought is a change (a course that failed
// or was cancelled may have added some of its PDFs). A course opened goes
// first among the recent ones.
func (s *Session) opened(o *opening, ok bool) {
	o.mu.Lock()
	brought := o.added > 0 || o.restored > 0
	o.mu.Unlock()
	if ok {
		s.addRecent(o.path)
	}
	path := absPath(o.path)
	s.saved.mu.Lock()
	defer s.saved.mu.Unlock()
	switch {
	case ok && o.empty && s.saved.changes == o.mark:
		s.saved.at, s.saved.path = o.mark, path
	case brought:
		s.saved.changes++
	}
}

// studyMade wraps a study job's emit to count the guide or cards it made,
// and to put the cards made under review before the window hears of them.
func (s *Session) studyMade(emit func(study.Event)) func(study.Event) {
	return func(e study.Event) {
		if e.Type == study.EventDone {
			if e.Deck != nil {
				s.deckMade(s.life, *e.Deck)
			}
			s.changed()
		}
		emit(e)
	}
}
