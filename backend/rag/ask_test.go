package rag

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/cite"
	"vika/backend/jobs"
	"vika/backend/llm"
	"vika/backend/llm/llmtest"
	"vika/backend/metrics"
	"vika/backend/prompt"
)

const goodAnswer = "Unit propagation assigns the only remaining literal of a unit clause [sat.pdf p.1]."

// TestAskFallsBackAfter429: Gemini Flash-Lite answers 429, Llama 3.1 8B on
// Groq answers; the answer names the second, the notice the first; the
// events come in order; the metrics record is stored with its fields.
func TestAskFallsBackAfter429(t *testing.T) {
	eng := newEngine(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply { return rateLimited },
		func(llmtest.Request) llmtest.Reply {
			return groqSays("Unit propagation assigns the only remaining literal ", "of a unit clause [sat.pdf p.1].")
		}, 0)
	s := New(eng, p.svc, Config{})
	var ev events
	a, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), ev.emit)
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != KindLLM || a.ModelUsed != "groq/llama-3.1-8b-instant" || a.Answer != goodAnswer {
		t.Errorf("answer = %+v", a)
	}
	if !strings.HasPrefix(a.Footer, "Model used: Llama 3.1 8B (Groq) (groq/llama-3.1-8b-instant); fallback chain: gemini/gemini-2.5-flash-lite (rate limited)") {
		t.Errorf("footer = %q", a.Footer)
	}
	if strings.Contains(a.Answer, "Model used") {
		t.Error("the answer holds the footer")
	}
	if diff := cmp.Diff([]string{"gemini/gemini-2.5-flash-lite (rate_limited)", "groq/llama-3.1-8b-instant"}, a.FallbackChain); diff != "" {
		t.Errorf("fallback chain (-want +got):\n%s", diff)
	}
	if len(a.Notices) != 1 || a.Notices[0].Kind != llm.NoticeFallback || a.Notices[0].Model != "gemini/gemini-2.5-flash-lite" ||
		!strings.HasPrefix(a.Notices[0].Message, "Gemini 2.5 Flash-Lite is unavailable (rate limited (429)") {
		t.Errorf("notices = %+v", a.Notices)
	}
	if p.gemini.Count() != 1 || p.groq.Count() != 1 {
		t.Errorf("requests: gemini %d, groq %d", p.gemini.Count(), p.groq.Count())
	}

	// Events: status, sources before any text, the notice, deltas, done last.
	types := ev.types()
	if diff := cmp.Diff([]string{EventStatus, EventSources, EventStatus, EventNotice}, types[:4]); diff != "" {
		t.Errorf("first events (-want +got):\n%s", diff)
	}
	if ev.text() != a.Answer {
		t.Errorf("deltas joined = %q, want the answer", ev.text())
	}
	if last := ev.last(); last.Type != EventDone || last.Answer == nil || last.Answer.ID != a.ID {
		t.Errorf("last event = %+v", last)
	}
	if len(a.Sources) == 0 || a.Sources[0].Page != 1 || a.Sources[0].Index != 1 || a.Sources[0].LexicalScore == nil {
		t.Errorf("sources = %+v", a.Sources)
	}

	// The prompt sent to Groq numbers the sources and holds the question.
	body := p.groq.Last().Body
	if !strings.Contains(body, `cite=\"[sat.pdf p.1]\"`) || !strings.Contains(body, "What does unit propagation do?") {
		t.Errorf("groq request = %s", body)
	}

	// Citations checked, metrics stored with every field the answer gives.
	if len(a.Citations) != 1 || !a.Citations[0].Verified || a.Citations[0].DocID == "" {
		t.Errorf("citations = %+v", a.Citations)
	}
	recs, err := eng.Metrics(t.Context())
	if err != nil || len(recs) != 1 {
		t.Fatalf("metrics = %+v, %v", recs, err)
	}
	r := recs[0]
	if diff := cmp.Diff(a.Metrics, r); diff != "" {
		t.Errorf("answer's record differs from the stored one (-answer +stored):\n%s", diff)
	}
	switch {
	case r.QueryIndex != 1, r.Query != a.Question, r.LLMModel != "groq/llama-3.1-8b-instant", r.LLMRoutingMode != metrics.RoutingAuto,
		r.RetrievalMode != "bm25", r.ChunksUsed != len(a.Sources), r.ChunksRetrieved < r.ChunksUsed, r.BM25ContributionPct != 100,
		r.TimeToFirstTokenMs == nil, r.GenerationLatencyMs <= 0, r.TotalLatencyMs < r.GenerationLatencyMs, r.RetrievalLatencyMs <= 0,
		r.TokensIn != 31, r.TokensOut != 16, r.CitationValidPct == nil || *r.CitationValidPct != 100,
		r.HitAt5 != nil, r.MRR != nil, r.RecallAt5 != nil, r.RerankApplied, r.BM25ScoreSharePct != 100, // no reranker: no proxy
		r.HistoryApplied, r.HyDEApplied, r.MultiQueryApplied,
		r.PageTypesUsed["text"] != len(a.Sources), len(r.FallbackChain) != 2,
		r.CosineSimMean != nil, r.RerankerScoreMean != nil:
		t.Errorf("record = %+v", r)
	}
	b, _ := json.Marshal(r)
	t.Logf("record: %s", b)
}

