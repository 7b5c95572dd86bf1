package rag

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/llm/llmtest"
	"vika/backend/prompt"
	"vika/backend/testpdf"
)

// The test corpus: one PDF of six pages on SAT solving, one chunk a page.
var satPages = []string{
	"Unit propagation assigns the only remaining literal of a unit clause and repeats until no unit clause is left.",
	"The DPLL algorithm chooses a branching variable, assigns it and backtracks chronologically on a conflict.",
	"Conflict-driven clause learning analyses the implication graph and adds a learnt clause that blocks the conflict.",
	"The VSIDS heuristic bumps the activity of variables in learnt clauses and decays all activities periodically.",
	"Restarts following the Luby sequence keep learnt clauses while escaping heavy-tailed runtimes.",
	"Random 3-SAT instances are hardest near a clause-to-variable ratio of about 4.26.",
}

// newEngine returns a BM25 engine holding sat.pdf.
func newEngine(t *testing.T) *engine.Engine {
	t.Helper()
	// An empty models root: no cross-encoder the user may have installed.
	return newEngineIn(t, t.TempDir())
}

// newEngineIn returns a BM25 engine holding sat.pdf, with the models
// installed under root.
func newEngineIn(t *testing.T, root string) *engine.Engine {
	t.Helper()
	eng, err := engine.New(context.Background(), engine.Config{NoEmbeddings: true, ModelsRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if _, err := addPDF(t, eng, "sat.pdf", testpdf.Text(satPages...)); err != nil {
		t.Fatal(err)
	}
	return eng
}

// keys is an llm.Keys with fixed keys.
type keys map[string]string

func (k keys) Key(p string) (string, error) { return k[p], nil }

// providers are fake Gemini and Groq servers; Mistral and OpenRouter have
// no key and Ollama does not run.
type providers struct {
	gemini, groq *llmtest.Server
	svc          *llm.Service
}

// geminiModel returns the model id of a Gemini request path
// (/v1beta/models/ID:streamGenerateContent).
func geminiModel(path string) string {
	_, rest, _ := strings.Cut(path, "/models/")
	id, _, _ := strings.Cut(rest, ":")
	return id
}

// newProviders starts the fakes; gemini and groq answer each request.
// firstToken bounds the wait for a first token (0: the default).
func newProviders(t *testing.T, gemini, groq func(llmtest.Request) llmtest.Reply, firstToken time.Duration) *providers {
	t.Helper()
	p := &providers{
		gemini: llmtest.NewServer(t, "text/event-stream", gemini),
		groq:   llmtest.NewServer(t, "text/event-stream", groq),
	}
	cat, err := llm.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"VIKA_GEMINI_BASE_URL": p.gemini.URL,
		"VIKA_GROQ_BASE_URL":   p.groq.URL + "/openai/v1",
		"VIKA_OLLAMA_BASE_URL": llmtest.Closed(),
	}
	cfg, err := llm.ConfigFromEnv(cat, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	cfg.Timeouts.FirstToken = firstToken
	cfg.Timeouts.Idle = 5 * time.Second
	cfg.Sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() } // retries without the waits
	p.svc = llm.New(cfg, keys{"gemini": "AIzaSyFAKE-rag-test-key-0123456789", "groq": "gsk_ragFAKEKEY0123456789"})
	return p
}

// noProviders is a Service with no key and no Ollama.
func noProviders(t *testing.T) *llm.Service {
	t.Helper()
	cat, err := llm.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	closed := llmtest.Closed()
	cfg, err := llm.ConfigFromEnv(cat, func(k string) string {
		if k == "VIKA_OLLAMA_BASE_URL" {
			return closed
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	return llm.New(cfg, keys{})
}

// answering replies with a stream of texts in the format of the server's
// provider, chosen by the request path.
func geminiSays(texts ...string) llmtest.Reply {
	return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash-lite", texts...)}
}

func groqSays(texts ...string) llmtest.Reply {
	return llmtest.Reply{Chunks: llmtest.OpenAIStream("llama-3.1-8b-instant", texts...)}
}

var rateLimited = llmtest.Reply{Status: 429, Body: llmtest.GeminiRateLimit}

// events gathers the events of an answer.
type events struct {
	mu  sync.Mutex
	evs []Event
}

func (e *events) emit(ev Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.evs = append(e.evs, ev)
}

func (e *events) all() []Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Event(nil), e.evs...)
}

// text joins the delta events.
func (e *events) text() string {
	var b strings.Builder
	for _, ev := range e.all() {
		if ev.Type == EventDelta {
			b.WriteString(ev.Text)
		}
	}
	return b.String()
}

func (e *events) types() []string {
	var out []string
	for _, ev := range e.all() {
		out = append(out, ev.Type)
	}
	return out
}

func (e *events) last() Event {
	all := e.all()
	if len(all) == 0 {
		return Event{}
	}
	return all[len(all)-1]
}

// wait waits for the done or error event.
func (e *events) wait(t *testing.T) Event {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if ev := e.last(); ev.Type == EventDone || ev.Type == EventError {
			return ev
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no done or error event; got %v", e.types())
	return Event{}
}

// testOptions are the options of the default settings
// (session.DefaultSettings), in bm25 mode.
func testOptions() Options {
	return Options{Mode: "bm25", K: DefaultK, History: true, Rerank: true, MultiQueryVariants: prompt.DefaultRephrasings}
}

// docOf is the document of an add's report.
func docOf(r engine.Report, err error) (corpus.Document, error) { return r.Doc, err }

// addPDF writes data to a file named name in a temporary folder and adds
// it to eng as the command line would (engine.Ingest).
func addPDF(t testing.TB, eng *engine.Engine, name string, data []byte) (corpus.Document, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return docOf(eng.Ingest(t.Context(), path, nil))
}
