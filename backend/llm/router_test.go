package llm

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScore(t *testing.T) {
	tests := []struct {
		q       Query
		score   float64
		complex bool // at DefaultThreshold
	}{
		{Query{Question: "What is a SAT solver?"}, 0, false},
		{Query{Question: "Why is the sky blue?"}, 0.15, false},
		{Query{Question: "Pourquoi le ciel est-il bleu ?"}, 0.15, false},
		{Query{Question: "Prove that 2-SAT is in P."}, 0.35, true},
		{Query{Question: "Démontrez que le problème de l'arrêt est indécidable."}, 0.35, true},
		{Query{Question: "Compare DPLL and CDCL."}, 0.30, true},
		{Query{Question: "Quelle est la différence entre DPLL et CDCL ?"}, 0.30, true},
		{Query{Question: "What is $\\sum_{i=1}^n i$?"}, 0.20, false},
		{Query{Question: "Explain why $\\frac{a}{b} \\leq 1$ here."}, 0.35, true},
		{Query{Question: "What is DPLL? What is CDCL?"}, 0.15, false},
		{Query{Question: "What is DPLL? What is CDCL? What is a watched literal?"}, 0.30, true},
		{Query{Question: "What is unit propagation and why does it matter?"}, 0.30, true},
		{Query{Question: "Why?", Turns: 2}, 0.25, false},
		{Query{Question: "Why?", Turns: 5}, 0.30, true},
		{Query{Question: "Prove the lemma, derive the bound, compare it with the textbook's and explain why it is tight. " +
			"1. state the lemma\n2. prove it\n3. compare\n" + strings.Repeat("word ", 120), Turns: 9}, 1, true},
	}
	for _, tt := range tests {
		c := Score(tt.q)
		if c.Score != tt.score {
			t.Errorf("Score(%.40q) = %v (%+v), want %v", tt.q.Question, c.Score, c.Features, tt.score)
		}
		if got := c.Score >= DefaultThreshold; got != tt.complex {
			t.Errorf("%.40q complex = %v, want %v", tt.q.Question, got, tt.complex)
		}
	}
}

func TestScoreLength(t *testing.T) {
	short := Score(Query{Question: strings.Repeat("word ", 15)})
	mid := Score(Query{Question: strings.Repeat("word ", 57)})
	long := Score(Query{Question: strings.Repeat("word ", 300)})
	if short.Features.Length != 0 || mid.Features.Length < 0.09 || mid.Features.Length > 0.11 || long.Features.Length != 0.2 {
		t.Errorf("length features: %v %v %v", short.Features.Length, mid.Features.Length, long.Features.Length)
	}
}

func status(m Model, reason string) ModelStatus {
	return ModelStatus{Model: m, Available: reason == "", Reason: reason}
}

