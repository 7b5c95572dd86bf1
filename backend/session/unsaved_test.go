package session

import (
	"context"
	"path/filepath"
	"testing"

	"vika/backend/engine"
	"vika/backend/rag"
	"vika/backend/study"
)

const satText = "Boolean satisfiability (SAT) asks whether a formula has a satisfying assignment. Cook proved SAT NP-complete in 1971."

// TestUnsavedWork: an empty session has nothing to save; a document
// added, a turn, a study guide, a re-chunk and a removal are unsaved work
// until the session is saved to a course file, which it then names; a
// session without documents again has nothing to save.
func TestUnsavedWork(t *testing.T) {
	h := &heard{}
	s := open(t, "", h)
	ctx := context.Background()
	want := func(step string, unsaved bool) {
		t.Helper()
		if got := s.Unsaved(); got != unsaved {
			t.Fatalf("%s: Unsaved() = %v, want %v", step, got, unsaved)
		}
	}
	save := func(step string) string {
		t.Helper()
		path := filepath.Join(t.TempDir(), "sat.vika")
		if _, err := s.SaveCourse(ctx, path, true); err != nil {
			t.Fatal(err)
		}
		want(step, false)
		if s.CoursePath() != path {
			t.Errorf("%s: CoursePath() = %q, want %q", step, s.CoursePath(), path)
		}
		return path
	}
	want("empty", false)
	if s.CoursePath() != "" {
		t.Errorf("CoursePath() of a new session = %q", s.CoursePath())
	}

	add := func(name, text string) string {
		t.Helper()
		id := s.StartFile(writePDF(t, name, text))
		evs := h.wait(t, "add done", func(ev event) bool {
			p, ok := ev.payload.(engine.Progress)
			return ok && p.JobID == id && p.Stage == engine.StageDone
		})
		doc := lastOf(evs, id).Doc
		if doc == nil {
			t.Fatalf("%s not added", name)
		}
		return doc.ID
	}
	sat := add("sat.pdf", satText)
	want("a document added (its done event heard)", true)
	save("saved")

	if _, err := s.Ask(ctx, "Who proved SAT NP-complete?", rag.Options{Mode: "bm25"}, nil); err != nil {
		t.Fatal(err)
	}
	want("a turn", true)
	save("saved with the turn")

	if err := s.StartStudyGuide(ctx, "g1", study.Scope{DocID: sat}, study.Options{}); err != nil {
		t.Fatal(err)
	}
	h.wait(t, "guide done", func(e event) bool {
		ev, ok := e.payload.(study.Event)
		return ok && e.name == EventStudyPrefix+"g1" && ev.Type == study.EventDone
	})
	want("a study guide", true)
	save("saved after the guide")

	if _, err := s.Rechunk(ctx, sat); err != nil {
		t.Fatal(err)
	}
	want("re-chunked", true)
	units := add("units.pdf", "Unit propagation assigns the only literal left in a unit clause.")
	save("saved with two documents")

	if err := s.RemoveDocument(ctx, sat); err != nil {
		t.Fatal(err)
	}
	want("a document removed, one left", true)
	if err := s.RemoveDocument(ctx, units); err != nil {
		t.Fatal(err)
	}
	want("no document left (the turns kept)", false)
}

// TestCourseOpenedIsSaved: a course opened into an empty session (in the
// background as the window does, or waited for) leaves it saved, naming
// that course file, until something changes; opened into a session that
// holds other work, it makes that session unsaved even when that work was
// saved.
func TestCourseOpenedIsSaved(t *testing.T) {
	ctx := context.Background()
	first := open(t, "", &heard{})
	if _, err := first.Ingest(ctx, writePDF(t, "sat.pdf", satText), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := first.Ask(ctx, "Who proved SAT NP-complete?", rag.Options{Mode: "bm25"}, nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sat.vika")
	if _, err := first.SaveCourse(ctx, path, true); err != nil {
		t.Fatal(err)
	}

	h := &heard{}
	bg := open(t, "", h)
	id := bg.StartCourse(path)
	h.wait(t, "course done", func(ev event) bool {
		p, ok := ev.payload.(engine.Progress)
		return ok && p.JobID == id && p.Stage == engine.StageDone
	})
	if bg.Unsaved() || bg.CoursePath() != path || len(bg.Conversation()) != 1 {
		t.Errorf("opened in the background: Unsaved() = %v, CoursePath() = %q, %d turns", bg.Unsaved(), bg.CoursePath(), len(bg.Conversation()))
	}
	if _, err := bg.Ask(ctx, "When?", rag.Options{Mode: "bm25"}, nil); err != nil {
		t.Fatal(err)
	}
	if !bg.Unsaved() {
		t.Error("a turn after opening the course is not unsaved")
	}

	waited := open(t, "", &heard{})
	if _, err := waited.OpenCourse(ctx, path); err != nil {
		t.Fatal(err)
	}
	if waited.Unsaved() || waited.CoursePath() != path {
		t.Errorf("opened and waited for: Unsaved() = %v, CoursePath() = %q", waited.Unsaved(), waited.CoursePath())
	}

	other := open(t, "", &heard{})
	if _, err := other.Ingest(ctx, writePDF(t, "units.pdf", "Unit propagation assigns the only literal left in a unit clause."), nil); err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(t.TempDir(), "units.vika")
	if _, err := other.SaveCourse(ctx, own, false); err != nil {
		t.Fatal(err)
	}
	if _, err := other.OpenCourse(ctx, path); err != nil {
		t.Fatal(err)
	}
	if !other.Unsaved() || other.CoursePath() != own {
		t.Errorf("a course opened into a saved session: Unsaved() = %v, CoursePath() = %q", other.Unsaved(), other.CoursePath())
	}
}

// TestCourseFailedLeavesNothingSaved: a course that cannot be opened
// changes nothing.
func TestCourseFailedLeavesNothingSaved(t *testing.T) {
	s := open(t, "", &heard{})
	if _, err := s.OpenCourse(context.Background(), filepath.Join(t.TempDir(), "none.vika")); err == nil {
		t.Fatal("a missing course file opened")
	}
	if s.Unsaved() || s.CoursePath() != "" {
		t.Errorf("Unsaved() = %v, CoursePath() = %q", s.Unsaved(), s.CoursePath())
	}
}
