package rag

import (
	"strings"
	"testing"

	"vika/backend/message"
	"vika/backend/testpdf"
)

// TestAskSectionScope: offline (the extractive answer), a question scoped
// to an outline section quotes only that section's pages, and the metrics
// record the section and its pages; an unknown section is refused with its
// code before anything is searched.
func TestAskSectionScope(t *testing.T) {
	eng := newEngine(t)
	marks := []testpdf.Bookmark{{Title: "Introduction", Page: 1}, {Title: "Méthodes", Page: 2}, {Title: "Résultats", Page: 4}}
	doc, err := addPDF(t, eng, "etude.pdf", testpdf.Outlined(5, "Une étude", "A", "S", "k", "c", marks))
	if err != nil {
		t.Fatal(err)
	}
	s := New(eng, nil, Config{MinBM25: 0.01}) // one-line pages score low: quote them, do not abstain
	o := testOptions()
	o.Scope.Section = "méthodes"
	a, err := s.Ask(t.Context(), "What does the page of the outlined document say?", o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != KindExtractive || len(a.Sources) == 0 {
		t.Fatalf("answer %+v", a)
	}
	for _, src := range a.Sources {
		if src.DocID != doc.ID || src.Page < 2 || src.Page > 3 {
			t.Errorf("source %s outside Méthodes (etude.pdf p.2-3)", src.Label)
		}
	}
	if want := "etude.pdf § Méthodes p.2-3"; a.Metrics.Scope != want {
		t.Errorf("metrics scope %q, want %q", a.Metrics.Scope, want)
	}
	o.Scope.Section = "Conclusion"
	if _, err := s.Ask(t.Context(), "What does it conclude?", o, nil); message.Of(err).Code != message.ScopeUnknownSection {
		t.Errorf("unknown section: %v", err)
	}
	if _, err := s.StartID(t.Context(), "", "What does it conclude?", o, nil); message.Of(err).Code != message.ScopeUnknownSection ||
		!strings.Contains(err.Error(), "Conclusion") {
		t.Errorf("unknown section, started: %v", err)
	}
}
