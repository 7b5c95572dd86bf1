package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"vika/backend/message"
	"vika/backend/study"
	"vika/backend/testpdf"
)

// TestStudyJobs: without a model a guide started through the session is
// the extractive outline, its events on study:<id>, and it is kept with
// the document until the document is removed; flashcards end with the
// needs-a-model code.
func TestStudyJobs(t *testing.T) {
	var h heard
	s := open(t, "", &h)
	path := filepath.Join(t.TempDir(), "sat.pdf")
	if err := os.WriteFile(path, testpdf.Text(
		"Unit propagation assigns the only remaining literal of a unit clause and repeats until no unit clause is left.",
		"The DPLL algorithm chooses a branching variable, assigns it and backtracks chronologically on a conflict."), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := s.Ingest(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := r.Doc
	if err := s.StartStudyGuide(context.Background(), "g1", study.Scope{DocID: doc.ID}, study.Options{}); err != nil {
		t.Fatal(err)
	}
	evs := h.wait(t, "guide done", func(e event) bool {
		ev, ok := e.payload.(study.Event)
		return ok && e.name == EventStudyPrefix+"g1" && ev.Type == study.EventDone
	})
	g := evs[len(evs)-1].payload.(study.Event).Guide
	if g == nil || !g.Plan.Extractive || len(g.Outline) != 1 || g.Outline[0].Label != "[sat.pdf p.1]" {
		t.Fatalf("guide %+v", g)
	}
	if kept, ok := s.StudyGuideKept(doc.ID, ""); !ok || len(kept.Outline) != 1 {
		t.Error("the guide is not kept with the document")
	}
	s.StartStudyCards(context.Background(), "c1", study.Scope{DocID: doc.ID}, study.Options{})
	h.wait(t, "cards error", func(e event) bool {
		ev, ok := e.payload.(study.Event)
		return ok && e.name == EventStudyPrefix+"c1" && ev.Type == study.EventError && ev.Error.Code == message.StudyNeedsModel
	})
	if err := s.RemoveDocument(context.Background(), doc.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.StudyGuideKept(doc.ID, ""); ok {
		t.Error("a removed document's guide is kept")
	}
}
