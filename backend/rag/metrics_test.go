package rag

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"vika/backend/assets"
	"vika/backend/assets/assetstest"
	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/llm/llmtest"
	"vika/backend/metrics"
	"vika/backend/models"
	"vika/backend/models/modelstest"
	"vika/backend/rerank"
	"vika/backend/retrieve"
)

// rerankEngine returns a BM25 engine holding sat.pdf with the tiny
// cross-encoder (seeded weights, testdata/bert) installed, and that
// cross-encoder loaded on its own, to score passages directly.
func rerankEngine(t *testing.T) (*resultEngine, *rerank.CrossEncoder) {
	t.Helper()
	assetstest.Require(t, assets.ORT)
	root := t.TempDir()
	const fixtures = "../../testdata/bert"
	modelstest.Install(t, root, models.Rerankers()[0].Name, filepath.Join(fixtures, "cross_encoder.onnx"), filepath.Join(fixtures, "tokenizer.json"))
	eng := newEngineIn(t, root)
	ce, err := rerank.Open(root)
	if err != nil || ce == nil {
		t.Fatalf("open the installed cross-encoder: %v", err)
	}
	t.Cleanup(func() { ce.Close() })
	return &resultEngine{Engine: eng}, ce
}

// resultEngine is a real engine that remembers the searches and their
// results.
type resultEngine struct {
	*engine.Engine
	mu      sync.Mutex
	queries []retrieve.Query
	results []engine.SearchResult
}

func (r *resultEngine) Search(ctx context.Context, q retrieve.Query, o engine.SearchOptions) (engine.SearchResult, error) {
	res, err := r.Engine.Search(ctx, q, o)
	r.mu.Lock()
	r.queries = append(r.queries, q)
	r.results = append(r.results, res)
	r.mu.Unlock()
	return res, err
}

// expanding answers HyDE and multi-query requests as a model would, and
// the question with goodAnswer; hydeText is the imagined passage.
const hydeText = "Restarts following the Luby sequence escape heavy-tailed runtimes of random instances."

func expanding(t *testing.T) func(llmtest.Request) llmtest.Reply {
	return func(r llmtest.Request) llmtest.Reply {
		body := requestText(t, r.Body)
		switch {
		case strings.Contains(body, "would answer the user's question"):
			return geminiSays(hydeText)
		case strings.Contains(body, "different search queries"):
			return geminiSays("What does the VSIDS heuristic bump?\nHow are clauses learnt from conflicts?")
		}
		return geminiSays(goodAnswer)
	}
}

