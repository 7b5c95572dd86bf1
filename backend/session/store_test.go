package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
	"vika/backend/rag"
)

func TestSettingsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vika", "settings.json")
	s, err := LoadSettings(path)
	if err != nil || s != DefaultSettings() {
		t.Fatalf("missing file: %+v, %v", s, err)
	}
	s = withPipeline(Settings{Routing: RoutingManual, Provider: "groq", Model: "llama-3.1-8b-instant", Mode: "hybrid", K: 12, History: false, HyDE: true, Rerank: true, Locale: "fr", MultiQuery: true, MultiQueryVariants: 5})
	s.FigureDepth, s.ChunkSize, s.ChunkOverlap = 0, 600, 0 // off and none round-trip as 0
	if err := SaveSettings(path, s); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSettings(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, got); diff != "" {
		t.Errorf("(-saved +loaded):\n%s", diff)
	}
	o := got.Options()
	if o.Provider != "groq" || o.Model != "llama-3.1-8b-instant" || o.K != 12 || !o.HyDE || o.History || !o.MultiQuery || o.MultiQueryVariants != 5 {
		t.Errorf("options %+v", o)
	}
	if o := DefaultSettings().Options(); o.Provider != "" || o.K != rag.DefaultK || !o.History || !o.Rerank || o.HyDE || o.MultiQuery {
		t.Errorf("default options %+v", o)
	}
}

// TestSettingsNeverHoldKeys: a field that is not a setting (a key someone
// wrote in by hand) is dropped when the settings are saved again.
func TestSettingsNeverHoldKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"routing":"auto","k":5,"api_key":"gsk_SECRET0123456789abcdef"}`), 0o600)
	s, err := LoadSettings(path)
	if err != nil || s.K != 5 || !s.History || s.MultiQueryVariants != 3 {
		t.Fatalf("a file from before multi_query_variants: %+v, %v", s, err)
	}
	if err := SaveSettings(path, s); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "SECRET") || strings.Contains(string(data), "key") {
		t.Errorf("settings file holds a key: %s", data)
	}
}

// withPipeline is s with the per-pipeline controls' defaults, so that a
// settings literal is refused only for what it sets.
func withPipeline(s Settings) Settings {
	d := DefaultSettings()
	s.RerankDepth, s.FigureDepth, s.ChunkSize, s.ChunkOverlap = d.RerankDepth, d.FigureDepth, d.ChunkSize, d.ChunkOverlap
	return s
}

func TestSettingsInvalid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	for _, s := range []Settings{
		{Routing: "magic", K: 8, MultiQueryVariants: 3},
		{Routing: RoutingAuto, K: 0, MultiQueryVariants: 3},
		{Routing: RoutingAuto, K: 8, Mode: "fuzzy", MultiQueryVariants: 3},
		{Routing: RoutingManual, K: 8, MultiQueryVariants: 3},
		{Routing: RoutingAuto, K: 8, Provider: "groq", MultiQueryVariants: 3},
		{Routing: RoutingAuto, K: 8, MultiQueryVariants: 0},
		{Routing: RoutingAuto, K: 8, MultiQueryVariants: 6},
	} {
		s = withPipeline(s)
		if err := SaveSettings(path, s); !errors.Is(err, corpus.ErrInvalid) {
			t.Errorf("SaveSettings(%+v) = %v", s, err)
		}
	}
	if err := SaveSettings(path, withPipeline(Settings{Routing: RoutingAuto, K: 8, MultiQueryVariants: 1})); err != nil {
		t.Errorf("one variant refused: %v", err)
	}
	os.WriteFile(path, []byte(`{"routing":`), 0o600)
	if s, err := LoadSettings(path); err == nil || s != DefaultSettings() {
		t.Errorf("damaged file: %+v, %v", s, err)
	}
	if p, err := SettingsPath(); err == nil && !strings.HasSuffix(p, filepath.Join("vika", "settings.json")) {
		t.Errorf("Path = %s", p)
	}
}

// TestAskOptionsFollowSavedSettings: the options the window asks with are
// the saved settings' (a manual model only under manual routing), from the
// moment they are saved.
func TestAskOptionsFollowSavedSettings(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "settings.json"), &heard{})
	if diff := cmp.Diff(DefaultSettings().Options(), s.AskOptions()); diff != "" {
		t.Errorf("before any save (-defaults +got):\n%s", diff)
	}
	st := DefaultSettings()
	st.Routing, st.Provider, st.Model, st.Mode, st.K, st.HyDE, st.Rerank = RoutingManual, "groq", "llama-3.1-8b-instant", "bm25", 12, true, false
	if err := s.SetSettings(t.Context(), st); err != nil {
		t.Fatal(err)
	}
	depth := st.FigureDepth
	want := rag.Options{Provider: "groq", Model: "llama-3.1-8b-instant", Mode: "bm25", K: 12, History: true, HyDE: true, MultiQueryVariants: st.MultiQueryVariants,
		RerankDepth: st.RerankDepth, FigureDepth: &depth}
	if diff := cmp.Diff(want, s.AskOptions()); diff != "" {
		t.Errorf("manual (-want +got):\n%s", diff)
	}
	st.Routing = RoutingAuto
	if err := s.SetSettings(t.Context(), st); err != nil {
		t.Fatal(err)
	}
	if o := s.AskOptions(); o.Provider != "" || o.Model != "" || o.K != 12 {
		t.Errorf("automatic routing keeps the saved model out: %+v", o)
	}
}
