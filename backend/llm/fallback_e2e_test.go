package llm

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeKeys is a Keys with fixed keys.
type fakeKeys map[string]string

func (k fakeKeys) Key(p string) (string, error) { return k[p], nil }

// e2e is a Service whose Gemini, Groq and Ollama are local fakes speaking
// their real wire formats.
type e2e struct {
	svc          *Service
	gemini, groq *fakeServer
	keys         fakeKeys
}

// newE2E starts the fakes: Gemini answers 429 (per-minute rate limit) for
// Flash-Lite, 429 (daily quota) for Pro and streams for Flash; Groq
// streams; nothing listens where Ollama would be.
func newE2E(t *testing.T) *e2e {
	gem := newFakeServer(t, "text/event-stream", func(r recorded) reply {
		switch {
		case strings.Contains(r.Path, "/models/gemini-2.5-flash-lite:"):
			return reply{Status: 429, Body: geminiRateLimit}
		case strings.Contains(r.Path, "/models/gemini-2.5-pro:"):
			return reply{Status: 429, Body: geminiDailyQuota}
		}
		return reply{Chunks: sse("\r\n\r\n", geminiChunk1, geminiChunk2)}
	})
	groq := newFakeServer(t, "text/event-stream", func(recorded) reply { return reply{Chunks: groqStream} })
	stopped := httptest.NewServer(nil)
	stopped.Close()

	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"VIKA_GEMINI_BASE_URL": gem.URL,
		"VIKA_GROQ_BASE_URL":   groq.URL + "/openai/v1",
		"VIKA_OLLAMA_BASE_URL": stopped.URL,
		// Mistral and OpenRouter have no key: their real hosts are never called.
	}
	cfg, err := ConfigFromEnv(cat, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	keys := fakeKeys{"gemini": geminiKey, "groq": "gsk_e2eFAKEKEY0123456789"}
	return &e2e{svc: New(cfg, keys), gemini: gem, groq: groq, keys: keys}
}

