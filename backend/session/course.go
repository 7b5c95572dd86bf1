package session

import (
	"context"
	"encoding/json"
	"log"

	"vika/backend/course"
	"vika/backend/engine"
	"vika/backend/export"
	"vika/backend/folder"
	"vika/backend/notes"
	"vika/backend/rag"
)

// SaveCourse saves the session's documents to the course file at path,
// with the flashcards under review and their log, the student's own
// highlights and notes, and the conversation
// when withConversation. Saved, the session holds no
// unsaved work (what changed while it was being written excepted: the
// student chose what to keep), and the course goes first among the
// recent ones.
func (s *Session) SaveCourse(ctx context.Context, path string, withConversation bool) (int, error) {
	mark := s.mark()
	var conv []byte
	if withConversation {
		var err error
		// The newest turns a session restores of a course, no more,
		// redacted as every export: a key pasted into a question must not
		// travel in a file the student may hand to someone.
		if conv, err = json.Marshal(export.Redacted(rag.Newest(s.assistant.Conversation()))); err != nil {
			return 0, err
		}
	}
	reviews, err := s.reviews.Encode()
	if err != nil {
		return 0, err
	}
	notesData, err := notes.Encode(s.notes.List(""))
	if err != nil {
		return 0, err
	}
	n, err := s.eng.SaveCourse(ctx, path, conv, reviews, notesData)
	if err != nil {
		return n, err
	}
	s.matched(mark, path)
	s.addRecent(path)
	return n, nil
}

// CourseInfo reads the course file at path without adding anything to the
// session (engine.ReadCourse's checks) and says, for each PDF, whether it
// was processed with this session's pipeline settings, so that opening it
// reuses its data as it is.
func (s *Session) CourseInfo(ctx context.Context, path string) (entries []engine.CourseEntry, sameSetup []bool, err error) {
	entries, _, err = engine.ReadCourse(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	setup := s.eng.Setup()
	sameSetup = make([]bool, len(entries))
	for i, e := range entries {
		sameSetup[i] = e.Setup == setup
	}
	return entries, sameSetup, nil
}

// OpenCourse adds the PDFs of the course file at path and waits (the
// command line's `vika course open`), each step going out as
// EventIngestProgress, a PDF not added (a duplicate) on its own failed
// row, and restores the conversation it holds (bounded; shown like any
// answer) and its flashcards under review with their log (checked, those
// of the session's documents). Opened into an empty session, the course leaves it saved
// (Unsaved).
func (s *Session) OpenCourse(ctx context.Context, path string) (engine.CourseResult, error) {
	o := s.startOpening(path, false)
	var conv courseConversation
	res, err := s.eng.OpenCourse(ctx, path, s.courseProgress(o), conv.cited) // a failed PDF's row included
	if err == nil {
		o.addRestored(s.restoreConversation(&conv) + s.restoreReviews(ctx, res.Reviews) + s.restoreNotes(ctx, res.Notes))
	}
	s.opened(o, err == nil)
	return res, err
}

// StartCourse opens the course file at path in the background, as a job
// (engine.StartCourse: its row in the Library, cancellable with Cancel),
// and restores its conversation once its PDFs are added. The window calls
// it (the Open button, a double-click, a drop): nothing waits for the
// course on the window's side.
func (s *Session) StartCourse(path string) string {
	o := s.startOpening(path, true)
	conv := &courseConversation{}
	return s.eng.StartCourse(path, s.courseProgress(o), conv.cited, func(res engine.CourseResult) {
		o.addRestored(s.restoreConversation(conv) + s.restoreReviews(s.life, res.Reviews) + s.restoreNotes(s.life, res.Notes))
	})
}

// courseConversation is a course's conversation decoded once, when the
// engine asks for the pages it cites (before the PDFs are added), and
// restored after them.
type courseConversation struct {
	turns []rag.Answer
}

// cited decodes the conversation (a turn at a time within the bounds of
// a restore: one past them was not written by Vika and is left out) and
// names the pages it cites (engine.CitedFunc).
func (c *courseConversation) cited(conversation []byte) map[string][]int {
	turns, err := rag.DecodeConversation(conversation)
	if err != nil {
		log.Printf("session: course conversation left out: %v", err)
		return nil
	}
	c.turns = turns
	return rag.CitedPages(turns)
}

// restoreConversation restores the conversation a course held and
// returns how many turns it took.
func (s *Session) restoreConversation(c *courseConversation) int {
	if len(c.turns) == 0 {
		return 0
	}
	n := s.assistant.RestoreConversation(c.turns)
	if n > 0 {
		s.emit(EventConversationRestored, n)
	}
	return n
}

// FolderBatch is a folder being added: one job per PDF, and what was left.
type FolderBatch struct {
	folder.Listing
	Jobs   []string `json:"jobs"` // one per PDF of Listing.PDFs
	Capped bool     `json:"capped"`
	Max    int      `json:"max"`
	// The walk's bounds, for the window's notes on Truncated and Deep.
	MaxEntries int `json:"max_entries"`
	MaxDepth   int `json:"max_depth"`
}

// AddFolder starts adding every PDF under dir (folder.PDFs) and returns
// the batch.
func (s *Session) AddFolder(ctx context.Context, dir string) (FolderBatch, error) {
	l, err := folder.PDFs(ctx, dir, folder.DefaultMax)
	if err != nil {
		return FolderBatch{}, err
	}
	return s.startBatch(l), nil
}

// startBatch starts adding a folder's PDFs, a job each.
func (s *Session) startBatch(l folder.Listing) FolderBatch {
	b := FolderBatch{Listing: l, Jobs: []string{}, Capped: l.Capped(), Max: folder.DefaultMax,
		MaxEntries: folder.MaxEntries, MaxDepth: folder.MaxDepth}
	for _, p := range l.PDFs {
		b.Jobs = append(b.Jobs, s.StartFile(p))
	}
	return b
}

// OpenFiles opens what the command line names (a double-click passes the
// file, as the desktop entry's Exec %F and the Windows "%1" do): each
// course file (.vika) is opened as a course (StartCourse), every other
// path added as a PDF (StartFile), all in the background. It returns the
// jobs' ids.
func (s *Session) OpenFiles(paths []string) []string {
	var jobs []string
	for _, p := range paths {
		if course.IsPath(p) {
			jobs = append(jobs, s.StartCourse(p))
		} else {
			jobs = append(jobs, s.StartFile(p))
		}
	}
	return jobs
}
