package llm

import (
	"strings"
	"testing"
)

// TestAskForBuildsPerModel: each model tried gets the request built for
// it; the first (429) and the second see their own.
func TestAskForBuildsPerModel(t *testing.T) {
	e := newE2E(t)
	var built []string
	build := func(m Model) Request {
		built = append(built, m.Key())
		r := testRequest
		r.System = "for " + m.Key()
		return r
	}
	var rec recorder
	res, err := e.svc.AskFor(t.Context(), Query{Question: "What is 2-SAT?"}, build, rec.sink())
	if err != nil || res.ModelUsed != "groq/llama-3.1-8b-instant" {
		t.Fatalf("%v, %+v", err, res)
	}
	if strings.Join(built, ",") != "gemini/gemini-2.5-flash-lite,groq/llama-3.1-8b-instant" {
		t.Errorf("built for %v", built)
	}
	if !strings.Contains(e.groq.Last().Body, "for groq/llama-3.1-8b-instant") {
		t.Errorf("groq body %s", e.groq.Last().Body)
	}
}

// TestAskLightIgnoresComplexity: an auxiliary request goes to the lightest
// model even when its text reads as complex, and never to a manual choice.
func TestAskLightIgnoresComplexity(t *testing.T) {
	e := newE2E(t)
	req := testRequest
	req.Messages = []Message{{Role: RoleUser, Content: "Prove that 2-SAT is in P and compare it with 3-SAT."}}
	res, err := e.svc.AskLight(t.Context(), req, Sink{Delta: func(Delta) error { return nil }})
	if err != nil || res.ModelUsed != "groq/llama-3.1-8b-instant" || res.Chain[0].Model != "gemini/gemini-2.5-flash-lite" {
		t.Errorf("%v, %+v", err, res)
	}
	for k := range e.keys {
		delete(e.keys, k)
	}
	if _, err := e.svc.AskLight(t.Context(), req, Sink{Delta: func(Delta) error { return nil }}); err == nil {
		t.Error("AskLight without any model succeeded")
	}
}
