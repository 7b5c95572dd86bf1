package session

import (
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/engine"
	"vika/backend/rag"
)

// TestSaveCourseRedactsConversation: a key pasted into a question is
// redacted in the course file, as in every export (export.Redacted), and
// the session's own conversation keeps the question as asked. Fails on
// main (checked by stashing the fix): SaveCourse wrote the conversation
// as it was.
func TestSaveCourseRedactsConversation(t *testing.T) {
	s := open(t, "", &heard{})
	if _, err := s.Ingest(t.Context(), writePDF(t, "sat.pdf",
		"Boolean satisfiability (SAT) asks whether a formula has a satisfying assignment. Cook proved SAT NP-complete in 1971."), nil); err != nil {
		t.Fatal(err)
	}
	key := "gsk_" + strings.Repeat("Ab3", 10)
	q := "Who proved SAT NP-complete? my key is " + key
	if _, err := s.Ask(t.Context(), q, rag.Options{Mode: "bm25"}, nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sat.vika")
	if _, err := s.SaveCourse(t.Context(), path, true); err != nil {
		t.Fatal(err)
	}
	_, conv, err := engine.ReadCourse(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(conv), key) || !strings.Contains(string(conv), "[redacted]") {
		t.Errorf("course conversation: %s", conv)
	}
	if c := s.Conversation(); len(c) != 1 || c[0].Question != q {
		t.Errorf("the session's conversation changed: %+v", c)
	}
}
