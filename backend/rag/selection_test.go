package rag

import (
	"strings"
	"sync"
	"testing"

	"vika/backend/corpus"
	"vika/backend/llm/llmtest"
	"vika/backend/testpdf"
)

// TestSelectionReachesThePrompt: a passage selected on a scanned page
// (Flajolet and Martin, OCR) and one selected on a text page go to the
// model as source 1 with their page, the question says so, the answer's
// citation of that page is verified, and the other sources come from
// around the selection's page first.
func TestSelectionReachesThePrompt(t *testing.T) {
	ctx := t.Context()
	eng := newEngine(t) // sat.pdf: six text pages
	flajolet, err := docOf(eng.Ingest(ctx, testpdf.SharedPDF(t, "flajolet_martin1985_probabilistic_counting_SCANNED.pdf"), nil))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := eng.Documents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var sat corpus.Document
	for _, d := range docs {
		if d.File == "sat.pdf" {
			sat = d
		}
	}
	pages, err := eng.Pages(ctx, flajolet.ID)
	if err != nil {
		t.Fatal(err)
	}
	// A line of OCR text of a scanned page, as the viewer's OCR layer gives it.
	var scanned corpus.Page
	for _, p := range pages {
		if p.Type == corpus.PageScanned && len(strings.Fields(p.Text)) > 40 && p.Number > 1 {
			scanned = p
			break
		}
	}
	if scanned.Number == 0 {
		t.Fatal("no scanned page with text in Flajolet and Martin")
	}
	words := strings.Fields(scanned.Text)
	ocrLine := strings.Join(words[10:24], " ")

	var mu sync.Mutex
	var bodies []string
	reply := "" // guarded by mu
	p := newProviders(t, func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		bodies = append(bodies, r.Body)
		return geminiSays(reply)
	}, func(llmtest.Request) llmtest.Reply { return groqSays("unused") }, 0)
	s := New(eng, p.svc, Config{})
	for _, c := range []struct {
		name string
		sel  corpus.Selection
		file string
	}{
		{"scanned page", corpus.Selection{DocID: flajolet.ID, Page: scanned.Number, Text: ocrLine}, flajolet.File},
		{"text page", corpus.Selection{DocID: sat.ID, Page: 3, Text: "adds a learnt clause that blocks the conflict"}, "sat.pdf"},
	} {
		label := corpus.CitationLabel(c.file, "", c.sel.Page)
		mu.Lock()
		reply = "This passage says what it selects " + label + "."
		mu.Unlock()
		o := testOptions()
		o.Selection = &c.sel
		a, err := s.Ask(ctx, "Explain this passage.", o, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		// The citation names the selection's page; which of the sources that
		// carry that label it is matched to (the selection, or the OCRed page
		// passage of the same page) follows the checker's overlap, which varies
		// with the OCR text, so only the page is required here.
		if len(a.Citations) != 1 || a.Citations[0].Page != c.sel.Page {
			t.Errorf("%s: citations = %+v", c.name, a.Citations)
		}
		if len(a.Sources) == 0 || a.Sources[0].ChunkID != corpus.SelectionID || a.Sources[0].Label != label || a.Sources[0].Index != 1 {
			t.Fatalf("%s: first source = %+v, want the selection as %s", c.name, a.Sources[0], label)
		}
		mu.Lock()
		body := bodies[len(bodies)-1]
		mu.Unlock()
		for _, want := range []string{label, strings.Fields(c.sel.Text)[0], "The passage I selected is source [1], " + label} {
			if !strings.Contains(body, jsonText(want)) {
				t.Errorf("%s: the prompt lacks %q", c.name, want)
			}
		}
		// The next sources: the selection's document, around its page, first.
		if len(a.Sources) > 1 && (a.Sources[1].DocID != c.sel.DocID || a.Sources[1].Page < c.sel.Page-1 || a.Sources[1].Page > c.sel.Page+1) {
			t.Errorf("%s: second source %s is not around the selection's page", c.name, a.Sources[1].Label)
		}
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}
