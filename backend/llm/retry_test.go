package llm

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/llm/llmtest"
)

// retryService is a Service whose Gemini is a fake answering the n-th
// request (1-based) with gem(n), whose Groq streams, and whose waits
// between retries are recorded instead of slept.
type retryService struct {
	svc    *Service
	gemini *fakeServer
	groq   *fakeServer
	mu     sync.Mutex
	waits  []time.Duration // guarded by mu
}

func newRetryService(t *testing.T, gem func(n int) reply) *retryService {
	t.Helper()
	var calls atomic.Int32
	rs := &retryService{}
	rs.gemini = newFakeServer(t, "text/event-stream", func(recorded) reply { return gem(int(calls.Add(1))) })
	rs.groq = newFakeServer(t, "text/event-stream", func(recorded) reply { return reply{Chunks: groqStream} })
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"VIKA_GEMINI_BASE_URL": rs.gemini.URL, "VIKA_GROQ_BASE_URL": rs.groq.URL + "/openai/v1"}
	cfg, err := ConfigFromEnv(cat, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	cfg.Sleep = func(ctx context.Context, d time.Duration) error {
		rs.mu.Lock()
		defer rs.mu.Unlock()
		rs.waits = append(rs.waits, d)
		return ctx.Err()
	}
	rs.svc = New(cfg, fakeKeys{"gemini": geminiKey, "groq": "gsk_retryFAKE0123456789"})
	return rs
}

// asked counts the requests Gemini got for model.
func (rs *retryService) asked(model string) int {
	n := 0
	for _, r := range rs.gemini.Requests() {
		if strings.Contains(r.Path, "/models/"+model+":") {
			n++
		}
	}
	return n
}

func (rs *retryService) slept() []time.Duration {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.waits
}

func (rs *retryService) down(t *testing.T, key string) bool {
	t.Helper()
	m, ok := rs.svc.Model(t.Context(), key)
	if !ok {
		t.Fatalf("no model %s", key)
	}
	return !m.Available
}

var geminiAnswer = reply{Chunks: sse("\r\n\r\n", geminiChunk1, geminiChunk2)}

// TestDescribeRetriesRateLimit: a describe request (AskWith) rate limited
// twice, Gemini advising 43 s, is asked a third time after the advised
// waits and answers; the model is not marked down. Without retries the
// first 429 marks it down and the job stops.
func TestDescribeRetriesRateLimit(t *testing.T) {
	rs := newRetryService(t, func(n int) reply {
		if n <= 2 {
			return reply{Status: 429, Body: geminiRateLimit}
		}
		return geminiAnswer
	})
	var rec recorder
	res, err := rs.svc.AskWith(t.Context(), "gemini/gemini-2.5-flash", testRequest, rec.sink())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Answer, "2-SAT is") || rs.gemini.Count() != 3 || len(res.Chain) != 3 {
		t.Errorf("answer %q after %d requests, chain %+v", res.Answer, rs.gemini.Count(), res.Chain)
	}
	if diff := cmp.Diff([]time.Duration{43 * time.Second, 43 * time.Second}, rs.slept()); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
	if rs.down(t, "gemini/gemini-2.5-flash") {
		t.Error("the model was marked down although it answered")
	}
	if len(rec.notices) != 2 || rec.notices[0].Code != "notice.retry" || rec.notices[0].Params["seconds"] != 43 {
		t.Errorf("notices = %+v", rec.notices)
	}
}

// TestDescribeRetriesOverloadThenGivesUp: a 503 without advice is asked
// again after 5, 10 and 15 s; the fourth failure marks the model down.
func TestDescribeRetriesOverloadThenGivesUp(t *testing.T) {
	rs := newRetryService(t, func(int) reply { return reply{Status: 503, Body: geminiOverloaded} })
	_, err := rs.svc.AskWith(t.Context(), "gemini/gemini-2.5-flash", testRequest, Sink{Delta: func(Delta) error { return nil }})
	if err == nil {
		t.Fatal("no error after four 503s")
	}
	if rs.gemini.Count() != 4 {
		t.Errorf("%d requests, want 4", rs.gemini.Count())
	}
	if diff := cmp.Diff([]time.Duration{5 * time.Second, 10 * time.Second, 15 * time.Second}, rs.slept()); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
	if !rs.down(t, "gemini/gemini-2.5-flash") {
		t.Error("the model is not marked down after the retries")
	}
}

// TestDescribeDoesNotWaitForADailyQuota: a quota advised for longer than
// a minute is not waited for.
func TestDescribeDoesNotWaitForADailyQuota(t *testing.T) {
	rs := newRetryService(t, func(int) reply {
		return reply{Status: 429, Body: geminiDailyQuota, Header: map[string]string{"Retry-After": "3600"}}
	})
	_, err := rs.svc.AskWith(t.Context(), "gemini/gemini-2.5-flash", testRequest, Sink{Delta: func(Delta) error { return nil }})
	if err == nil || rs.gemini.Count() != 1 || len(rs.slept()) != 0 {
		t.Errorf("err %v, %d requests, waits %v", err, rs.gemini.Count(), rs.slept())
	}
}

