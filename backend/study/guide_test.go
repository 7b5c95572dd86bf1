package study

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"vika/backend/cite"
	"vika/backend/llm"
	"vika/backend/llm/llmtest"
)

// eachLine calls fn with every checked line of g.
func eachLine(g Guide, fn func(kind, text string, c Check)) {
	for _, l := range g.Summary {
		fn("summary", l.Text, l.Check)
	}
	for _, t := range g.Terms {
		fn("term", t.Definition.Text, t.Definition.Check)
	}
	for _, q := range g.QAs {
		fn("answer", q.Answer.Text, q.Answer.Check)
	}
}

// TestGuideEveryProvider: over each provider's wire format, the guide of
// Vaswani (in a session holding Shannon too) sends only Vaswani's
// passages, makes the planned number of requests, and every line cites a
// page of Vaswani and is verified.
func TestGuideEveryProvider(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	for _, w := range wires {
		t.Run(w.provider, func(t *testing.T) {
			f := fake(t, w, func(body string) llmtest.Reply { return llmtest.Reply{Chunks: w.stream(faithful(texts(body)))} })
			s := New(eng, service(t, map[string]*llmtest.Server{w.provider: f}))
			plan, err := s.PlanGuide(context.Background(), Scope{DocID: vaswani}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var seen []Progress
			g, err := s.Guide(context.Background(), Scope{DocID: vaswani}, Options{}, func(p Progress) { seen = append(seen, p) })
			if err != nil {
				t.Fatal(err)
			}
			chat := 0
			for _, r := range f.Requests() {
				if r.Method != "POST" || strings.HasPrefix(r.Path, "/api/show") {
					continue
				}
				chat++
				for _, src := range sources(texts(r.Body)) {
					if !strings.Contains(src.label, "vaswani") {
						t.Errorf("request %d sent %s", chat, src.label)
					}
				}
			}
			if chat != plan.Requests || g.Plan.Requests != plan.Requests || plan.Requests != plan.Batches+plan.Reduces {
				t.Errorf("%d requests made, plan %+v", chat, plan)
			}
			if len(seen) != plan.Requests || seen[len(seen)-1].Done != plan.Requests {
				t.Errorf("progress %+v for %d requests", seen, plan.Requests)
			}
			if len(g.Summary) == 0 || len(g.Terms) == 0 || len(g.QAs) == 0 {
				t.Fatalf("guide has %d summary lines, %d terms, %d questions", len(g.Summary), len(g.Terms), len(g.QAs))
			}
			eachLine(g, func(kind, text string, c Check) {
				if !c.Verified || c.DocID != vaswani || !strings.Contains(c.Label, "vaswani") {
					t.Errorf("%s %q: %+v", kind, text, c)
				}
			})
			if len(g.Models) != 1 || !strings.HasPrefix(g.Models[0], w.provider+"/") {
				t.Errorf("models %v", g.Models)
			}
			t.Logf("%s: plan %d batches + %d reduces = %d requests, %d input tokens (batch %d tokens, model %s); %d summary, %d terms, %d questions",
				w.provider, plan.Batches, plan.Reduces, plan.Requests, plan.InputTokens, plan.BatchTokens, plan.Model, len(g.Summary), len(g.Terms), len(g.QAs))
		})
	}
}

var numberRE = regexp.MustCompile(`\b\d{2,}\b`)

// planted is faithful plus one line whose number is changed.
func planted(prompt string, cards bool) string {
	out := faithful(prompt)
	if strings.Contains(prompt, "<notes>\n") {
		return out
	}
	for _, s := range sources(prompt) {
		sen := sentence(s.text, true)
		if sen == "" {
			continue
		}
		loc := numberRE.FindStringIndex(sen)
		n, _ := strconv.Atoi(sen[loc[0]:loc[1]])
		wrong := sen[:loc[0]] + strconv.Itoa(n+7919) + sen[loc[1]:] + " " + s.label
		if cards {
			return out + "Q: A planted question?\nA: " + wrong + "\n"
		}
		return out + "SUMMARY: " + wrong + "\n"
	}
	return out
}

// TestGuidePlantedNumber: a guide line whose number is not the page's is
// kept and flagged by the checker (numbers), the others verified.
func TestGuidePlantedNumber(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	w := wires[0]
	f := fake(t, w, func(body string) llmtest.Reply { return llmtest.Reply{Chunks: w.stream(planted(texts(body), false))} })
	g, err := New(eng, service(t, map[string]*llmtest.Server{w.provider: f})).Guide(context.Background(), Scope{DocID: vaswani}, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	flagged := 0
	eachLine(g, func(kind, text string, c Check) {
		// The window's chips read each citation's verdict and offsets.
		if len(c.Citations) == 0 {
			t.Errorf("%q: no per-citation verdicts", text)
		}
		bad := 0
		for _, ct := range c.Citations {
			if ct.Start < 0 || ct.End > len(text) || text[ct.Start:ct.End] != ct.Raw {
				t.Errorf("%q: citation %q at [%d,%d) is not there", text, ct.Raw, ct.Start, ct.End)
			}
			if !ct.Verified {
				bad++
			}
		}
		if (bad > 0) == c.Verified {
			t.Errorf("%q: line verified %v with %d unverified citations", text, c.Verified, bad)
		}
		if !c.Verified {
			flagged++
			if c.Reason != cite.ReasonNumbers {
				t.Errorf("%q flagged %s, want %s", text, c.Reason, cite.ReasonNumbers)
			}
			t.Logf("flagged: %q (%s)", text, c.Reason)
		}
	})
	if flagged == 0 || flagged != g.Unverified() {
		t.Errorf("%d lines flagged, Unverified %d", flagged, g.Unverified())
	}
}

// TestGuideFallbackOn429: Gemini answers the first request and is rate
// limited on the second; the router's fallback (Groq) answers the rest
// and the guide completes.
func TestGuideFallbackOn429(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	gw, qw := wires[0], wires[2]
	calls := 0
	g := fake(t, gw, func(body string) llmtest.Reply {
		calls++
		if calls == 2 {
			return llmtest.Reply{Status: 429, Body: llmtest.GeminiRateLimit}
		}
		return llmtest.Reply{Chunks: gw.stream(faithful(texts(body)))}
	})
	q := fake(t, qw, func(body string) llmtest.Reply { return llmtest.Reply{Chunks: qw.stream(faithful(texts(body)))} })
	o := Options{BatchTokens: 3000}
	guide, err := New(eng, service(t, map[string]*llmtest.Server{"gemini": g, "groq": q})).Guide(context.Background(), Scope{DocID: vaswani}, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if guide.Plan.Requests < 3 {
		t.Fatalf("plan %+v: want several requests", guide.Plan)
	}
	if g.Count() != 2 || q.Count() != guide.Plan.Requests-1 {
		t.Errorf("gemini %d requests, groq %d, plan %d", g.Count(), q.Count(), guide.Plan.Requests)
	}
	if len(guide.Models) != 2 || !strings.HasPrefix(guide.Models[1], "groq/") {
		t.Errorf("models %v", guide.Models)
	}
	fell := false
	for _, n := range guide.Notices {
		fell = fell || n.Kind == llm.NoticeFallback
	}
	if !fell || len(guide.QAs) == 0 || guide.Unverified() != 0 {
		t.Errorf("fallback notice %v, %d questions, %d unverified", fell, len(guide.QAs), guide.Unverified())
	}
}

// TestGuideCancel: cancelling while a request is in flight stops the
// guide within 2 s (a deadline, not a sleep).
func TestGuideCancel(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	w := wires[0]
	f := fake(t, w, func(body string) llmtest.Reply {
		return llmtest.Reply{Chunks: w.stream(faithful(texts(body))), FirstDelay: 30 * time.Second}
	})
	s := New(eng, service(t, map[string]*llmtest.Server{w.provider: f}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Guide(ctx, Scope{DocID: vaswani}, Options{}, nil)
		done <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); f.Count() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no request reached the provider")
		}
	}
	cancel()
	start := time.Now()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want context.Canceled", err)
		}
		t.Logf("stopped %v after cancel", time.Since(start))
	case <-time.After(2 * time.Second):
		t.Fatal("the guide did not stop within 2 s of cancel")
	}
}

