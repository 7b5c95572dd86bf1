package session

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"vika/backend/chunk"
	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/rag"
	"vika/backend/retrieve"
)

func TestDescribeSettingsValidate(t *testing.T) {
	ok := DefaultSettings()
	if ok.Describe || ok.DescribeMax != DefaultDescribeMax || ok.Validate() != nil {
		t.Fatalf("defaults: %+v, %v", ok, ok.Validate())
	}
	on := ok
	on.Describe, on.DescribeModel, on.DescribeTables = true, "gemini/gemini-2.5-flash", true
	if err := on.Validate(); err != nil {
		t.Errorf("a described setup is refused: %v", err)
	}
	for name, s := range map[string]Settings{
		"on without a model":       func() Settings { s := ok; s.Describe = true; return s }(),
		"a model without provider": func() Settings { s := on; s.DescribeModel = "gemini-2.5-flash"; return s }(),
		"negative cap":             func() Settings { s := on; s.DescribeMax = -1; return s }(),
		"cap too high":             func() Settings { s := on; s.DescribeMax = MaxDescribe + 1; return s }(),
	} {
		if err := s.Validate(); !errors.Is(err, corpus.ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestPipelineSettings: the per-pipeline controls default to what search
// and chunking did before they existed, are bounded, reach the ask options
// (a figure depth of 0 turns the image list off, distinct from "default"),
// and a settings file written before them loads with the defaults.
func TestPipelineSettings(t *testing.T) {
	d := DefaultSettings()
	if d.RerankDepth != retrieve.DefaultRerankDepth || d.FigureDepth != retrieve.FigureDepth ||
		d.ChunkSize != chunk.DefaultTarget || d.ChunkOverlap != chunk.DefaultOverlap || d.K != rag.DefaultK {
		t.Fatalf("defaults %+v", d)
	}
	if got := d.Chunking(); got != (chunk.Options{Target: chunk.DefaultTarget, Overlap: chunk.DefaultOverlap}) {
		t.Errorf("default chunking %+v", got)
	}
	o := d.Options()
	if o.RerankDepth != retrieve.DefaultRerankDepth || o.FigureDepth == nil || *o.FigureDepth != retrieve.FigureDepth {
		t.Errorf("default ask options %+v", o)
	}
	off := d
	off.FigureDepth, off.ChunkOverlap = 0, 0
	if err := off.Validate(); err != nil {
		t.Fatal(err)
	}
	if o := off.Options(); o.FigureDepth == nil || *o.FigureDepth != 0 {
		t.Errorf("figure depth 0 gives %v, want 0 (off)", o.FigureDepth)
	}
	if c := off.Chunking(); c.Overlap != -1 {
		t.Errorf("overlap 0 gives chunk overlap %d, want -1 (none: chunk's 0 is its default)", c.Overlap)
	}
	for name, s := range map[string]Settings{
		"rerank depth 0":       func() Settings { s := d; s.RerankDepth = 0; return s }(),
		"rerank depth 101":     func() Settings { s := d; s.RerankDepth = retrieve.MaxRerankDepth + 1; return s }(),
		"figure depth -1":      func() Settings { s := d; s.FigureDepth = -1; return s }(),
		"figure depth 21":      func() Settings { s := d; s.FigureDepth = retrieve.MaxFigureDepth + 1; return s }(),
		"chunk size 100":       func() Settings { s := d; s.ChunkSize = MinChunkSize - 1; return s }(),
		"chunk size 5000":      func() Settings { s := d; s.ChunkSize = MaxChunkSize + 1; return s }(),
		"overlap over a third": func() Settings { s := d; s.ChunkSize, s.ChunkOverlap = 300, 101; return s }(),
		"negative overlap":     func() Settings { s := d; s.ChunkOverlap = -1; return s }(),
	} {
		if err := s.Validate(); !errors.Is(err, corpus.ErrInvalid) || message.Of(err).Code != message.Invalid {
			t.Errorf("%s: %v, want ErrInvalid with its code (a French window shows it in French)", name, err)
		}
	}
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte(`{"routing":"auto","k":8,"history":true,"rerank":true,"multi_query_variants":3,"describe_max":20}`), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSettings(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.FigureDepth != retrieve.FigureDepth || got.RerankDepth != retrieve.DefaultRerankDepth || got.ChunkSize != chunk.DefaultTarget || got.ChunkOverlap != chunk.DefaultOverlap {
		t.Errorf("an older settings file loads %+v, want the defaults of the new controls", got)
	}
}

// TestFusionSetting: the fusion defaults to "" (the embedding model's
// profile), takes convex or rrf, refuses anything else, reaches the ask
// options, and a settings file written before it loads with the default.
func TestFusionSetting(t *testing.T) {
	d := DefaultSettings()
	if d.Fusion != "" || d.Options().Fusion != "" {
		t.Fatalf("default fusion %q, ask options %q; want \"\" (the profile's)", d.Fusion, d.Options().Fusion)
	}
	for _, f := range retrieve.Fusions {
		s := d
		s.Fusion = string(f)
		if err := s.Validate(); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if o := s.Options(); o.Fusion != string(f) {
			t.Errorf("%s: ask options' fusion %q", f, o.Fusion)
		}
	}
	for _, bad := range []string{"profile", "RRF", "borda"} {
		s := d
		s.Fusion = bad
		if err := s.Validate(); !errors.Is(err, corpus.ErrInvalid) {
			t.Errorf("fusion %q: %v, want ErrInvalid", bad, err)
		}
	}
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte(`{"routing":"auto","k":8,"history":true,"rerank":true,"multi_query_variants":3,"rerank_depth":20,"chunk_size":900}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := LoadSettings(path); err != nil || got.Fusion != "" {
		t.Errorf("an older settings file: fusion %q, %v", got.Fusion, err)
	}
}
