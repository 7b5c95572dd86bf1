package study

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/llm/llmtest"
	"vika/backend/sharedtest"
)

const (
	vaswaniPDF = "pdfs/vaswani2017_attention_is_all_you_need.pdf"
	shannonPDF = "pdfs/shannon1948_mathematical_theory_of_communication.pdf"
)

// shared is one BM25 engine holding Vaswani and Shannon, ingested once
// for the package's tests (they only read it).
var shared struct {
	once    sync.Once
	eng     *engine.Engine
	vaswani string // doc ids
	shannon string
	err     error
}

func twoPDFs(t *testing.T) (*engine.Engine, string, string) {
	t.Helper()
	v, s := sharedtest.Require(t, vaswaniPDF), sharedtest.Require(t, shannonPDF)
	shared.once.Do(func() {
		ctx := context.Background()
		shared.eng, shared.err = engine.New(ctx, engine.Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
		if shared.err != nil {
			return
		}
		r, err := shared.eng.Ingest(ctx, v, nil)
		if shared.err = err; err != nil {
			return
		}
		shared.vaswani = r.Doc.ID
		r, shared.err = shared.eng.Ingest(ctx, s, nil)
		shared.shannon = r.Doc.ID
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.eng, shared.vaswani, shared.shannon
}

type keys map[string]string

func (k keys) Key(p string) (string, error) { return k[p], nil }

// wire is one provider's fake: its content type, where the service finds
// it and how it streams a text.
type wire struct {
	provider string
	ctype    string
	suffix   string // appended to the fake's URL for the base URL
	stream   func(text string) []string
}

var wires = []wire{
	{"gemini", "text/event-stream", "", func(s string) []string { return llmtest.GeminiStream("gemini-2.5-flash-lite", s) }},
	{"mistral", "text/event-stream", "/v1", func(s string) []string { return llmtest.OpenAIStream("ministral-8b-latest", s) }},
	{"groq", "text/event-stream", "/openai/v1", func(s string) []string { return llmtest.OpenAIStream("llama-3.1-8b-instant", s) }},
	{"openrouter", "text/event-stream", "/api/v1", func(s string) []string { return llmtest.OpenAIStream("meta-llama/llama-4-maverick", s) }},
	{"ollama", "application/x-ndjson", "", func(s string) []string { return llmtest.OllamaStream("llama3.2:latest", s) }},
}

const ollamaTags = `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","modified_at":"2025-07-30T10:00:00.000000+02:00","size":2019393189,"digest":"a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72","details":{"parent_model":"","format":"gguf","family":"llama","families":["llama"],"parameter_size":"3.2B","quantization_level":"Q4_K_M"}}]}`

// service returns a model service whose providers are the given fakes
// (provider -> server); every other provider has no key or does not run.
func service(t *testing.T, fakes map[string]*llmtest.Server) *llm.Service {
	t.Helper()
	cat, err := llm.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	closed := llmtest.Closed()
	env, k := map[string]string{}, keys{}
	for _, w := range wires {
		env["VIKA_"+strings.ToUpper(w.provider)+"_BASE_URL"] = closed
		if f, ok := fakes[w.provider]; ok {
			env["VIKA_"+strings.ToUpper(w.provider)+"_BASE_URL"] = f.URL + w.suffix
			k[w.provider] = "FAKE-" + w.provider + "-key-0123456789abcdef"
		}
	}
	cfg, err := llm.ConfigFromEnv(cat, func(n string) string { return env[n] })
	if err != nil {
		t.Fatal(err)
	}
	_, cfg.Local = fakes["ollama"]
	cfg.Timeouts.Idle = 5 * time.Second
	return llm.New(cfg, k)
}

// fake starts w's server answering each model request with reply(body).
func fake(t *testing.T, w wire, reply func(body string) llmtest.Reply) *llmtest.Server {
	return llmtest.NewServer(t, w.ctype, func(r llmtest.Request) llmtest.Reply {
		if r.Path == "/api/tags" {
			return llmtest.Reply{Body: ollamaTags}
		}
		if r.Path == "/api/show" {
			return llmtest.Reply{Status: 404, Body: `{"error":"not found"}`}
		}
		return reply(r.Body)
	})
}

// texts returns every string of a JSON request body, joined: the
// prompt whatever the provider's shape.
func texts(body string) string {
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

var sourceRE = regexp.MustCompile(`(?s)<source n="\d+" cite="([^"]+)">\n(.*?)\n</source>`)

type source struct{ label, text string }

// sources reads the sources of a prompt.
func sources(prompt string) []source {
	var out []source
	for _, m := range sourceRE.FindAllStringSubmatch(prompt, -1) {
		out = append(out, source{html.UnescapeString(m[1]), html.UnescapeString(m[2])})
	}
	return out
}

var (
	sentenceEnd = regexp.MustCompile(`[.!?]\s+`)
	digits      = regexp.MustCompile(`\d`)
	longWord    = regexp.MustCompile(`\pL{4,}`)
)

// sentence is the first sentence of text of at least 8 words, six of
// them of four letters or more, with a number of two digits or more
// (withDigit) or with no digit at all.
func sentence(text string, withDigit bool) string {
	text = strings.Join(strings.Fields(text), " ")
	start := 0
	for _, loc := range append(sentenceEnd.FindAllStringIndex(text, -1), []int{len(text), len(text)}) {
		s := strings.TrimSpace(text[start:loc[0]])
		start = loc[1]
		if len(strings.Fields(s)) < 8 || len(longWord.FindAllString(s, -1)) < 6 || strings.ContainsAny(s, "[]<>&") {
			continue
		}
		if withDigit == numberRE.MatchString(s) && (withDigit || !digits.MatchString(s)) {
			return s
		}
	}
	return ""
}

// faithful is a model that writes study lines copied from its sources,
// each citing the source it copies, and merges notes by keeping them.
func faithful(prompt string) string {
	if i := strings.Index(prompt, "<notes>\n"); i >= 0 {
		j := strings.Index(prompt, "\n</notes>\n")
		return html.UnescapeString(prompt[i+len("<notes>\n") : j])
	}
	var b strings.Builder
	cards := strings.Contains(prompt, "flashcards")
	n := 0
	for _, s := range sources(prompt) {
		sen := sentence(s.text, false)
		if sen == "" || n == 4 {
			continue
		}
		n++
		if cards {
			fmt.Fprintf(&b, "Q: What does the source say on page %d?\nA: %s %s\n", n, sen, s.label)
			continue
		}
		fmt.Fprintf(&b, "SUMMARY: %s %s\n", sen, s.label)
		fmt.Fprintf(&b, "TERM: %s :: %s %s\n", strings.Join(strings.Fields(sen)[:2], " "), sen, s.label)
		fmt.Fprintf(&b, "Q: What does page %d say?\nA: %s %s\n", n, sen, s.label)
	}
	return b.String()
}