// TestAskMidStreamDisconnect: the first model breaks off after its first
// chunk: the text is kept once, the turn is partial, no other model runs.
func TestAskMidStreamDisconnect(t *testing.T) {
	eng := newEngine(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply {
		chunks := llmtest.GeminiStream("gemini-2.5-flash-lite", "Unit propagation assigns ", "the last literal [sat.pdf p.1].")
		return llmtest.Reply{Chunks: chunks[:1], Hangup: true}
	}, func(llmtest.Request) llmtest.Reply { return groqSays("never") }, 0)
	s := New(eng, p.svc, Config{})
	var ev events
	a, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), ev.emit)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Partial || a.Cancelled || a.Answer != "Unit propagation assigns " || ev.text() != a.Answer {
		t.Errorf("answer %q (partial %v), deltas %q", a.Answer, a.Partial, ev.text())
	}
	if p.groq.Count() != 0 {
		t.Error("a broken-off answer was retried on another model")
	}
	if len(a.Notices) != 1 || a.Notices[0].Kind != llm.NoticeInterrupted || !strings.HasSuffix(a.Footer, "the answer broke off") {
		t.Errorf("notices %+v, footer %q", a.Notices, a.Footer)
	}
	if ev.last().Type != EventDone || len(s.Conversation()) != 1 {
		t.Errorf("last event %+v, conversation %d", ev.last(), len(s.Conversation()))
	}
}

// TestAskSlowFirstTokenFallsBack: no first token within the timeout: the
// next model answers.
func TestAskSlowFirstTokenFallsBack(t *testing.T) {
	eng := newEngine(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply {
		r := geminiSays("too late")
		r.FirstDelay = 10 * time.Second
		return r
	}, func(llmtest.Request) llmtest.Reply { return groqSays(goodAnswer) }, 300*time.Millisecond)
	s := New(eng, p.svc, Config{})
	a, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.ModelUsed != "groq/llama-3.1-8b-instant" || a.Answer != goodAnswer || len(a.Notices) != 1 || a.Notices[0].ErrorKind != "timeout" {
		t.Errorf("answer %+v", a)
	}
}

// TestAskAbstains: nothing in the documents is close: "not found", and no
// model is asked.
func TestAskAbstains(t *testing.T) {
	eng := newEngine(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply { return geminiSays("no") },
		func(llmtest.Request) llmtest.Reply { return groqSays("no") }, 0)
	s := New(eng, p.svc, Config{})
	var ev events
	a, err := s.Ask(t.Context(), "Which river flows through Vienna?", testOptions(), ev.emit)
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != KindAbstained || a.Answer != prompt.NotFound("en") || a.Footer != FooterAbstained || a.ModelUsed != "" {
		t.Errorf("answer %+v", a)
	}
	if p.gemini.Count()+p.groq.Count() != 0 {
		t.Error("a model was asked")
	}
	if ev.text() != a.Answer || a.Metrics.LLMRoutingMode != metrics.RoutingAbstained || a.Metrics.ChunksUsed != 0 {
		t.Errorf("deltas %q, record %+v", ev.text(), a.Metrics)
	}

	// A threshold above the best score abstains on an answerable question;
	// the option overrides the configuration.
	a, _ = s.Ask(t.Context(), "What does unit propagation do?", Options{Mode: "bm25", MinBM25: 1000}, nil)
	if a.Kind != KindAbstained {
		t.Errorf("with min_bm25 1000: kind %s", a.Kind)
	}
	cfg, err := ConfigFromEnv(func(string) string { return "50" })
	if err != nil || cfg.MinBM25 != 50 {
		t.Fatalf("ConfigFromEnv = %+v, %v", cfg, err)
	}
	if a, _ := New(eng, p.svc, cfg).Ask(t.Context(), "What does unit propagation do?", testOptions(), nil); a.Kind != KindAbstained {
		t.Errorf("with VIKA_ABSTAIN_MIN_BM25=50: kind %s", a.Kind)
	}
	if _, err := ConfigFromEnv(func(string) string { return "lots" }); err == nil {
		t.Error("VIKA_ABSTAIN_MIN_BM25=lots accepted")
	}
}

