package rag

import (
	"context"
	"errors"
	"sync"
	"testing"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/retrieve"
)

// recordingEngine is a real engine that remembers the searches it was
// asked for: their query and options.
type recordingEngine struct {
	*engine.Engine
	mu      sync.Mutex
	queries []retrieve.Query
	opts    []engine.SearchOptions
}

func (r *recordingEngine) Search(ctx context.Context, q retrieve.Query, o engine.SearchOptions) (engine.SearchResult, error) {
	r.mu.Lock()
	r.queries = append(r.queries, q)
	r.opts = append(r.opts, o)
	r.mu.Unlock()
	return r.Engine.Search(ctx, q, o)
}

// TestRerankOption: the question's one search asks for the cross-encoder
// when the options do and not otherwise. Without a cross-encoder installed the record says so: no reranker
// score is invented.
func TestRerankOption(t *testing.T) {
	for _, rerank := range []bool{true, false} {
		eng := &recordingEngine{Engine: newEngine(t)}
		s := New(eng, noProviders(t), Config{})
		o := testOptions()
		o.Mode, o.Rerank = string(retrieve.ModeHybrid), rerank
		a, err := s.Ask(context.Background(), "What does unit propagation do?", o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(eng.opts) != 1 || eng.opts[0].Rerank != rerank {
			t.Fatalf("rerank %v: searches %+v", rerank, eng.opts)
		}
		if a.Metrics.RerankerScoreMean != nil || a.Metrics.RerankerScoreMin != nil {
			t.Errorf("reranker scores without a reranker: %+v", a.Metrics)
		}
	}
}

// TestFusionOption: the question's search carries the options' fusion
// ("" leaves each embedding model's profile), and a fusion retrieval does
// not know is refused before anything runs.
func TestFusionOption(t *testing.T) {
	for _, f := range []string{"", "convex", "rrf"} {
		eng := &recordingEngine{Engine: newEngine(t)}
		s := New(eng, noProviders(t), Config{})
		o := testOptions()
		o.Fusion = f
		if _, err := s.Ask(context.Background(), "What does unit propagation do?", o, nil); err != nil {
			t.Fatal(err)
		}
		if len(eng.opts) != 1 || eng.opts[0].Fusion != retrieve.Fusion(f) {
			t.Errorf("fusion %q: searches %+v", f, eng.opts)
		}
	}
	eng := &recordingEngine{Engine: newEngine(t)}
	s := New(eng, noProviders(t), Config{})
	o := testOptions()
	o.Fusion = "borda"
	if _, err := s.Ask(context.Background(), "What does unit propagation do?", o, nil); !errors.Is(err, corpus.ErrInvalid) {
		t.Errorf("fusion borda: %v, want corpus.ErrInvalid", err)
	}
	if len(eng.opts) != 0 {
		t.Errorf("fusion borda searched: %+v", eng.opts)
	}
}
