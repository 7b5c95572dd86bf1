package llm

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"vika/backend/llm/llmtest"
)

// emptyDeltas is an OpenAI-compatible stream of n chunks without text,
// after an optional first piece of text: a keep-alive loop that never ends
// the answer.
func emptyDeltas(model, first string, n int) []string {
	empty := `{"id":"x","object":"chat.completion.chunk","created":1,"model":"` + model + `","choices":[{"index":0,"delta":{"content":""},"finish_reason":null}]}`
	var events []string
	if first != "" {
		events = append(events, `{"id":"x","object":"chat.completion.chunk","created":1,"model":"`+model+`","choices":[{"index":0,"delta":{"content":"`+first+`"},"finish_reason":null}]}`)
	}
	for range n {
		events = append(events, empty)
	}
	return llmtest.SSE("\n\n", events...)
}

// groqOnly is a Service whose only usable model is Groq's, served by srv.
func groqOnly(t *testing.T, srv *fakeServer, timeouts Timeouts) *Service {
	t.Helper()
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"VIKA_GROQ_BASE_URL": srv.URL + "/openai/v1", "VIKA_OLLAMA_BASE_URL": llmtest.Closed()}
	cfg, err := ConfigFromEnv(cat, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	cfg.Timeouts = timeouts
	return New(cfg, fakeKeys{"groq": "gsk_boundsFAKEKEY0123456789"})
}

// TestEmptyDeltasTimeOut: a stream of chunks without text (every 20 ms,
// for minutes) must not keep an answer alive. Before the first text the
// first-token timeout ends it; after some text the idle timeout does.
func TestEmptyDeltasTimeOut(t *testing.T) {
	for _, tc := range []struct {
		name, first string
		kind        error
	}{
		{"before any text", "", ErrTimeout},
		{"after some text", "2-SAT is", ErrStream},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newFakeServer(t, "text/event-stream", func(recorded) reply {
				return reply{Chunks: emptyDeltas("llama-3.1-8b-instant", tc.first, 10000), ChunkDelay: 20 * time.Millisecond}
			})
			svc := groqOnly(t, srv, Timeouts{FirstToken: 400 * time.Millisecond, Idle: 400 * time.Millisecond})
			var rec recorder
			start := time.Now()
			res, err := svc.Ask(t.Context(), Query{Question: "Is 2-SAT in P?", Model: "groq/llama-3.1-8b-instant"}, testRequest, rec.sink())
			elapsed := time.Since(start)
			if elapsed > 3*time.Second {
				t.Fatalf("the answer of empty deltas ran for %s; want it cut after about 0.4 s", elapsed)
			}
			if !errors.Is(err, tc.kind) {
				t.Fatalf("error = %v, want %v", err, tc.kind)
			}
			if res.Answer != tc.first {
				t.Errorf("answer = %q, want %q", res.Answer, tc.first)
			}
			if len(res.Chain) == 0 || res.Chain[0].ErrorKind != KindOf(tc.kind) {
				t.Errorf("chain = %+v", res.Chain)
			}
			if tc.first != "" && !strings.Contains(err.Error(), "stalled") {
				t.Errorf("error %q does not say the answer stalled", err)
			}
		})
	}
}