// TestAskExtractive: no key and no Ollama (or no service): the best
// passages are quoted, labelled as such, their citations verified.
func TestAskExtractive(t *testing.T) {
	eng := newEngine(t)
	for name, svc := range map[string]*llm.Service{"no provider": noProviders(t), "no service": nil} {
		t.Run(name, func(t *testing.T) {
			s := New(eng, svc, Config{})
			a, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if a.Kind != KindExtractive || !strings.HasPrefix(a.Answer, prompt.ExtractiveHeadingEN) || a.Footer != FooterExtractive {
				t.Errorf("answer %+v", a)
			}
			if pct, ok := cite.ValidPct(a.Citations); !ok || pct != 100 {
				t.Errorf("citations %+v", a.Citations)
			}
			if len(a.Notices) != 1 || a.Metrics.LLMRoutingMode != metrics.RoutingExtractive || a.Metrics.LLMModel != "" {
				t.Errorf("notices %+v, record %+v", a.Notices, a.Metrics)
			}
			t.Logf("notice: %s", a.Notices[0].Message)
		})
	}
}

// TestAskFlagsBadCitation: a citation of a page that is not a source is
// flagged and counts against citation_valid_pct.
func TestAskFlagsBadCitation(t *testing.T) {
	eng := newEngine(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply {
		return geminiSays(goodAnswer, " DPLL was published in 1962 [sat.pdf p.9].")
	}, nil, 0)
	s := New(eng, p.svc, Config{})
	a, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Citations) != 2 || !a.Citations[0].Verified || a.Citations[1].Verified || a.Citations[1].Reason != cite.ReasonPageNotSource {
		t.Errorf("citations %+v", a.Citations)
	}
	if v := a.Metrics.CitationValidPct; v == nil || *v != 50 {
		t.Errorf("citation_valid_pct = %v", v)
	}
}

// TestAskEveryModelFails: every model answers 429: an error event with a
// sentence, a record, and the session still answers afterwards.
func TestAskEveryModelFails(t *testing.T) {
	eng := newEngine(t)
	groq429 := llmtest.Reply{Status: 429, Body: llmtest.OpenAIError("Rate limit reached for model `llama-3.1-8b-instant` on requests per minute (RPM): Limit 30, Used 30.", "requests", "rate_limit_exceeded")}
	fail := true
	p := newProviders(t, func(llmtest.Request) llmtest.Reply { return rateLimited }, func(llmtest.Request) llmtest.Reply {
		if fail {
			return groq429
		}
		return groqSays(goodAnswer)
	}, 0)
	s := New(eng, p.svc, Config{})
	var ev events
	_, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), ev.emit)
	if !errors.Is(err, llm.ErrNoModel) || !strings.HasPrefix(err.Error(), "No model could answer: Gemini 2.5 Flash-Lite was rate limited; Llama 3.1 8B (Groq) was rate limited") {
		t.Fatalf("error = %v", err)
	}
	last := ev.last()
	if last.Type != EventError || last.Error != err.Error() || last.Answer != nil {
		t.Errorf("last event %+v", last)
	}
	b, _ := json.Marshal(last)
	if !strings.Contains(string(b), `"answer":null`) {
		t.Errorf("error event JSON %s", b)
	}
	recs, _ := eng.Metrics(t.Context())
	if len(recs) != 1 || len(recs[0].FallbackChain) < 2 || recs[0].LLMModel != "" {
		t.Errorf("records %+v", recs)
	}
	// Later, the rate limits have passed (a key change clears them).
	fail = false
	p.svc.KeyChanged("groq")
	if a, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), nil); err != nil || a.ModelUsed != "groq/llama-3.1-8b-instant" {
		t.Errorf("after the failure: %v, %+v", err, a)
	}
}

