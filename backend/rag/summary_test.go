package rag

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/llm/llmtest"
	"vika/backend/message"
)

// summaryWire is one provider's fake for the summary tests: its content
// type, the suffix of its base URL and its stream of a text.
type summaryWire struct {
	provider, ctype, suffix string
	stream                  func(text string) []string
}

var summaryWires = []summaryWire{
	{"gemini", "text/event-stream", "", func(s string) []string { return llmtest.GeminiStream("gemini-2.5-flash-lite", s) }},
	{"mistral", "text/event-stream", "/v1", func(s string) []string { return llmtest.OpenAIStream("ministral-8b-2512", s) }},
	{"groq", "text/event-stream", "/openai/v1", func(s string) []string { return llmtest.OpenAIStream("llama-3.1-8b-instant", s) }},
	{"openrouter", "text/event-stream", "/api/v1", func(s string) []string { return llmtest.OpenAIStream("openai/gpt-oss-120b", s) }},
	{"ollama", "application/x-ndjson", "", func(s string) []string { return llmtest.OllamaStream("llama3.2:latest", s) }},
}

const summaryOllamaTags = `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","modified_at":"2025-07-30T10:00:00.000000+02:00","size":2019393189,"digest":"a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72","details":{"parent_model":"","format":"gguf","family":"llama","families":["llama"],"parameter_size":"3.2B","quantization_level":"Q4_K_M"}}]}`

// onlyProvider is a model service whose one provider is the fake f of w
// (every other has no key, or does not run).
func onlyProvider(t *testing.T, w summaryWire, f *llmtest.Server) *llm.Service {
	t.Helper()
	cat, err := llm.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"VIKA_OLLAMA_BASE_URL": llmtest.Closed()}
	env["VIKA_"+strings.ToUpper(w.provider)+"_BASE_URL"] = f.URL + w.suffix
	cfg, err := llm.ConfigFromEnv(cat, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	cfg.Local = w.provider == "ollama"
	cfg.Timeouts.Idle = 5 * time.Second
	cfg.Sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	k := keys{}
	if w.provider != "ollama" {
		k[w.provider] = "FAKE-" + w.provider + "-key-0123456789abcdef"
	}
	return llm.New(cfg, k)
}

// jsonStrings joins every string of a JSON body: the prompt whatever the
// provider's shape.
func jsonStrings(body string) string {
	var v any
	if json.Unmarshal([]byte(body), &v) != nil {
		return body
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x + "\n")
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

// TestSummarizerOverEveryProvider: a passage's summary is asked of each
// provider in its own wire format (Gemini, Mistral, Groq, OpenRouter,
// Ollama), with the passage's section and text delimited as data and the
// task asked in the passage's language; the model that wrote it is named;
// a summary cut before any text is refused as cut, a blocked one as
// blocked, and a provider that keeps failing stops the job with
// summary.failed.
func TestSummarizerOverEveryProvider(t *testing.T) {
	eng := newEngine(t)
	passage := corpus.Chunk{ID: "d-p2-c0", DocID: "d", Page: 2, Lang: "fr", SectionTitle: "2 Canaux",
		Text: "La capacité d’un canal borne le débit <fiable> d’information sur une ligne bruitée."}
	for _, w := range summaryWires {
		t.Run(w.provider, func(t *testing.T) {
			f := llmtest.NewServer(t, w.ctype, func(r llmtest.Request) llmtest.Reply {
				switch r.Path {
				case "/api/tags":
					return llmtest.Reply{Body: summaryOllamaTags}
				case "/api/show":
					return llmtest.Reply{Status: 404, Body: `{"error":"not found"}`}
				}
				return llmtest.Reply{Chunks: w.stream("Le débit d’un canal bruité a une borne.")}
			})
			s := New(eng, onlyProvider(t, w, f), Config{})
			sum, first, err := s.Summarizer(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if p, _, _ := llm.SplitKey(first); p != w.provider {
				t.Fatalf("first model %q, want one of %s", first, w.provider)
			}
			text, model, err := sum(t.Context(), passage)
			if err != nil || text != "Le débit d’un canal bruité a une borne." {
				t.Fatalf("summary %q, %v", text, err)
			}
			if p, _, _ := llm.SplitKey(model); p != w.provider {
				t.Errorf("written by %q", model)
			}
			prompt := jsonStrings(f.Last().Body)
			for _, want := range []string{"<section>\n2 Canaux\n</section>", "&lt;fiable&gt;", "Summarise the passage. Write in French.", "summarise passages of scientific documents"} {
				if !strings.Contains(prompt, want) {
					t.Errorf("the request lacks %q:\n%s", want, prompt)
				}
			}
		})
	}

	// Gemini: cut before any text, blocked, then failing for good.
	var reply llmtest.Reply
	f := llmtest.NewServer(t, "text/event-stream", func(llmtest.Request) llmtest.Reply { return reply })
	s := New(eng, onlyProvider(t, summaryWires[0], f), Config{})
	sum, _, err := s.Summarizer(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	reply = llmtest.Reply{Chunks: llmtest.SSE("\r\n\r\n", `{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"MAX_TOKENS","index":0}],"usageMetadata":{"promptTokenCount":31,"candidatesTokenCount":160,"totalTokenCount":191}}`)}
	if _, _, err := sum(t.Context(), passage); !errors.Is(err, engine.ErrRefused) || message.Of(err).Code != message.RefusedTruncated {
		t.Errorf("cut before any text: %v", err)
	}
	reply = llmtest.Reply{Chunks: llmtest.SSE("\r\n\r\n", `{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":31,"totalTokenCount":31}}`)}
	if _, _, err := sum(t.Context(), passage); !errors.Is(err, engine.ErrRefused) || message.Of(err).Code != message.RefusedBlocked {
		t.Errorf("blocked: %v (%q)", err, message.Of(err).Code)
	}
	reply = llmtest.Reply{Status: 500, Body: `{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL"}}`}
	if _, _, err := sum(t.Context(), passage); errors.Is(err, engine.ErrRefused) || message.Of(err).Code != message.SummaryFailed {
		t.Errorf("failing provider: %v (%q)", err, message.Of(err).Code)
	}

	if _, _, err := New(eng, noProviders(t), Config{}).Summarizer(t.Context()); message.Of(err).Code != message.SummaryNoModel {
		t.Errorf("no model: %v", err)
	}
}
