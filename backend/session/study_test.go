package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"vika/backend/cache"
	"vika/backend/message"
	"vika/backend/study"
	"vika/backend/testpdf"
)

// TestStudyJobs: without a model a guide started through the session is
// the extractive outline, its events on study:<id>, and it is kept with
// the document until the document is removed; flashcards end with the
// needs-a-model code, and so do suggested questions.
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
	if kept, ok := s.StudyGuideKept(context.Background(), study.Scope{DocID: doc.ID}); !ok || len(kept.Outline) != 1 {
		t.Error("the guide is not kept with the document")
	}
	s.StartStudyCards(context.Background(), "c1", study.Scope{DocID: doc.ID}, study.Options{})
	h.wait(t, "cards error", func(e event) bool {
		ev, ok := e.payload.(study.Event)
		return ok && e.name == EventStudyPrefix+"c1" && ev.Type == study.EventError && ev.Error.Code == message.StudyNeedsModel
	})
	// Suggested questions without a model: the code the window reads as "keep the offline ones".
	if qs, err := s.SuggestQuestions(context.Background(), doc.ID, "en"); message.Of(err).Code != message.StudyNeedsModel || len(qs) != 0 {
		t.Errorf("suggestions without a model: %q, %v", qs, err)
	}
	if err := s.RemoveDocument(context.Background(), doc.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.StudyGuideKept(context.Background(), study.Scope{DocID: doc.ID}); ok {
		t.Error("a removed document's guide is kept")
	}
}

// TestStudyGuideCached: with the document cache on (Remember), a guide
// comes back in a new session that adds the same PDF; with it off, the
// new session has none.
func TestStudyGuideCached(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sat.pdf")
	if err := os.WriteFile(path, testpdf.Text(
		"Unit propagation assigns the only remaining literal of a unit clause and repeats until no unit clause is left.",
		"The DPLL algorithm chooses a branching variable, assigns it and backtracks chronologically on a conflict."), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// session makes a guide in a session using c (nil: off), and returns
	// what a second session using c2 finds after adding the same PDF.
	session := func(c, c2 *cache.Cache) (made, found bool) {
		var h heard
		s := open(t, "", &h)
		s.UseCache(c)
		r, err := s.Ingest(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := s.StudyGuideKept(ctx, study.Scope{DocID: r.Doc.ID}); ok {
			t.Fatal("a guide before any was made")
		}
		if err := s.StartStudyGuide(ctx, "g1", study.Scope{DocID: r.Doc.ID}, study.Options{}); err != nil {
			t.Fatal(err)
		}
		h.wait(t, "guide done", func(e event) bool {
			ev, ok := e.payload.(study.Event)
			return ok && e.name == EventStudyPrefix+"g1" && ev.Type == study.EventDone
		})
		_, made = s.StudyGuideKept(ctx, study.Scope{DocID: r.Doc.ID})
		s.Close()

		var h2 heard
		s2 := open(t, "", &h2)
		defer s2.Close()
		s2.UseCache(c2)
		r2, err := s2.Ingest(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		g, found := s2.StudyGuideKept(ctx, study.Scope{DocID: r2.Doc.ID})
		if found && (g.DocID != r2.Doc.ID || len(g.Outline) != 1 || g.Outline[0].Label != "[sat.pdf p.1]") {
			t.Errorf("the guide read back: %+v", g)
		}
		return made, found
	}
	c, err := cache.Open(ctx, t.TempDir(), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if made, found := session(c, c); !made || !found {
		t.Errorf("cache on: guide made %v, found after reopening %v", made, found)
	}
	if made, found := session(nil, nil); !made || found {
		t.Errorf("cache off: guide made %v, found after reopening %v (want false)", made, found)
	}
	// Made with the cache off, the guide is not in the cache later turned on.
	c2, err := cache.Open(ctx, t.TempDir(), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if made, found := session(nil, c2); !made || found {
		t.Errorf("made with the cache off: found %v with it on later (want false)", found)
	}
}