// TestStartCancel: an answer stopped mid-stream keeps what arrived, is
// marked cancelled and partial, and leaves a record.
func TestStartCancel(t *testing.T) {
	eng := newEngine(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply {
		r := geminiSays("Unit propagation ", "assigns ", "literals.")
		r.ChunkDelay = 3 * time.Second
		return r
	}, nil, 0)
	s := New(eng, p.svc, Config{Flush: 10 * time.Millisecond})
	var ev events
	id, err := s.Start(context.Background(), "What does unit propagation do?", testOptions(), ev.emit)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ev.text() == "" && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if !s.Cancel(id) {
		t.Fatal("Cancel: not running")
	}
	done := ev.wait(t)
	if done.Type != EventDone || !done.Answer.Cancelled || !done.Answer.Partial || done.Answer.Answer != "Unit propagation " {
		t.Fatalf("done = %+v", done.Answer)
	}
	if !strings.HasPrefix(done.Answer.Footer, "Model used: Gemini 2.5 Flash-Lite") {
		t.Errorf("footer %q", done.Answer.Footer)
	}
	s.Close()
	if s.Cancel(id) {
		t.Error("Cancel of a finished answer reported running")
	}
	recs, _ := eng.Metrics(t.Context())
	if len(recs) != 1 || recs[0].LLMModel != "gemini/gemini-2.5-flash-lite" || recs[0].TimeToFirstTokenMs == nil {
		t.Errorf("records %+v", recs)
	}
	if _, err := s.Start(context.Background(), "again?", testOptions(), nil); err == nil {
		t.Error("Start after Close succeeded")
	}
	if _, err := New(eng, nil, Config{}).Start(context.Background(), "  ", testOptions(), nil); !errors.Is(err, ErrEmptyQuestion) {
		t.Errorf("empty question: %v", err)
	}
}

// TestStartID: a caller-chosen id names the answer; a malformed id or one
// already running is refused.
func TestStartID(t *testing.T) {
	eng := newEngine(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply {
		r := geminiSays("Unit propagation ", "assigns literals [sat.pdf p.1].")
		r.ChunkDelay = time.Second
		return r
	}, nil, 0)
	s := New(eng, p.svc, Config{Flush: 10 * time.Millisecond})
	defer s.Close()
	var ev events
	id, err := s.StartID(context.Background(), "q-1b2c", "What does unit propagation do?", testOptions(), ev.emit)
	if err != nil || id != "q-1b2c" {
		t.Fatalf("StartID = %q, %v", id, err)
	}
	if _, err := s.StartID(context.Background(), "q-1b2c", "again?", testOptions(), nil); !errors.Is(err, jobs.ErrBadID) {
		t.Errorf("id already running: %v, want jobs.ErrBadID", err)
	}
	if _, err := s.StartID(context.Background(), "answer:../x", "bad id?", testOptions(), nil); !errors.Is(err, jobs.ErrBadID) {
		t.Errorf("malformed id: %v, want jobs.ErrBadID", err)
	}
	if done := ev.wait(t); done.Type != EventDone || done.Answer.ID != "q-1b2c" {
		t.Fatalf("last event %+v", done)
	}
}

// TestClearConversationStopsAnswers: clearing the conversation while an
// answer streams stops it, and the answer does not come back as history.
func TestClearConversationStopsAnswers(t *testing.T) {
	eng := newEngine(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply {
		r := geminiSays("Unit propagation ", "assigns literals [sat.pdf p.1].")
		r.ChunkDelay = 3 * time.Second
		return r
	}, nil, 0)
	s := New(eng, p.svc, Config{Flush: 10 * time.Millisecond})
	defer s.Close()
	var ev events
	if _, err := s.Start(context.Background(), "What does unit propagation do?", testOptions(), ev.emit); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ev.text() == "" && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	s.ClearConversation()
	if done := ev.wait(t); done.Type != EventDone || !done.Answer.Cancelled {
		t.Fatalf("last event %+v, want a cancelled answer", done)
	}
	if turns := s.Conversation(); len(turns) != 0 {
		t.Fatalf("the cleared conversation came back: %+v", turns)
	}
}

// TestConfigWarning: a configuration problem does not stop answering; every
// answer says so in a notice.
func TestConfigWarning(t *testing.T) {
	s := New(newEngine(t), nil, Config{Warning: "VIKA_ABSTAIN_MIN_BM25: \"x\" is not a number from 0 to 100: the default is used"})
	a, err := s.Ask(context.Background(), "What does unit propagation do?", testOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != KindExtractive || len(a.Notices) == 0 || a.Notices[0].Kind != llm.NoticeConfig ||
		a.Notices[0].Message != "Configuration problem: VIKA_ABSTAIN_MIN_BM25: \"x\" is not a number from 0 to 100: the default is used" {
		t.Fatalf("answer %q kind %s notices %+v", a.Answer, a.Kind, a.Notices)
	}
}