// TestAnswerRetries5xxOnce: an answer whose model answers 503 is asked of
// the same model once more (after 1 s), which answers: no fallback.
func TestAnswerRetries5xxOnce(t *testing.T) {
	rs := newRetryService(t, func(n int) reply {
		if n == 1 {
			return reply{Status: 503, Body: geminiOverloaded}
		}
		return geminiAnswer
	})
	var rec recorder
	res, err := rs.svc.Ask(t.Context(), Query{Question: "What is 2-SAT?", Model: "gemini/gemini-2.5-flash"}, testRequest, rec.sink())
	if err != nil {
		t.Fatal(err)
	}
	if res.ModelUsed != "gemini/gemini-2.5-flash" || rs.gemini.Count() != 2 || rs.groq.Count() != 0 {
		t.Errorf("answered by %s after %d Gemini and %d Groq requests", res.ModelUsed, rs.gemini.Count(), rs.groq.Count())
	}
	if diff := cmp.Diff([]time.Duration{time.Second}, rs.slept()); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
	if !strings.Contains(res.Footer, "gemini/gemini-2.5-flash (unavailable) → gemini/gemini-2.5-flash") {
		t.Errorf("footer = %q", res.Footer)
	}
}

// TestAnswerFallsBackAfterOneRetry: two 503s in a row, then the next
// model (each Gemini model tried is asked twice); a 429 falls back at
// once, without a wait.
func TestAnswerFallsBackAfterOneRetry(t *testing.T) {
	for _, c := range []struct {
		name     string
		rep      reply
		requests int
		waits    int
	}{
		{"503 twice", reply{Status: 503, Body: geminiOverloaded}, 2, 1},
		{"429", reply{Status: 429, Body: geminiRateLimit}, 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs := newRetryService(t, func(int) reply { return c.rep })
			var rec recorder
			res, err := rs.svc.Ask(t.Context(), Query{Question: "What is 2-SAT?", Model: "gemini/gemini-2.5-flash"}, testRequest, rec.sink())
			if err != nil {
				t.Fatal(err)
			}
			if res.ModelUsed == "gemini/gemini-2.5-flash" || rs.asked("gemini-2.5-flash") != c.requests || (c.waits == 0) != (len(rs.slept()) == 0) {
				t.Errorf("answered by %s after %d requests to Flash, waits %v", res.ModelUsed, rs.asked("gemini-2.5-flash"), rs.slept())
			}
		})
	}
}

// TestProbeVisionFallsToTheNextGeminiModel: a describe run with Gemini
// 2.5 Pro, whose free tier has no quota, first sends it a one-token
// request; refused, the next Gemini vision model (2.5 Flash) is probed
// and chosen. A model of another provider is not probed.
func TestProbeVisionFallsToTheNextGeminiModel(t *testing.T) {
	rs := newRetryService(t, func(int) reply { return reply{Status: 429, Body: geminiDailyQuota} })
	rs.gemini = nil
	var paths []string
	var mu sync.Mutex
	gem := newFakeServer(t, "text/event-stream", func(r recorded) reply {
		mu.Lock()
		paths = append(paths, r.Path)
		mu.Unlock()
		if strings.Contains(r.Path, "/models/gemini-2.5-pro:") {
			return reply{Status: 429, Body: geminiDailyQuota}
		}
		if !strings.Contains(r.Body, `"maxOutputTokens":1`) {
			t.Errorf("the probe asks for more than one token: %s", r.Body)
		}
		return reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash", "OK")}
	})
	rs.svc.cfg.BaseURLs["gemini"] = gem.URL
	got, err := rs.svc.ProbeVision(t.Context(), "gemini/gemini-2.5-pro")
	if err != nil || got != "gemini/gemini-2.5-flash" {
		t.Fatalf("probe chose %q, %v (requests %v)", got, err, paths)
	}
	if len(paths) != 2 {
		t.Errorf("requests %v, want Pro then Flash", paths)
	}
	if !rs.down(t, "gemini/gemini-2.5-pro") {
		t.Error("the refused model is not marked down")
	}
	// Flash accepts: it is kept, one request.
	paths = nil
	if got, _ := rs.svc.ProbeVision(t.Context(), "gemini/gemini-2.5-flash"); got != "gemini/gemini-2.5-flash" || len(paths) != 1 {
		t.Errorf("probe of Flash chose %q after %v", got, paths)
	}
	if got, _ := rs.svc.ProbeVision(t.Context(), "mistral/pixtral-12b-latest"); got != "mistral/pixtral-12b-latest" {
		t.Errorf("a Mistral model became %q", got)
	}
}

// TestProbeVisionRetriesARateLimit: a per-minute 429 on the probe is
// asked again after the describe jobs' wait, as a describe request would
// be, and the student's model is kept, not marked down for the session.
func TestProbeVisionRetriesARateLimit(t *testing.T) {
	rs := newRetryService(t, func(n int) reply {
		if n == 1 {
			return reply{Status: 429, Body: geminiRateLimit}
		}
		return reply{Chunks: llmtest.GeminiStream("gemini-2.5-pro", "OK")}
	})
	got, err := rs.svc.ProbeVision(t.Context(), "gemini/gemini-2.5-pro")
	if err != nil || got != "gemini/gemini-2.5-pro" {
		t.Fatalf("probe chose %q, %v after a passing rate limit", got, err)
	}
	if n := rs.asked("gemini-2.5-pro"); n != 2 {
		t.Errorf("Pro asked %d times, want the probe and its retry", n)
	}
	if len(rs.waits) != 1 {
		t.Errorf("waits %v, want one before the retry", rs.waits)
	}
	if rs.down(t, "gemini/gemini-2.5-pro") {
		t.Error("a passing rate limit marked the student's model down")
	}
}
