package session

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"vika/backend/engine"
	"vika/backend/llm/llmtest"
	"vika/backend/testpdf"
)

func summarizing(ev event) bool {
	p, ok := ev.payload.(engine.Progress)
	return ok && ev.name == EventIngestProgress && p.Stage == engine.StageSummarizing
}

// TestSummaryIndexAfterAdd: the plan announces the requests and tokens
// before anything is asked (no request reaches the provider); with
// Summarize on, a document added is summarised through the router (one
// request a long passage) as a job of the library; the plan then counts
// it as done; with Summarize off nothing is asked; the cap is validated.
func TestSummaryIndexAfterAdd(t *testing.T) {
	var mu sync.Mutex
	var prompts []string
	gemini := llmtest.NewServer(t, "text/event-stream", func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		prompts = append(prompts, r.Body)
		mu.Unlock()
		return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash-lite", "A summary of the passage.")}
	})
	asked := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(prompts)
	}
	path := filepath.Join(t.TempDir(), "settings.json")
	h := &heard{}
	s := openWith(t, path, h, map[string]string{"GEMINI_API_KEY": "AIzaSyFAKE-summary-0123456789", "VIKA_GEMINI_BASE_URL": gemini.URL})
	long := strings.Repeat("Boolean satisfiability asks whether some assignment makes a formula true. ", 4)

	s.StartBytes("off.pdf", testpdf.Text(long))
	h.wait(t, "off.pdf added", added("off.pdf"))
	time.Sleep(200 * time.Millisecond)
	h.mu.Lock()
	early := slices.ContainsFunc(h.evs, summarizing)
	h.mu.Unlock()
	if asked() != 0 || early {
		t.Fatalf("summarised with Summarize off: %d requests", asked())
	}
	plan, err := s.SummaryPlan(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if plan.Requests != 1 || plan.Documents != 1 || plan.InputTokens < len(long)/4 || plan.OutputTokens == 0 || !strings.HasPrefix(plan.Model, "gemini/") || plan.PerDocument != DefaultSummarizeMax {
		t.Fatalf("plan %+v", plan)
	}
	if asked() != 0 {
		t.Fatal("the plan asked the provider")
	}

	on := DefaultSettings()
	on.Summarize = true
	if err := s.SetSettings(t.Context(), on); err != nil {
		t.Fatal(err)
	}
	s.StartBytes("on.pdf", testpdf.Text(long+" Resolution refutes it."))
	h.wait(t, "summarising", summarizing)
	h.wait(t, "the summary job's end", func(ev event) bool {
		p, ok := ev.payload.(engine.Progress)
		return ok && p.Stage == engine.StageDone && p.File == "on.pdf" && asked() == 1
	})
	if ids, err := s.SummarizeLibrary(t.Context()); err != nil || len(ids) != 2 {
		t.Fatalf("summarise the library: %v, %v", ids, err)
	}
	for deadline := time.Now().Add(10 * time.Second); asked() < 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
	}
	time.Sleep(100 * time.Millisecond)
	if asked() != 2 {
		t.Fatalf("%d requests after summarising the library (want 2: off.pdf's passage, on.pdf's kept)", asked())
	}
	plan, err = s.SummaryPlan(t.Context())
	if err != nil || plan.Requests != 0 || plan.Already != 2 {
		t.Fatalf("plan after: %+v, %v", plan, err)
	}

	bad := on
	bad.SummarizeMax = MaxSummarize + 1
	if err := s.SetSettings(t.Context(), bad); err == nil {
		t.Error("a cap over MaxSummarize was accepted")
	}
}
