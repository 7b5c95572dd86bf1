package rag

import (
	"strings"
	"testing"

	"vika/backend/llm/llmtest"
)

// TestHyDE: the question shares no word with its page; the model's
// hypothetical passage finds it.
func TestHyDE(t *testing.T) {
	eng := newEngine(t)
	p := newProviders(t, func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(requestText(t, r.Body), "would answer the user's question") {
			return geminiSays("The VSIDS heuristic bumps the activity of variables in learnt clauses and decays them.")
		}
		return geminiSays("VSIDS bumps variable activities [sat.pdf p.4].")
	}, nil, 0)
	s := New(eng, p.svc, Config{})
	o := testOptions()
	o.HyDE, o.MinBM25 = true, 0.0001
	a, err := s.Ask(t.Context(), "Which branching heuristic do solvers favour?", o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Sources) == 0 || a.Sources[0].Page != 4 {
		t.Errorf("sources %+v", a.Sources)
	}
	// HyDE without a model: skipped, said so.
	a, _ = New(eng, nil, Config{}).Ask(t.Context(), "What does unit propagation do?", o, nil)
	if len(a.Notices) == 0 || !strings.Contains(a.Notices[0].Message, "HyDE was skipped (no model available): the question was searched as asked.") {
		t.Errorf("notices %+v", a.Notices)
	}
}

// TestMultiQuery: rephrasings find pages the question alone does not; the
// lists are fused.
func TestMultiQuery(t *testing.T) {
	eng := newEngine(t)
	p := newProviders(t, func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(requestText(t, r.Body), "different search queries") {
			return geminiSays("How does unit propagation work?\nWhat do restarts with the Luby sequence do?")
		}
		return geminiSays(goodAnswer)
	}, nil, 0)
	s := New(eng, p.svc, Config{})
	o := testOptions()
	o.MultiQuery = true
	a, err := s.Ask(t.Context(), "What does unit propagation do?", o, nil)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[int]bool{}
	for _, src := range a.Sources {
		pages[src.Page] = true
	}
	if !pages[1] || !pages[5] || a.Sources[0].Page != 1 {
		t.Errorf("sources %+v", a.Sources)
	}
	if a.Metrics.ChunksRetrieved < len(a.Sources) {
		t.Errorf("chunks retrieved %d", a.Metrics.ChunksRetrieved)
	}
}