func TestPlan(t *testing.T) {
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	local := cat.localModel("ollama", ollamaModel{Name: "llama3.2:latest", ParamsB: 3.2})
	all := func(unavailable map[string]string) []ModelStatus {
		var out []ModelStatus
		for _, m := range append(cat.Models, local) {
			out = append(out, status(m, unavailable[m.Key()]))
		}
		return out
	}
	noKey := map[string]string{
		"mistral/mistral-small-2603":             "no API key for Mistral AI",
		"mistral/ministral-8b-2512":              "no API key for Mistral AI",
		"openrouter/openai/gpt-oss-120b":         "no API key for OpenRouter",
		"mistral/pixtral-12b-latest":             "no API key for Mistral AI",
		"openrouter/meta-llama/llama-4-maverick": "no API key for OpenRouter",
	}
	simple := Query{Question: "What is 2-SAT?"}
	complexQ := Query{Question: "Prove that 2-SAT is in P and compare it with 3-SAT."}

	tests := []struct {
		name        string
		q           Query
		models      []ModelStatus
		preferLocal bool
		want        []string
		mode        string
		notice      string
	}{
		{name: "simple: lightest and cheapest first, local last", q: simple, models: all(noKey), mode: "auto",
			want: []string{"gemini/gemini-2.5-flash-lite", "groq/llama-3.1-8b-instant", "gemini/gemini-2.5-flash",
				"groq/llama-3.3-70b-versatile", "gemini/gemini-2.5-pro", "ollama/llama3.2:latest"}},
		{name: "complex: most capable first", q: complexQ, models: all(noKey), mode: "auto",
			want: []string{"gemini/gemini-2.5-pro", "gemini/gemini-2.5-flash", "groq/llama-3.3-70b-versatile",
				"gemini/gemini-2.5-flash-lite", "groq/llama-3.1-8b-instant", "ollama/llama3.2:latest"}},
		{name: "prefer local", q: simple, models: all(noKey), preferLocal: true, mode: "auto",
			want: []string{"ollama/llama3.2:latest", "gemini/gemini-2.5-flash-lite", "groq/llama-3.1-8b-instant",
				"gemini/gemini-2.5-flash", "groq/llama-3.3-70b-versatile", "gemini/gemini-2.5-pro"}},
		{name: "every key: simple ties broken by cost then catalogue order", q: simple, models: all(nil), mode: "auto",
			want: []string{"gemini/gemini-2.5-flash-lite", "groq/llama-3.1-8b-instant", "mistral/ministral-8b-2512",
				"mistral/pixtral-12b-latest", "mistral/mistral-small-2603",
				"openrouter/meta-llama/llama-4-maverick", "gemini/gemini-2.5-flash",
				"groq/llama-3.3-70b-versatile", "openrouter/openai/gpt-oss-120b", "gemini/gemini-2.5-pro", "ollama/llama3.2:latest"}},
		{name: "manual: the selected model first, then complexity order", q: Query{Question: "What is 2-SAT?", Model: "groq/llama-3.3-70b-versatile"},
			models: all(noKey), mode: "manual",
			want: []string{"groq/llama-3.3-70b-versatile", "gemini/gemini-2.5-flash-lite", "groq/llama-3.1-8b-instant",
				"gemini/gemini-2.5-flash", "gemini/gemini-2.5-pro", "ollama/llama3.2:latest"}},
		{name: "manual but unavailable: notice, automatic order", q: Query{Question: "What is 2-SAT?", Model: "mistral/mistral-small-2603"},
			models: all(noKey), mode: "manual", notice: "Mistral Small 4 cannot be used now (no API key for Mistral AI). Using Gemini 2.5 Flash-Lite instead.",
			want: []string{"gemini/gemini-2.5-flash-lite", "groq/llama-3.1-8b-instant", "gemini/gemini-2.5-flash",
				"groq/llama-3.3-70b-versatile", "gemini/gemini-2.5-pro", "ollama/llama3.2:latest"}},
		{name: "only Ollama: fully offline", q: complexQ, mode: "auto",
			models: []ModelStatus{status(cat.Models[0], "no API key for Google Gemini"), status(local, "")},
			want:   []string{"ollama/llama3.2:latest"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Router{Threshold: DefaultThreshold, PreferLocal: tt.preferLocal}
			p, err := r.Plan(tt.q, tt.models)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, keys(p.Order)); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
			if p.Mode != tt.mode {
				t.Errorf("mode = %q", p.Mode)
			}
			var msgs []string
			for _, n := range p.Notices {
				msgs = append(msgs, n.Message)
			}
			if tt.notice != "" && (len(msgs) != 1 || msgs[0] != tt.notice) {
				t.Errorf("notices = %q, want %q", msgs, tt.notice)
			}
			if tt.notice == "" && len(msgs) != 0 {
				t.Errorf("unexpected notices %q", msgs)
			}
		})
	}
}

func TestPlanErrors(t *testing.T) {
	r := &Router{Threshold: DefaultThreshold}
	models := []ModelStatus{status(modelA, "no API key for A"), status(modelB, "Ollama is not running")}
	_, err := r.Plan(Query{Question: "q"}, models)
	if !errors.Is(err, ErrNoModel) || !strings.Contains(err.Error(), "add an API key") {
		t.Errorf("no model: %v", err)
	}
	_, err = r.Plan(Query{Question: "q", Model: "nope/nope"}, []ModelStatus{status(modelA, "")})
	if !errors.Is(err, ErrModelNotFound) {
		t.Errorf("unknown manual model: %v", err)
	}
}

func TestRouterStrategyNoticeOnce(t *testing.T) {
	tests := []struct{ strategy, want string }{
		{"bert", `Router "bert" is not available offline; using the heuristic complexity router.`},
		{"sw_ranking", `Router "sw_ranking" is not available offline; using the heuristic complexity router.`},
		{"mf", `Router "mf" is not available offline; using the heuristic complexity router.`},
		{"gpt4-judge", `Router "gpt4-judge" is unknown; using the heuristic complexity router.`},
		{"heuristic", ""},
		{"", ""},
	}
	models := []ModelStatus{status(modelA, "")}
	for _, tt := range tests {
		r := &Router{Threshold: DefaultThreshold, Strategy: tt.strategy}
		first, _ := r.Plan(Query{Question: "q"}, models)
		second, _ := r.Plan(Query{Question: "q"}, models)
		if len(second.Notices) != 0 {
			t.Errorf("%s: notice repeated: %+v", tt.strategy, second.Notices)
		}
		switch {
		case tt.want == "" && len(first.Notices) != 0:
			t.Errorf("%q: unexpected notice %+v", tt.strategy, first.Notices)
		case tt.want != "" && (len(first.Notices) != 1 || first.Notices[0].Message != tt.want || first.Notices[0].Kind != NoticeRouter):
			t.Errorf("%q: notices %+v, want %q", tt.strategy, first.Notices, tt.want)
		}
	}
}

func TestThresholdDecides(t *testing.T) {
	models := []ModelStatus{status(modelA, ""), status(modelC, "")}
	q := Query{Question: "Why is the sky blue?"} // 0.15
	for _, tt := range []struct {
		threshold float64
		first     string
	}{{0.1, "pc/c"}, {0.15, "pc/c"}, {0.2, "pa/a"}, {1, "pa/a"}} {
		p, _ := (&Router{Threshold: tt.threshold}).Plan(q, models)
		if p.Order[0].Key() != tt.first {
			t.Errorf("threshold %v: first %s, want %s", tt.threshold, p.Order[0].Key(), tt.first)
		}
	}
}