// allFakes is a Service whose five providers are local fakes answering in
// their wire formats, each with a valid key.
func allFakes(t *testing.T, gemini, openai, ollama func(recorded) reply) (*Service, map[string]*fakeServer) {
	t.Helper()
	srv := map[string]*fakeServer{
		"gemini":     newFakeServer(t, "text/event-stream", gemini),
		"mistral":    newFakeServer(t, "text/event-stream", openai),
		"groq":       newFakeServer(t, "text/event-stream", openai),
		"openrouter": newFakeServer(t, "text/event-stream", openai),
		"ollama": newFakeServer(t, "application/x-ndjson", func(r recorded) reply {
			if r.Path == "/api/tags" {
				return reply{Body: ollamaTagsBody}
			}
			return ollama(r)
		}),
	}
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for id, s := range srv {
		env["VIKA_"+strings.ToUpper(id)+"_BASE_URL"] = s.URL
	}
	cfg, err := ConfigFromEnv(cat, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	cfg.Local = true // the fake Ollama is this user's
	keys := fakeKeys{"gemini": geminiKey, "mistral": "mistralFAKE0123", "groq": "gsk_FAKE0123", "openrouter": "sk-or-FAKE0123"}
	return New(cfg, keys), srv
}

// TestOutputCapOnTheWire: every request carries the model's output-token
// cap from the catalogue in its provider's own field, and a request asking
// for more is lowered to it.
func TestOutputCapOnTheWire(t *testing.T) {
	svc, srv := allFakes(t,
		func(recorded) reply { return reply{Chunks: llmtest.GeminiStream("g", "ok")} },
		func(recorded) reply { return reply{Chunks: llmtest.OpenAIStream("o", "ok")} },
		func(recorded) reply { return reply{Chunks: llmtest.OllamaStream("l", "ok")} })
	for _, tc := range []struct {
		model, provider string
		asked           int
		path            []string // where the cap sits in the JSON body
		want            float64
		absent          []string // fields that must not be sent
	}{
		{"gemini/gemini-2.5-flash", "gemini", 0, []string{"generationConfig", "maxOutputTokens"}, 8192, nil},
		{"gemini/gemini-2.5-flash-lite", "gemini", 1 << 20, []string{"generationConfig", "maxOutputTokens"}, 2048, nil},
		{"groq/llama-3.1-8b-instant", "groq", 0, []string{"max_completion_tokens"}, 2048, []string{"max_tokens"}},
		{"mistral/ministral-8b-2512", "mistral", 0, []string{"max_tokens"}, 2048, []string{"max_completion_tokens"}},
		{"openrouter/openai/gpt-oss-120b", "openrouter", 100000, []string{"max_tokens"}, 8192, []string{"max_completion_tokens"}},
		{"ollama/llama3.2:latest", "ollama", 0, []string{"options", "num_predict"}, 2048, nil},
		{"groq/llama-3.3-70b-versatile", "groq", 300, []string{"max_completion_tokens"}, 300, []string{"max_tokens"}},
	} {
		t.Run(tc.model, func(t *testing.T) {
			req := testRequest
			req.MaxTokens = tc.asked
			var rec recorder
			res, err := svc.Ask(t.Context(), Query{Question: "Is 2-SAT in P?", Model: tc.model}, req, rec.sink())
			if err != nil || res.ModelUsed != tc.model {
				t.Fatalf("Ask: %v, used %q", err, res.ModelUsed)
			}
			var body map[string]any
			if err := json.Unmarshal([]byte(srv[tc.provider].Last().Body), &body); err != nil {
				t.Fatal(err)
			}
			var v any = body
			for _, k := range tc.path {
				m, _ := v.(map[string]any)
				v = m[k]
			}
			if v != tc.want {
				t.Errorf("%s = %v, want %v; body %s", strings.Join(tc.path, "."), v, tc.want, srv[tc.provider].Last().Body)
			}
			for _, k := range tc.absent {
				if _, ok := body[k]; ok {
					t.Errorf("%s sent as well: %s", k, srv[tc.provider].Last().Body)
				}
			}
		})
	}
}

// TestAnswerTextCap: a provider that ignores its cap and streams on is
// stopped at MaxAnswerBytes; the answer ends cleanly with a notice and the
// footer, without a character cut in two.
func TestAnswerTextCap(t *testing.T) {
	piece := strings.Repeat("é", 100) // 200 bytes
	pieces := make([]string, 1000)
	for i := range pieces {
		pieces[i] = piece
	}
	srv := newFakeServer(t, "text/event-stream", func(recorded) reply {
		return reply{Chunks: llmtest.OpenAIStream("llama-3.1-8b-instant", pieces...)}
	})
	svc := groqOnly(t, srv, Timeouts{})
	svc.cfg.MaxAnswerBytes = 1001
	var rec recorder
	res, err := svc.Ask(t.Context(), Query{Question: "Repeat the table 500 times.", Model: "groq/llama-3.1-8b-instant"}, testRequest, rec.sink())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Answer) != 1000 || !utf8.ValidString(res.Answer) || !res.Truncated || res.Partial {
		t.Errorf("answer of %d bytes (valid UTF-8 %v), truncated %v, partial %v", len(res.Answer), utf8.ValidString(res.Answer), res.Truncated, res.Partial)
	}
	var got []string
	for _, n := range rec.notices {
		got = append(got, n.Kind)
	}
	if !slices.Contains(got, NoticeTruncated) {
		t.Errorf("notices %v lack %q", got, NoticeTruncated)
	}
	if last := rec.deltas[len(rec.deltas)-1]; !last.Footer || !strings.Contains(last.Text, "Model used: Llama 3.1 8B") {
		t.Errorf("last delta = %+v", last)
	}
}