// TestFallbackEndToEnd: the first model answers 429, the second answers;
// the output names the second, the notice names the first.
func TestFallbackEndToEnd(t *testing.T) {
	e := newE2E(t)
	var rec recorder
	res, err := e.svc.Ask(t.Context(), Query{Question: "What is 2-SAT?"}, testRequest, rec.sink())
	if err != nil {
		t.Fatal(err)
	}
	// The simple question went to Gemini 2.5 Flash-Lite first (429), then
	// to the next lightest model, Llama 3.1 8B on Groq.
	if res.ModelUsed != "groq/llama-3.1-8b-instant" || res.Answer != "2-SAT is in P." {
		t.Errorf("result = %+v", res)
	}
	if !strings.Contains(e.gemini.Last().Path, "gemini-2.5-flash-lite:streamGenerateContent") {
		t.Errorf("Gemini got %s", e.gemini.Last().Path)
	}
	var groqBody map[string]any
	json.Unmarshal([]byte(e.groq.Last().Body), &groqBody)
	if groqBody["model"] != "llama-3.1-8b-instant" {
		t.Errorf("Groq was asked for %v", groqBody["model"])
	}

	out := rec.text()
	wantEnd := "2-SAT is in P.\n\nModel used: Llama 3.1 8B (Groq) (groq/llama-3.1-8b-instant); " +
		"fallback chain: gemini/gemini-2.5-flash-lite (rate limited) → groq/llama-3.1-8b-instant"
	if out != wantEnd {
		t.Errorf("output = %q\nwant     %q", out, wantEnd)
	}
	if len(rec.notices) != 1 {
		t.Fatalf("notices = %+v", rec.notices)
	}
	n := rec.notices[0]
	t.Logf("notice: %s\noutput:\n%s", n.Message, out)
	if n.Kind != NoticeFallback || n.Model != "gemini/gemini-2.5-flash-lite" || n.Next != "groq/llama-3.1-8b-instant" || n.ErrorKind != "rate_limited" {
		t.Errorf("notice = %+v", n)
	}
	wantAlt := []string{"groq/llama-3.1-8b-instant", "gemini/gemini-2.5-flash", "groq/llama-3.3-70b-versatile", "gemini/gemini-2.5-pro"}
	if diff := cmp.Diff(wantAlt, n.Alternatives); diff != "" {
		t.Errorf("alternatives (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(n.Message, "Gemini 2.5 Flash-Lite is unavailable (rate limited (429), retry in 43s). Trying Llama 3.1 8B (Groq); then ") {
		t.Errorf("notice message = %q", n.Message)
	}

	// The session remembers: the next question skips Flash-Lite (until its
	// Retry-After), and the model list says why.
	geminiCalls := e.gemini.Count()
	rec = recorder{}
	res, err = e.svc.Ask(t.Context(), Query{Question: "And 3-SAT?"}, testRequest, rec.sink())
	if err != nil || res.ModelUsed != "groq/llama-3.1-8b-instant" || len(res.Chain) != 1 || len(rec.notices) != 0 {
		t.Errorf("second answer: %v, %+v, notices %+v", err, res, rec.notices)
	}
	if e.gemini.Count() != geminiCalls {
		t.Error("the rate-limited model was tried again")
	}
	for _, m := range e.svc.Models(t.Context()) {
		// Until: when the window may say the model can be asked again.
		if left := time.Until(time.UnixMilli(m.Until)); m.Key() == "gemini/gemini-2.5-flash-lite" &&
			(m.Available || m.Reason != "rate limited (429), retry in 43s" || m.Why != "rate_limited" || m.ThisSession || left <= 30*time.Second || left > 43*time.Second) {
			t.Errorf("Flash-Lite status = %+v (until in %v)", m, left)
		}
		if m.Provider == "mistral" && (m.Available || m.Reason != "no API key for Mistral AI" || m.Why != "no_key" || m.Until != 0 || m.ThisSession) {
			t.Errorf("Mistral status = %+v", m)
		}
		// The window gets the kind, a code it translates, and no English.
		j, _ := json.Marshal(m)
		if m.Provider == "mistral" && (!strings.Contains(string(j), `"why":"no_key"`) || strings.Contains(string(j), "API key for")) {
			t.Errorf("Mistral status JSON %s", j)
		}
	}

	// Nothing of this holds a key.
	b, _ := json.Marshal(struct {
		R Result
		N []Notice
		M []ModelStatus
	}{res, rec.notices, e.svc.Models(t.Context())})
	for _, k := range e.keys {
		if strings.Contains(string(b), k) {
			t.Errorf("a key leaked into the result, notices or model list")
		}
	}
}

// TestFallbackComplexQuestion: a complex question starts with the most
// capable model; Gemini 2.5 Pro's daily quota sends it to 2.5 Flash.
func TestFallbackComplexQuestion(t *testing.T) {
	e := newE2E(t)
	var rec recorder
	res, err := e.svc.Ask(t.Context(), Query{Question: "Prove that 2-SAT is in P and compare it with 3-SAT."}, testRequest, rec.sink())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Plan.Complex || res.ModelUsed != "gemini/gemini-2.5-flash" || res.Answer != "2-SAT is solvable in linear time." {
		t.Errorf("result = %+v", res)
	}
	if len(rec.notices) != 1 || rec.notices[0].Model != "gemini/gemini-2.5-pro" || rec.notices[0].ErrorKind != "quota" {
		t.Errorf("notices = %+v", rec.notices)
	}
	if !strings.HasSuffix(rec.text(), "Model used: Gemini 2.5 Flash (gemini/gemini-2.5-flash); fallback chain: gemini/gemini-2.5-pro (quota) → gemini/gemini-2.5-flash") {
		t.Errorf("output = %q", rec.text())
	}
	// A daily quota lasts the session.
	if why := e.svc.down.Why(Model{Provider: "gemini", ID: "gemini-2.5-pro"}); why != "quota or credits exhausted (429), retry in 20s this session" {
		t.Errorf("Pro mark = %q", why)
	}
}

// TestManualSelectionAndKeyChange: a manual choice goes first; a provider
// marked unavailable comes back when its key changes.
func TestManualSelectionAndKeyChange(t *testing.T) {
	e := newE2E(t)
	var rec recorder
	q := Query{Question: "What is 2-SAT?", Model: "gemini/gemini-2.5-flash"}
	res, err := e.svc.Ask(t.Context(), q, testRequest, rec.sink())
	if err != nil || res.ModelUsed != "gemini/gemini-2.5-flash" || res.Plan.Mode != "manual" {
		t.Fatalf("%v, %+v", err, res)
	}
	e.svc.down.MarkError(Model{Provider: "gemini", ID: "gemini-2.5-flash"}, perr("gemini", ErrAuth, 400).withWide())
	res, err = e.svc.Ask(t.Context(), q, testRequest, rec.sink())
	if err != nil || res.ModelUsed != "groq/llama-3.1-8b-instant" {
		t.Errorf("after a rejected key: %v, %+v", err, res)
	}
	e.svc.KeyChanged("gemini")
	res, err = e.svc.Ask(t.Context(), q, testRequest, rec.sink())
	if err != nil || res.ModelUsed != "gemini/gemini-2.5-flash" {
		t.Errorf("after KeyChanged: %v, %+v", err, res)
	}
}

func (e *ProviderError) withWide() *ProviderError { e.ProviderWide = true; return e }

// TestNoModelAvailable: no key and no Ollama.
func TestNoModelAvailable(t *testing.T) {
	e := newE2E(t)
	for k := range e.keys {
		delete(e.keys, k)
	}
	_, err := e.svc.Ask(t.Context(), Query{Question: "q"}, testRequest, Sink{Delta: func(Delta) error { return nil }})
	if !errors.Is(err, ErrNoModel) {
		t.Errorf("error = %v", err)
	}
}

// TestOllamaOffline: with no cloud key, a reachable Ollama answers alone.
func TestOllamaOffline(t *testing.T) {
	f, _ := ollamaFake(t, reply{Chunks: ollamaStream})
	cat, _ := LoadCatalogue()
	cfg, err := ConfigFromEnv(cat, func(k string) string {
		if k == "VIKA_OLLAMA_BASE_URL" {
			return f.URL
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Local = true
	svc := New(cfg, fakeKeys{})
	var rec recorder
	res, err := svc.Ask(t.Context(), Query{Question: "Prove it."}, testRequest, rec.sink())
	if err != nil {
		t.Fatal(err)
	}
	// Complex question: the 70B model first.
	if res.ModelUsed != "ollama/llama3.3:70b" || !strings.HasSuffix(rec.text(), "Model used: llama3.3:70b (Ollama) (ollama/llama3.3:70b)") {
		t.Errorf("result %+v, output %q", res, rec.text())
	}
}

// TestServiceConcurrentAsks: answers side by side share the session's state.
func TestServiceConcurrentAsks(t *testing.T) {
	e := newE2E(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			var rec recorder
			res, err := e.svc.Ask(t.Context(), Query{Question: "What is 2-SAT?"}, testRequest, rec.sink())
			if err != nil || res.ModelUsed != "groq/llama-3.1-8b-instant" {
				t.Errorf("%v, %+v", err, res)
			}
		})
	}
	wg.Wait()
}
