package session

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"

	"vika/backend/engine"
	"vika/backend/rag"
)

// SaveCourse writes the session's PDFs and their processed data to a
// course file at path, with the conversation when withConversation. It
// returns how many documents were saved.
func (s *Session) SaveCourse(ctx context.Context, path string, withConversation bool) (int, error) {
	var conv []byte
	if withConversation {
		var err error
		if conv, err = json.Marshal(s.assistant.Conversation()); err != nil {
			return 0, err
		}
	}
	return s.eng.SaveCourse(ctx, path, conv)
}

// OpenCourse adds the PDFs of the course file at path, each reported as an
// add's progress (a PDF it refuses, a duplicate say, on a row of its own),
// and restores the conversation it holds.
func (s *Session) OpenCourse(ctx context.Context, path string) (engine.CourseResult, error) {
	res, err := s.eng.OpenCourse(ctx, path, s.progress)
	if err != nil {
		return res, err
	}
	for i, f := range res.Failed {
		f.JobID = "course-" + filepath.Base(path) + "-" + strconv.Itoa(i)
		s.progress(f)
	}
	if res.Conversation != nil {
		var turns []rag.Answer
		if json.Unmarshal(res.Conversation, &turns) == nil {
			s.assistant.RestoreConversation(turns)
		}
	}
	return res, nil
}