// TestOutputCapReachedNotice: a stream that ends with finish reason
// "length" keeps its text and says it reached the cap.
func TestOutputCapReachedNotice(t *testing.T) {
	srv := newFakeServer(t, "text/event-stream", func(recorded) reply {
		chunks := llmtest.OpenAIStream("llama-3.1-8b-instant", "2-SAT is")
		last := chunks[len(chunks)-2]
		chunks[len(chunks)-2] = strings.Replace(last, `"finish_reason":"stop"`, `"finish_reason":"length"`, 1)
		return reply{Chunks: chunks}
	})
	svc := groqOnly(t, srv, Timeouts{})
	var rec recorder
	res, err := svc.Ask(t.Context(), Query{Question: "q", Model: "groq/llama-3.1-8b-instant"}, testRequest, rec.sink())
	if err != nil || !res.Truncated || res.Answer != "2-SAT is" {
		t.Fatalf("%v, %+v", err, res)
	}
	if n := rec.notices[len(rec.notices)-1]; n.Kind != NoticeTruncated || !strings.Contains(n.Message, "2048 output tokens") {
		t.Errorf("notice = %+v", n)
	}
}

// TestAnswerDeadline: an answer still streaming at Timeouts.Total stops
// there, keeping its text; one that wrote nothing fails with ErrTimeout
// and tries no other model.
func TestAnswerDeadline(t *testing.T) {
	var calls []string
	r := newRunner(map[string]func(context.Context, Request, func(Delta) error) (Usage, error){
		"pa": trickles("slow "),
		"pb": hangs(),
		"pc": answers("never asked"),
	}, &calls)
	r.Timeouts = Timeouts{FirstToken: time.Minute, Idle: time.Minute, Total: 300 * time.Millisecond}
	var rec recorder
	start := time.Now()
	res, err := r.Run(t.Context(), Plan{Order: []Model{modelA, modelC}}, Request{}, rec.sink())
	if time.Since(start) > 3*time.Second || !errors.Is(err, ErrStream) || !res.Partial || !strings.HasPrefix(res.Answer, "slow ") {
		t.Errorf("streaming past the deadline: %v after %s, %+v", err, time.Since(start), res)
	}
	if !strings.Contains(err.Error(), "took longer than 300ms") {
		t.Errorf("error %q does not name the deadline", err)
	}
	calls = nil
	res, err = r.Run(t.Context(), Plan{Order: []Model{modelB, modelC}}, Request{}, rec.sink())
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, ErrNoModel) || len(calls) != 1 || res.Answer != "" {
		t.Errorf("silent past the deadline: %v, calls %v, %+v", err, calls, res)
	}
}

// trickles sends piece every 20 ms until the context ends.
func trickles(piece string) func(context.Context, Request, func(Delta) error) (Usage, error) {
	return func(ctx context.Context, _ Request, fn func(Delta) error) (Usage, error) {
		for {
			if err := fn(Delta{Text: piece}); err != nil {
				return Usage{}, err
			}
			select {
			case <-ctx.Done():
				return Usage{}, ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
}