// TestGuidePacing: the only provider is rate limited with Retry-After: 1;
// the guide waits it out (a progress report says so) and completes.
func TestGuidePacing(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	w := wires[2]
	calls := 0
	f := fake(t, w, func(body string) llmtest.Reply {
		calls++
		if calls <= 2 { // both Groq models of the catalogue
			return llmtest.Reply{Status: 429, Header: map[string]string{"Retry-After": "1"},
				Body: llmtest.OpenAIError("Rate limit reached for model llama-3.1-8b-instant", "tokens", "rate_limit_exceeded")}
		}
		return llmtest.Reply{Chunks: w.stream(faithful(texts(body)))}
	})
	var waited []int
	g, err := New(eng, service(t, map[string]*llmtest.Server{w.provider: f})).Guide(context.Background(), Scope{DocID: vaswani}, Options{},
		func(p Progress) {
			if p.Waiting > 0 {
				waited = append(waited, p.Waiting)
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(waited) != 1 || f.Count() != g.Plan.Requests+2 {
		t.Errorf("waited %v, %d requests for a plan of %d", waited, f.Count(), g.Plan.Requests)
	}
}

// TestGuideNoLoneMerge: merging two notes at a time, a level with an odd
// number of notes sends its last one up as it is, so B batches take B-1
// merges, as the plan announces (a merge of one note cost a request
// before).
func TestGuideNoLoneMerge(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	w := wires[0]
	f := fake(t, w, func(body string) llmtest.Reply { return llmtest.Reply{Chunks: w.stream(faithful(texts(body)))} })
	s := New(eng, service(t, map[string]*llmtest.Server{w.provider: f}))
	var o Options
	var plan Plan
	for _, bt := range []int{3000, 2500, 3500, 2200, 4000} { // groupSize 2; a batch count not a power of two
		o = Options{BatchTokens: bt}
		p, err := s.PlanGuide(context.Background(), Scope{DocID: vaswani}, o)
		if err != nil {
			t.Fatal(err)
		}
		if plan = p; p.Batches > 2 && p.Batches&(p.Batches-1) != 0 {
			break
		}
	}
	if plan.Batches < 3 || plan.Batches&(plan.Batches-1) == 0 {
		t.Fatalf("no batch size gave a batch count that is not a power of two: %+v", plan)
	}
	if groupSize(plan.BatchTokens) != 2 || plan.Reduces != plan.Batches-1 {
		t.Errorf("%d batches (group %d): %d merges planned, want %d", plan.Batches, groupSize(plan.BatchTokens), plan.Reduces, plan.Batches-1)
	}
	g, err := s.Guide(context.Background(), Scope{DocID: vaswani}, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	merges := 0
	for _, r := range f.Requests() {
		if r.Method == "POST" && strings.Contains(texts(r.Body), "<notes>\n") {
			merges++
		}
	}
	if merges != plan.Batches-1 || g.Plan.Requests != plan.Requests {
		t.Errorf("%d batches: %d merges sent, want %d (plan %d requests)", plan.Batches, merges, plan.Batches-1, plan.Requests)
	}
	t.Logf("Vaswani at %d batch tokens: %d batches, %d merges, %d requests, %d tokens planned", plan.BatchTokens, plan.Batches, merges, plan.Requests, plan.InputTokens)
}