// TestRerankAgainstTheQuestion: with HyDE and multi-query producing the
// search texts, the cross-encoder still scores every source against the
// question as asked (scored here directly, pair by pair), never against
// the HyDE passage or a rephrasing; the record says which techniques
// applied and computes Hit@5, Recall@5 (over every rescored candidate) and
// MRR from those scores.
func TestRerankAgainstTheQuestion(t *testing.T) {
	eng, ce := rerankEngine(t)
	p := newProviders(t, expanding(t), nil, 0)
	s := New(eng, p.svc, Config{})
	o := testOptions()
	o.HyDE, o.MultiQuery, o.Rerank, o.K, o.MinBM25 = true, true, true, 2, 0.0001
	const question = "What does unit propagation do?"
	a, err := s.Ask(t.Context(), question, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(eng.queries) != 1 || eng.queries[0].HyDE != hydeText || len(eng.queries[0].Rephrasings) != 2 {
		t.Fatalf("searches %+v: want the HyDE passage and two rephrasings", eng.queries)
	}
	if len(a.Sources) != 2 {
		t.Fatalf("%d sources, want K=2", len(a.Sources))
	}
	texts := make([]string, len(a.Sources))
	for i, src := range a.Sources {
		texts[i] = src.Text
	}
	direct := func(q string) []float64 {
		scores, err := ce.Rerank(t.Context(), q, texts)
		if err != nil {
			t.Fatal(err)
		}
		return scores
	}
	want, hyde := direct(question), direct(hydeText)
	for i, src := range a.Sources {
		if src.RerankScore == nil || *src.RerankScore != want[i] {
			t.Errorf("source %d (%s): rerank score %s, want the question's %v (the HyDE passage's would be %v)", i+1, src.Label, show(src.RerankScore), want[i], hyde[i])
		}
	}
	if hyde[0] == want[0] && hyde[1] == want[1] {
		t.Fatal("the HyDE passage scores as the question does: the test cannot tell them apart")
	}

	m := a.Metrics
	if !m.HyDEApplied || !m.MultiQueryApplied || !m.RerankApplied || m.HistoryApplied {
		t.Errorf("applied: history %v, HyDE %v, multi-query %v, rerank %v; want HyDE, multi-query and rerank",
			m.HistoryApplied, m.HyDEApplied, m.MultiQueryApplied, m.RerankApplied)
	}
	all := eng.results[0].Stats.RerankScores
	if len(all) <= len(a.Sources) {
		t.Fatalf("%d candidates rescored for %d sources: Recall@5 would not look beyond the sources", len(all), len(a.Sources))
	}
	relTop, first := 0, 0
	for i, sc := range want {
		if sc >= metrics.RerankerCutoff {
			relTop++
			if first == 0 {
				first = i + 1
			}
		}
	}
	relAll := metrics.CountRelevant(all, metrics.RerankerCutoff)
	t.Logf("reranker scores: sources %v, every candidate %v", want, all)
	wantHit, wantMRR := 0.0, 0.0
	if relTop > 0 {
		wantHit, wantMRR = 1, 1/float64(first)
	}
	if m.HitAt5 == nil || *m.HitAt5 != wantHit || m.MRR == nil || *m.MRR != wantMRR {
		t.Errorf("Hit@5 %s, MRR %s; want %v, %v", show(m.HitAt5), show(m.MRR), wantHit, wantMRR)
	}
	switch {
	case relAll == 0 && m.RecallAt5 != nil:
		t.Errorf("Recall@5 %v with no relevant candidate", *m.RecallAt5)
	case relAll > 0 && (m.RecallAt5 == nil || *m.RecallAt5 != float64(relTop)/float64(relAll)):
		t.Errorf("Recall@5 %s, want %d relevant sources of %d relevant candidates", show(m.RecallAt5), relTop, relAll)
	}
	mean, lo := metrics.MeanMin(want)
	if m.RerankerScoreMean == nil || *m.RerankerScoreMean != *mean || *m.RerankerScoreMin != *lo {
		t.Errorf("reranker mean/min %s/%s, want %v/%v over the sources", show(m.RerankerScoreMean), show(m.RerankerScoreMin), *mean, *lo)
	}
	if view, _ := s.Metrics(t.Context()); view.Summary.RelevanceProxy != metrics.ProxyReranker {
		t.Errorf("proxy %q", view.Summary.RelevanceProxy)
	}
}

// TestAppliedFlags: a technique asked for but not applied is recorded as
// not applied (no model for HyDE and multi-query, no earlier turn for
// history, no cross-encoder installed); history applies from the second
// question; the number of rephrasings asked for reaches the model.
func TestAppliedFlags(t *testing.T) {
	o := testOptions()
	o.History, o.HyDE, o.MultiQuery, o.Rerank = true, true, true, true
	a, err := New(newEngine(t), nil, Config{}).Ask(t.Context(), "What does unit propagation do?", o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := a.Metrics; m.HistoryApplied || m.HyDEApplied || m.MultiQueryApplied || m.RerankApplied || m.HitAt5 != nil || m.RecallAt5 != nil || m.MRR != nil {
		t.Errorf("nothing could apply, yet the record is %+v", m)
	}

	var mu sync.Mutex
	var multi []string
	p := newProviders(t, func(r llmtest.Request) llmtest.Reply {
		body := requestText(t, r.Body)
		if strings.Contains(body, "different search quer") {
			mu.Lock()
			multi = append(multi, body)
			mu.Unlock()
			return geminiSays("How does unit propagation work?")
		}
		return expanding(t)(r)
	}, nil, 0)
	s := New(newEngine(t), p.svc, Config{})
	o = testOptions()
	o.History, o.MultiQuery, o.MultiQueryVariants = true, true, 1
	first, err := s.Ask(t.Context(), "What does unit propagation do?", o, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.Ask(t.Context(), "And what does DPLL do on a conflict?", o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if first.Metrics.HistoryApplied || !second.Metrics.HistoryApplied || !first.Metrics.MultiQueryApplied || first.Metrics.HyDEApplied {
		t.Errorf("first %+v, second %+v", first.Metrics, second.Metrics)
	}
	if len(multi) != 2 || !strings.Contains(multi[0], "as one different search query") {
		t.Errorf("multi-query requests %q: want one rephrasing asked for", multi)
	}
	o.MultiQueryVariants = 6
	if _, err := s.Ask(t.Context(), "What is VSIDS?", o, nil); err == nil || !strings.Contains(err.Error(), "multi_query_variants must be between 1 and 5") {
		t.Errorf("6 variants: %v", err)
	}
}

// TestBM25Contribution: the share of the used chunks found by BM25, in
// bm25 mode all of them.
func TestBM25Contribution(t *testing.T) {
	a, err := New(newEngine(t), nil, Config{}).Ask(t.Context(), "What does unit propagation do?", testOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Metrics.BM25ContributionPct != 100 || a.Metrics.ChunksUsed == 0 {
		t.Errorf("bm25 mode: contribution %v over %d chunks", a.Metrics.BM25ContributionPct, a.Metrics.ChunksUsed)
	}
	for _, tt := range []struct {
		found []string
		want  float64
	}{
		{nil, 0},
		{[]string{retrieve.FoundBM25, retrieve.FoundDense, retrieve.FoundBoth, retrieve.FoundDense}, 50},
		{[]string{retrieve.FoundDense}, 0},
		{[]string{retrieve.FoundBoth, retrieve.FoundBM25, retrieve.FoundBoth}, 100},
	} {
		hs := make([]corpus.Hit, len(tt.found))
		for i, f := range tt.found {
			hs[i].FoundBy = f
		}
		if got := bm25Pct(hs); got != tt.want {
			t.Errorf("bm25Pct(%v) = %v, want %v", tt.found, got, tt.want)
		}
	}
}

// show prints an optional value.
func show(v *float64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}
