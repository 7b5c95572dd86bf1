package session

import (
	"path/filepath"
	"testing"

	"vika/backend/rag"
)

// TestCourseConversationIsShown: a course saved with its conversation and
// opened in another session brings its turns into that conversation, and
// the session says so (EventConversationRestored) so that the chat shows
// the turns the next question's history holds.
func TestCourseConversationIsShown(t *testing.T) {
	first := open(t, "", &heard{})
	if _, err := first.Ingest(t.Context(), writePDF(t, "sat.pdf",
		"Boolean satisfiability (SAT) asks whether a formula has a satisfying assignment. Cook proved SAT NP-complete in 1971."), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := first.Ask(t.Context(), "Who proved SAT NP-complete?", rag.Options{Mode: "bm25"}, nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sat.vika")
	if _, err := first.SaveCourse(t.Context(), path, true); err != nil {
		t.Fatal(err)
	}

	h := &heard{}
	second := open(t, "", h)
	res, err := second.OpenCourse(t.Context(), path)
	if err != nil || len(res.Added) != 1 {
		t.Fatalf("OpenCourse = %+v, %v", res, err)
	}
	evs := h.wait(t, EventConversationRestored, func(ev event) bool { return ev.name == EventConversationRestored })
	for _, ev := range evs {
		if ev.name == EventConversationRestored && ev.payload != 1 {
			t.Errorf("%s carries %v, want 1 turn", ev.name, ev.payload)
		}
	}
	if conv := second.Conversation(); len(conv) != 1 || conv[0].Question != "Who proved SAT NP-complete?" {
		t.Errorf("conversation after opening = %+v", conv)
	}
}
