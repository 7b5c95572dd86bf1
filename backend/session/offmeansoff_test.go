package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/assets"
	"vika/backend/cache"
	"vika/backend/llm/llmtest"
	"vika/backend/rag"
	"vika/backend/secrets"
	"vika/backend/testfs"
)

// TestOffMeansOffWholeSession: with "Remember processed documents" off
// (the default: no settings file yet), a whole session as the window runs
// it (the settings, keys and models of Open's defaults, the engine from
// the environment) that adds two PDFs, asks a question answered by a model
// (a Gemini fake speaking its wire format) and quits writes nothing under
// the cache directory nor the data directory, listed before and after.
func TestOffMeansOffWholeSession(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", filepath.Join(t.TempDir(), "cache"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "config"))
	gemini := llmtest.NewServer(t, "text/event-stream", func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash",
			"Cook proved SAT NP-complete ", "in 1971 [sat.pdf p.1].")}
	})
	closed := llmtest.Closed()
	for k, v := range map[string]string{
		"GEMINI_API_KEY": "AIzaSyFAKE-offmeansoff-0123456789", "VIKA_GEMINI_BASE_URL": gemini.URL,
		"GOOGLE_API_KEY": "", "MISTRAL_API_KEY": "", "GROQ_API_KEY": "", "OPENROUTER_API_KEY": "",
		"VIKA_OLLAMA_BASE_URL": closed, "VIKA_ABSTAIN_MIN_BM25": "",
	} {
		t.Setenv(k, v)
	}
	cacheDir, err := cache.Dir()
	if err != nil {
		t.Fatal(err)
	}
	pdf := writePDF(t, "sat.pdf",
		"Boolean satisfiability (SAT) asks whether a formula has a satisfying assignment. Cook proved SAT NP-complete in 1971.")
	other := writePDF(t, "optics.pdf",
		"Snell's law relates the angles of incidence and refraction to the refractive indices of two media.",
		"Total internal reflection happens beyond the critical angle, when light goes toward a lower index.")
	dataDir := assets.Dir()
	beforeCache, beforeData := testfs.Tree(t, filepath.Dir(cacheDir)), testfs.Tree(t, dataDir)

	s, err := Open(t.Context(), Options{Keys: secrets.NewWith(memRing{}, os.Getenv)})
	if err != nil {
		t.Fatal(err)
	}
	if set, err := s.Settings(); err != nil || set.Remember {
		t.Fatalf("Settings = %+v, %v: want Remember off by default", set, err)
	}
	for _, p := range []string{pdf, other} {
		if _, err := s.Ingest(t.Context(), p, nil); err != nil {
			t.Fatal(err)
		}
	}
	a, err := s.Ask(t.Context(), "Who proved SAT NP-complete?", rag.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.ModelUsed, "gemini/") || !strings.Contains(a.Answer, "1971") || gemini.Count() != 1 {
		t.Fatalf("answer %q by %q (%d requests to the fake), want Gemini's", a.Answer, a.ModelUsed, gemini.Count())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	if diff := cmp.Diff(beforeCache, testfs.Tree(t, filepath.Dir(cacheDir))); diff != "" {
		t.Errorf("the cache dir changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(beforeData, testfs.Tree(t, dataDir)); diff != "" {
		t.Errorf("the data dir %s changed (-before +after):\n%s", dataDir, diff)
	}
	t.Logf("asked %s; cache dir %s: %d entries before and after; data dir %s: %d entries before and after",
		a.ModelUsed, filepath.Dir(cacheDir), len(beforeCache), dataDir, len(beforeData))
}
