package session

import (
	"context"
	"encoding/json"
	"path/filepath"

	"vika/backend/course"
	"vika/backend/engine"
	"vika/backend/export"
	"vika/backend/folder"
	"vika/backend/message"
	"vika/backend/rag"
)

// SaveCourse saves the session's documents to the course file at path,
// with the conversation when withConversation.
func (s *Session) SaveCourse(ctx context.Context, path string, withConversation bool) (int, error) {
	var conv []byte
	if withConversation {
		var err error
		// Redacted as every export: a key pasted into a question must not
		// travel in a file the student may hand to someone.
		if conv, err = json.Marshal(export.Redacted(s.assistant.Conversation())); err != nil {
			return 0, err
		}
	}
	return s.eng.SaveCourse(ctx, path, conv)
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

// OpenCourse adds the PDFs of the course file at path, each step going
// out as EventIngestProgress, a PDF not added (a duplicate) on its own
// failed row, and restores the conversation it holds (bounded; shown
// like any answer).
func (s *Session) OpenCourse(ctx context.Context, path string) (engine.CourseResult, error) {
	res, err := s.eng.OpenCourse(ctx, path, s.progress) // a failed PDF's row included
	if err != nil {
		return res, err
	}
	if res.Conversation != nil {
		var turns []rag.Answer
		if json.Unmarshal(res.Conversation, &turns) == nil {
			if n := s.assistant.RestoreConversation(turns); n > 0 {
				s.emit(EventConversationRestored, n)
			}
		}
	}
	return res, nil
}

// FolderBatch is a folder being added: one job per PDF, and what was left.
type FolderBatch struct {
	folder.Listing
	Jobs   []string `json:"jobs"` // one per PDF of Listing.PDFs
	Capped bool     `json:"capped"`
	Max    int      `json:"max"`
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
	b := FolderBatch{Listing: l, Jobs: []string{}, Capped: l.Capped(), Max: folder.DefaultMax}
	for _, p := range l.PDFs {
		b.Jobs = append(b.Jobs, s.StartFile(p))
	}
	return b
}

// OpenFiles opens what the command line names (a double-click passes the
// file, as the desktop entry's Exec %F and the Windows "%1" do): each
// course file (.vika) is opened as a course, a refused one on its own
// failed row (EventIngestProgress, its code), and every other path is
// added as a PDF. It returns the PDFs' job ids.
func (s *Session) OpenFiles(ctx context.Context, paths []string) []string {
	var jobs []string
	for _, p := range paths {
		if !course.IsPath(p) {
			jobs = append(jobs, s.StartFile(p))
			continue
		}
		if _, err := s.OpenCourse(ctx, p); err != nil {
			m := message.Of(err)
			name := filepath.Base(p)
			s.emit(EventIngestProgress, engine.Progress{JobID: "course-" + name, File: name,
				Stage: engine.StageFailed, Error: err.Error(), Problem: &m})
		}
	}
	return jobs
}
