package store

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/metrics"
)

func TestMetricsRoundTrip(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	if got, err := s.Metrics(ctx); err != nil || len(got) != 0 {
		t.Fatalf("empty session: %v, %v", got, err)
	}
	first := metrics.Record{Query: "How does unit propagation work?", LLMModel: "gemini/gemini-2.5-flash", LLMRoutingMode: metrics.RoutingAuto,
		RetrievalMode: "hybrid", RetrievalLatencyMs: 12.5, GenerationLatencyMs: 840, TimeToFirstTokenMs: metrics.Float(310.25),
		TotalLatencyMs: 853.75, ChunksRetrieved: 40, ChunksUsed: 8, CosineSimMean: metrics.Float(0.41), BM25ContributionPct: 62.5,
		HitAt5: metrics.Float(1), RecallAt5: metrics.Float(0.5), MRR: metrics.Float(0.5), PageTypesUsed: map[string]int{"text": 6, "mixed": 2},
		FallbackChain: []string{"groq/llama-3.1-8b-instant (rate_limited)", "gemini/gemini-2.5-flash"}, TokensIn: 2400, TokensOut: 180,
		CitationValidPct: metrics.Float(87.5)}
	second := metrics.Record{Query: "and with key sk-proj-0123456789abcdefghij?", LLMRoutingMode: metrics.RoutingAbstained, RetrievalMode: "bm25", TotalLatencyMs: 3}

	stored1, err := s.AddMetric(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	stored2, err := s.AddMetric(ctx, second)
	if err != nil {
		t.Fatal(err)
	}
	if stored1.QueryIndex != 1 || stored2.QueryIndex != 2 {
		t.Errorf("query indexes %d, %d; want 1, 2", stored1.QueryIndex, stored2.QueryIndex)
	}
	if strings.Contains(stored2.Query, "sk-proj") {
		t.Errorf("a key was stored: %q", stored2.Query)
	}
	got, err := s.Metrics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first.QueryIndex = 1
	second.QueryIndex, second.Query = 2, "and with key [redacted]?"
	if diff := cmp.Diff([]metrics.Record{first, second}, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if _, err := s.AddMetric(ctx, metrics.Record{QueryIndex: 2}); !errors.Is(err, ErrMetricExists) {
		t.Errorf("duplicate index: err = %v, want ErrMetricExists", err)
	}
	if r, err := s.AddMetric(ctx, metrics.Record{QueryIndex: 10}); err != nil || r.QueryIndex != 10 {
		t.Errorf("explicit index: %v, %v", r.QueryIndex, err)
	}
	if r, err := s.AddMetric(ctx, metrics.Record{}); err != nil || r.QueryIndex != 11 {
		t.Errorf("next index after 10: %v, %v", r.QueryIndex, err)
	}
}

func TestMetricsConcurrent(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.AddMetric(ctx, metrics.Record{Query: "q", TotalLatencyMs: 1}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := s.Metrics(ctx)
	if err != nil || len(got) != 20 {
		t.Fatalf("%d records, %v", len(got), err)
	}
	for i, r := range got {
		if r.QueryIndex != i+1 {
			t.Errorf("record %d has index %d", i, r.QueryIndex)
		}
	}
}
