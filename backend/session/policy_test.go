package session

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"vika/backend/engine"
	"vika/backend/llm/llmtest"
	"vika/backend/message"
	"vika/backend/models"
	"vika/backend/rag"
	"vika/backend/secrets"
	"vika/backend/testpdf"
)

// memRing is a keyring in memory.
type memRing struct{}

func (memRing) Get(string, string) (string, error) { return "", secrets.ErrNotFound }
func (memRing) Set(string, string, string) error   { return nil }
func (memRing) Delete(string, string) error        { return nil }

// heard gathers the events a session emits.
type heard struct {
	mu  sync.Mutex
	evs []event
	// hold, when set, is called with each event before it is kept,
	// outside the lock, from the emitting goroutine (which it may block).
	hold func(event)
}

type event struct {
	name    string
	payload any
}

func (h *heard) emit(name string, payload any) {
	if h.hold != nil {
		h.hold(event{name, payload})
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.evs = append(h.evs, event{name, payload})
}

// wait returns the events once one satisfies ok, failing after 20 s.
func (h *heard) wait(t *testing.T, what string, ok func(event) bool) []event {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		h.mu.Lock()
		evs := slices.Clone(h.evs)
		h.mu.Unlock()
		if slices.ContainsFunc(evs, ok) {
			return evs
		}
	}
	t.Fatalf("no %s event", what)
	return nil
}

// open opens a BM25 session without a model server (Ollama refused, no
// key), its settings at settingsPath, its ONNX models under a new root.
func open(t *testing.T, settingsPath string, h *heard) *Session {
	t.Helper()
	return openWith(t, settingsPath, h, nil)
}

// openWith is open with the environment variables env set on top (a
// provider's key and address, say).
func openWith(t *testing.T, settingsPath string, h *heard, env map[string]string) *Session {
	t.Helper()
	t.Setenv("VIKA_OLLAMA_BASE_URL", llmtest.Closed())
	for _, k := range []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "MISTRAL_API_KEY", "GROQ_API_KEY", "OPENROUTER_API_KEY"} {
		t.Setenv(k, "")
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	cfg := engine.DefaultConfig()
	cfg.NoEmbeddings, cfg.ModelsRoot = true, t.TempDir()
	s, err := Open(t.Context(), Options{
		Engine: &cfg, SettingsPath: settingsPath, NoSettings: settingsPath == "",
		Keys:   secrets.NewWith(memRing{}, os.Getenv),
		Models: &models.Manager{Downloader: models.Downloader{Root: cfg.ModelsRoot, BaseURL: llmtest.Closed()}},
		Emit:   h.emit,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func describing(ev event) bool {
	p, ok := ev.payload.(engine.Progress)
	return ok && ev.name == EventIngestProgress && p.Stage == engine.StageDescribing
}

func added(file string) func(event) bool {
	return func(ev event) bool {
		p, ok := ev.payload.(engine.Progress)
		return ok && p.File == file && (p.Stage == engine.StageDone || p.Stage == engine.StageFailed)
	}
}

// TestDescribeAfterAddFromSettingsInMemory: with Describe on, each
// document added is described; the settings are those read at Open or
// saved since, not the file reread at every add (damaging it changes
// nothing); turning Describe off through SetSettings stops it at once.
func TestDescribeAfterAddFromSettingsInMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	on := DefaultSettings()
	on.Describe, on.DescribeModel = true, "gemini/gemini-2.5-flash"
	if err := SaveSettings(path, on); err != nil {
		t.Fatal(err)
	}
	h := &heard{}
	s := open(t, path, h)
	if err := os.WriteFile(path, []byte("{damaged"), 0o600); err != nil {
		t.Fatal(err)
	}
	s.StartBytes("one.pdf", testpdf.Text("Boolean satisfiability is NP-complete."))
	evs := h.wait(t, "describing", describing)
	if !slices.ContainsFunc(evs, added("one.pdf")) {
		t.Fatalf("described before the add ended: %v", evs)
	}

	off := on
	off.Describe = false
	if err := s.SetSettings(t.Context(), off); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	h.evs = nil
	h.mu.Unlock()
	s.StartBytes("two.pdf", testpdf.Text("Resolution refutes unsatisfiable formulas."))
	evs = h.wait(t, "two.pdf added", added("two.pdf"))
	time.Sleep(200 * time.Millisecond)
	if slices.ContainsFunc(evs, describing) {
		t.Errorf("described with Describe off: %v", evs)
	}
	if got, err := s.Settings(); err != nil || got != off {
		t.Errorf("Settings = %+v, %v, want those saved", got, err)
	}
}

// TestDescribeProbesOncePerSession: documents added one after the other
// with Describe on share one probe of the chosen Gemini model (the
// one-token request), not one each, and the adds do not wait for it.
func TestDescribeProbesOncePerSession(t *testing.T) {
	var mu sync.Mutex
	probes := 0
	gemini := llmtest.NewServer(t, "text/event-stream", func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.Body, `"maxOutputTokens":1`) {
			mu.Lock()
			probes++
			mu.Unlock()
		}
		return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash", "OK")}
	})
	path := filepath.Join(t.TempDir(), "settings.json")
	on := DefaultSettings()
	on.Describe, on.DescribeModel = true, "gemini/gemini-2.5-flash"
	if err := SaveSettings(path, on); err != nil {
		t.Fatal(err)
	}
	h := &heard{}
	s := openWith(t, path, h, map[string]string{"GEMINI_API_KEY": "AIzaSyFAKE-probe-once-0123456789", "VIKA_GEMINI_BASE_URL": gemini.URL})
	for _, name := range []string{"one.pdf", "two.pdf", "three.pdf"} {
		s.StartBytes(name, testpdf.Text("Boolean satisfiability is NP-complete: "+name))
		h.wait(t, name+" described", func(ev event) bool { return describing(ev) && ev.payload.(engine.Progress).File == name })
	}
	mu.Lock()
	defer mu.Unlock()
	if probes != 1 {
		t.Errorf("the chosen model was probed %d times for three documents, want once", probes)
	}
}

