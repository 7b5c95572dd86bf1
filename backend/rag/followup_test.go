package rag

import (
	"encoding/json"
	"strings"
	"testing"

	"vika/backend/llm/llmtest"
	"vika/backend/metrics"
	"vika/backend/prompt"
)

// requestText returns the system instruction and messages of a Gemini
// request body, joined.
func requestText(t *testing.T, body string) string {
	t.Helper()
	var req struct {
		SystemInstruction struct {
			Parts []struct{ Text string } `json:"parts"`
		} `json:"systemInstruction"`
		Contents []struct {
			Role  string                  `json:"role"`
			Parts []struct{ Text string } `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatalf("gemini request: %v\n%s", err, body)
	}
	var b strings.Builder
	for _, p := range req.SystemInstruction.Parts {
		b.WriteString(p.Text + "\n")
	}
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			b.WriteString(c.Role + ": " + p.Text + "\n")
		}
	}
	return b.String()
}

// TestFollowUpRewrite: a follow-up is rewritten by the cheapest model into
// a standalone question, which retrieval uses; the answer prompt carries
// the earlier turn.
func TestFollowUpRewrite(t *testing.T) {
	eng := newEngine(t)
	var p *providers
	p = newProviders(t, func(r llmtest.Request) llmtest.Reply {
		text := requestText(t, r.Body)
		switch {
		case strings.Contains(text, "standalone search query"):
			return geminiSays("Standalone question: How does the DPLL algorithm backtrack on a conflict?")
		case strings.Contains(text, "backtrack"):
			return geminiSays("It backtracks chronologically on a conflict [sat.pdf p.2].")
		}
		return geminiSays(goodAnswer)
	}, nil, 0)
	s := New(eng, p.svc, Config{})
	if _, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), nil); err != nil {
		t.Fatal(err)
	}
	var ev events
	a, err := s.Ask(t.Context(), "And how does it handle a conflict?", testOptions(), ev.emit)
	if err != nil {
		t.Fatal(err)
	}
	if a.StandaloneQuestion != "How does the DPLL algorithm backtrack on a conflict?" {
		t.Errorf("standalone = %q", a.StandaloneQuestion)
	}
	if len(a.Sources) == 0 || a.Sources[0].Page != 2 {
		t.Errorf("sources = %+v", a.Sources)
	}
	if ev.all()[0].Stage != StageRewriting {
		t.Errorf("first event %+v", ev.all()[0])
	}
	reqs := p.gemini.Requests()
	if len(reqs) != 3 || !strings.Contains(reqs[1].Path, "gemini-2.5-flash-lite") {
		t.Fatalf("%d gemini requests", len(reqs))
	}
	// The answer prompt: the earlier turn, then the question as asked.
	answerPrompt := requestText(t, reqs[2].Body)
	if !strings.Contains(answerPrompt, "user: What does unit propagation do?\nmodel: "+goodAnswer) ||
		!strings.Contains(answerPrompt, "<question>\nAnd how does it handle a conflict?\n</question>") {
		t.Errorf("answer prompt:\n%s", answerPrompt)
	}

	// With history off: no rewrite, no earlier turn.
	o := testOptions()
	o.History = false
	n := p.gemini.Count()
	a, _ = s.Ask(t.Context(), "And how does the DPLL algorithm handle a conflict?", o, nil)
	if a.StandaloneQuestion != "" || a.Kind != KindLLM || p.gemini.Count() != n+1 || strings.Contains(requestText(t, p.gemini.Last().Body), "unit propagation do?") {
		t.Errorf("history off: standalone %q, %d requests", a.StandaloneQuestion, p.gemini.Count()-n)
	}
}

// TestFollowUpHeuristic: without a model the heuristic rewrite is used.
func TestFollowUpHeuristic(t *testing.T) {
	s := New(newEngine(t), nil, Config{})
	if _, err := s.Ask(t.Context(), "What does the DPLL algorithm do?", testOptions(), nil); err != nil {
		t.Fatal(err)
	}
	a, err := s.Ask(t.Context(), "And on a conflict?", testOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := prompt.Standalone("And on a conflict?", []prompt.Turn{{Question: "What does the DPLL algorithm do?"}})
	if a.StandaloneQuestion != want || !strings.Contains(want, "DPLL") {
		t.Errorf("standalone = %q, want %q", a.StandaloneQuestion, want)
	}
}

// TestHistoryLastThreeTurns: the prompt carries the last three turns only.
func TestHistoryLastThreeTurns(t *testing.T) {
	eng := newEngine(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply { return geminiSays(goodAnswer) }, nil, 0)
	s := New(eng, p.svc, Config{})
	qs := []string{"What does unit propagation do?", "What is VSIDS about?", "What are Luby restarts?", "What is clause learning?", "What does DPLL do?"}
	for _, q := range qs {
		if _, err := s.Ask(t.Context(), q, testOptions(), nil); err != nil {
			t.Fatal(err)
		}
	}
	last := requestText(t, p.gemini.Last().Body)
	for i, q := range qs[:4] {
		if in := strings.Contains(last, "user: "+q); in != (i >= 1) {
			t.Errorf("turn %d (%q) in the prompt: %v", i+1, q, in)
		}
	}
	if len(s.Conversation()) != 5 {
		t.Errorf("conversation has %d turns", len(s.Conversation()))
	}
	s.ClearConversation()
	if len(s.Conversation()) != 0 {
		t.Error("ClearConversation kept turns")
	}
	view, err := s.Metrics(t.Context())
	if err != nil || len(view.Records) != 5 || view.Summary.Questions != 5 || view.Summary.RelevanceProxy != metrics.ProxyNone {
		t.Errorf("metrics view %+v, %v", view.Summary, err)
	}
}