// TestBadConfigLeavesAnswersExtractive: a bad provider address and a bad
// threshold do not stop the session: no model is asked, answers quote the
// documents and carry a notice naming the problem, and the model list
// says why it is empty.
func TestBadConfigLeavesAnswersExtractive(t *testing.T) {
	t.Setenv("VIKA_GEMINI_BASE_URL", "ftp://not-a-provider")
	t.Setenv("VIKA_ABSTAIN_MIN_BM25", "lots")
	s := open(t, "", &heard{})
	if s.Problem() == nil {
		t.Fatal("no problem reported")
	}
	if ms, err := s.LLMs(t.Context()); err == nil || len(ms) != 0 {
		t.Errorf("LLMs = %v, %v, want none and the problem", ms, err)
	}
	if _, err := s.Ingest(t.Context(), writePDF(t, "sat.pdf",
		"Boolean satisfiability (SAT) asks whether a formula has a satisfying assignment. Cook proved SAT NP-complete in 1971.",
		"Resolution is a refutation method for clauses in conjunctive normal form.",
		"Local search such as WalkSAT flips variables to reduce unsatisfied clauses."), nil); err != nil {
		t.Fatal(err)
	}
	var notices []string
	a, err := s.Ask(t.Context(), "Who proved SAT NP-complete, and when?", rag.Options{Mode: "bm25"}, func(ev rag.Event) {
		if ev.Type == rag.EventNotice {
			notices = append(notices, ev.Notice.Code)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if a.Footer != rag.FooterExtractive || !slices.Contains(notices, message.NoticeConfig) {
		t.Errorf("answer footer %q, notices %v: want extractive with %s", a.Footer, notices, message.NoticeConfig)
	}
}

func writePDF(t *testing.T, name string, pages ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, testpdf.Text(pages...), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReembedWhenAnEmbeddingModelIsInstalled: a download that finishes
// for an embedding or image model switches the session's models (a
// models:reembed event); a reranker, or a failed download, does not.
func TestReembedWhenAnEmbeddingModelIsInstalled(t *testing.T) {
	byRole := map[string]string{}
	for _, m := range models.Registry() {
		if _, ok := byRole[m.Role]; !ok {
			byRole[m.Role] = m.Name
		}
	}
	for _, c := range []struct {
		ev     models.Event
		reembd bool
	}{
		{models.Event{Name: byRole[models.RoleReranker], Finished: true}, false},
		{models.Event{Name: byRole[models.RoleEmbedder], Finished: true, Error: "cancelled"}, false},
		{models.Event{Name: byRole[models.RoleEmbedder]}, false},
		{models.Event{Name: byRole[models.RoleEmbedder], Finished: true}, true},
		{models.Event{Name: byRole[models.RoleImage], Finished: true}, true},
	} {
		h := &heard{}
		s := open(t, "", h)
		s.modelEvent(c.ev)
		reembed := func(ev event) bool { return ev.name == EventModelReembed }
		if c.reembd {
			h.wait(t, "reembed after "+c.ev.Name, reembed)
		}
		s.Close() // waits for a switch under way
		if got := slices.ContainsFunc(h.evs, reembed); got != c.reembd {
			t.Errorf("%+v: re-embedded %v, want %v", c.ev, got, c.reembd)
		}
		if !slices.ContainsFunc(h.evs, func(ev event) bool { return ev.name == EventModelProgress }) {
			t.Errorf("%+v: the download's event was not passed on", c.ev)
		}
	}
}

// TestAnswerModelOffer: declining is remembered beside the settings and
// downloads nothing; accepting is remembered and starts the offer's
// downloads (here to a server that refuses: each one ends failed).
func TestAnswerModelOffer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vika", "settings.json")
	h := &heard{}
	s := open(t, path, h)
	o, err := s.ModelOffer()
	if err != nil || len(o.Models) == 0 || o.Answer != "" {
		t.Fatalf("offer before any answer: %+v, %v", o, err)
	}
	if err := s.AnswerModelOffer(false); err != nil {
		t.Fatal(err)
	}
	if o, _ := s.ModelOffer(); o.Answer != models.OfferDeclined {
		t.Errorf("answer after declining: %q", o.Answer)
	}
	if len(h.evs) != 0 {
		t.Errorf("declining downloaded: %v", h.evs)
	}
	if err := s.AnswerModelOffer(true); err != nil {
		t.Fatal(err)
	}
	if o, _ := s.ModelOffer(); o.Answer != models.OfferAccepted {
		t.Errorf("answer after accepting: %q", o.Answer)
	}
	for _, m := range o.Models {
		h.wait(t, "download of "+m.Name, func(ev event) bool {
			e, ok := ev.payload.(models.Event)
			return ok && e.Name == m.Name && e.Finished
		})
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "model-offer.json")); err != nil {
		t.Errorf("the answer is not beside the settings: %v", err)
	}
}

// TestBadOCRSettingIsReported: a VIKA_OCR_* value that does not parse is
// the session's configuration problem, named, as every other bad VIKA_*
// limit is (read once, with the engine's configuration).
func TestBadOCRSettingIsReported(t *testing.T) {
	t.Setenv("VIKA_OCR_WORKERS", "lots")
	t.Setenv("VIKA_DATA_DIR", t.TempDir()) // no models: BM25 only
	t.Setenv("VIKA_OLLAMA_BASE_URL", llmtest.Closed())
	root := t.TempDir()
	s, err := Open(t.Context(), Options{NoSettings: true, Keys: secrets.NewWith(memRing{}, os.Getenv),
		Models: &models.Manager{Downloader: models.Downloader{Root: root, BaseURL: llmtest.Closed()}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if p := s.Problem(); p == nil || !strings.Contains(p.Error(), "VIKA_OCR_WORKERS") {
		t.Errorf("Problem = %v, want VIKA_OCR_WORKERS named", p)
	}
}
