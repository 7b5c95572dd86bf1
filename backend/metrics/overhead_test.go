package metrics_test

// The answer path's own overhead, outside retrieval and the provider:
// build a 10-source prompt, check the citations of a 200-word answer, and
// build and store the metrics record. The issue asks for under 5 ms p50.

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"vika/backend/cite"
	"vika/backend/corpus"
	"vika/backend/llm"
	"vika/backend/metrics"
	"vika/backend/prompt"
	"vika/backend/store"
)

// sentences are written for this benchmark; passages are made of them.
var sentences = []string{
	"Unit propagation assigns the only remaining literal of a unit clause and repeats until no unit clause is left.",
	"The DPLL algorithm chooses a branching variable, assigns it and backtracks chronologically on a conflict.",
	"Conflict-driven clause learning analyses the implication graph and adds a learnt clause that blocks the conflict.",
	"Non-chronological backjumping returns to the second-highest decision level of the learnt clause.",
	"The VSIDS heuristic bumps the activity of variables in learnt clauses and decays all activities periodically.",
	"Restarts following the Luby sequence keep learnt clauses while escaping heavy-tailed runtimes.",
	"Two watched literals per clause make propagation cheap because a clause is visited only when a watch becomes false.",
	"Random 3-SAT instances are hardest near a clause-to-variable ratio of about 4.26.",
	"Preprocessing by bounded variable elimination removes variables whose resolvents do not grow the formula.",
	"Phase saving reuses the last polarity assigned to a variable when it is chosen again for branching.",
	"Clause deletion keeps the learnt database small by removing clauses with a high literal block distance.",
	"Incremental solving under assumptions lets a solver answer a sequence of related queries without restarting.",
}

func passage(i int) string {
	var parts []string
	for j := 0; j < 8; j++ {
		parts = append(parts, sentences[(i+j)%len(sentences)])
	}
	return strings.Join(parts, " ")
}

func sources() []corpus.Hit {
	hits := make([]corpus.Hit, 10)
	for i := range hits {
		file := "lecture_sat.pdf"
		if i%3 == 2 {
			file = "this_is_a_very_long_scientific_document_name_indeed.pdf"
		}
		hits[i] = corpus.Hit{File: file, Page: 10 + i, ChunkID: fmt.Sprintf("c%d", i), Score: 10 - float64(i)/2, Text: passage(i)}
		hits[i].Label = corpus.CitationLabel(file, "", hits[i].Page)
	}
	return hits
}

// answer is a 200-word answer citing the sources as models do, with one
// citation to a page that is not among them.
const answer = `Modern SAT solvers build on the DPLL algorithm, which chooses a branching variable, assigns it and backtracks on a conflict [lecture_sat.pdf p.10].

**Propagation.** Unit propagation assigns the only remaining literal of each unit clause until none is left [lecture_sat.pdf p.10]. Two watched literals per clause keep this cheap, since a clause is visited only when a watch becomes false [lecture_sat.pdf p.13].

**Learning.** When a conflict occurs, conflict-driven clause learning analyses the implication graph and adds a learnt clause that blocks it [lecture_sat.pdf p.11]. The solver then backjumps non-chronologically to the second-highest decision level of that clause [this_is_a_very_long_scientific_docum....pdf p.12].

**Heuristics.** VSIDS bumps the activity of the variables in learnt clauses and decays all activities periodically [lecture_sat.pdf p.13], while phase saving reuses the last polarity of a variable [lecture_sat.pdf p.16]. Restarts follow the Luby sequence and keep the learnt clauses [lecture_sat.pdf p.14; this_is_a_very_long_scientific_docum....pdf p.15].

**Housekeeping.** Clause deletion removes learnt clauses with a high literal block distance, which keeps the learnt database small [lecture_sat.pdf p.17], and bounded variable elimination removes variables whose resolvents do not grow the formula, before the search starts [this_is_a_very_long_scientific_docum....pdf p.18]. Random 3-SAT is hardest near a ratio of 4.26 clauses per variable [lecture_sat.pdf p.99].`

var history = []prompt.Turn{
	{Question: "What is SAT?", Answer: "SAT asks whether a propositional formula can be made true [lecture_sat.pdf p.2]."},
	{Question: "Is it hard?", Answer: "Yes: it is NP-complete [lecture_sat.pdf p.3]."},
	{Question: "What does DPLL do?", Answer: "It assigns variables and backtracks on conflicts [lecture_sat.pdf p.10]."},
}

var result = llm.Result{Answer: answer, ModelUsed: "gemini/gemini-2.5-flash", Plan: llm.Plan{Mode: "auto"},
	TTFT: 400 * time.Millisecond, Duration: 2 * time.Second, Usage: llm.Usage{InputTokens: 3100, OutputTokens: 290},
	Chain: []llm.Attempt{{Model: "groq/llama-3.1-8b-instant", ErrorKind: "rate_limited"}, {Model: "gemini/gemini-2.5-flash"}}}

// overhead runs the answer path once, as the orchestrator will.
func overhead(ctx context.Context, store *store.Store, hits []corpus.Hit) (int, error) {
	sw := metrics.Start(nil)
	req := prompt.Build(prompt.Input{Question: "How do modern SAT solvers work?", Sources: hits, History: history, Style: prompt.StyleBalanced})
	cits := cite.Check(answer, hits)
	rec := metrics.Record{Query: "How do modern SAT solvers work?", RetrievalMode: "hybrid", RetrievalLatencyMs: 14,
		ChunksRetrieved: 40, ChunksUsed: len(hits), BM25ContributionPct: 60, CosineSimMean: metrics.Float(0.4)}
	rec.SetAnswer(result)
	scores := make([]float64, len(hits))
	types := make([]corpus.PageType, len(hits))
	for i, h := range hits {
		scores[i], types[i] = h.Score, corpus.PageText
	}
	rec.HitAt5, rec.RecallAt5, rec.MRR = metrics.Ranking(metrics.Relevant(scores, prompt.DefaultMinBM25), metrics.CountRelevant(scores, prompt.DefaultMinBM25), 5)
	rec.PageTypesUsed = metrics.CountPageTypes(types)
	if pct, ok := cite.ValidPct(cits); ok {
		rec.CitationValidPct = metrics.Float(pct)
	}
	rec.TotalLatencyMs = metrics.Ms(sw.Total())
	if _, err := store.AddMetric(ctx, rec); err != nil {
		return 0, err
	}
	return len(req.Messages) + len(cits), nil
}

func BenchmarkAnswerOverhead(b *testing.B) {
	ctx := context.Background()
	store, err := store.Open(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	hits := sources()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := overhead(ctx, store, hits); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnswerOverheadParts times each part alone.
func BenchmarkAnswerOverheadParts(b *testing.B) {
	ctx := context.Background()
	hits := sources()
	b.Run("prompt", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			prompt.Build(prompt.Input{Question: "How do modern SAT solvers work?", Sources: hits, History: history})
		}
	})
	b.Run("cite", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cite.Check(answer, hits)
		}
	})
	b.Run("store", func(b *testing.B) {
		store, err := store.Open(ctx)
		if err != nil {
			b.Fatal(err)
		}
		defer store.Close()
		rec := metrics.Record{Query: "How do modern SAT solvers work?"}
		rec.SetAnswer(result)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := store.AddMetric(ctx, rec); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestAnswerOverhead checks the bound, p50 under 5 ms, with a
// wide margin expected (the benchmark measures well under 1 ms), and that
// the benchmark's answer is checked as intended. Under -race only the
// answer is checked; make test-overhead runs it without -race for the bound.
func TestAnswerOverhead(t *testing.T) {
	ctx := context.Background()
	store, err := store.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	hits := sources()
	cits := cite.Check(answer, hits)
	if len(cits) != 12 {
		t.Fatalf("%d citations, want 12: %+v", len(cits), cits)
	}
	for _, c := range cits {
		if want := c.Page != 99; c.Verified != want {
			t.Errorf("citation %s verified=%v (%s, overlap %.2f, claim %q)", c.Raw, c.Verified, c.Reason, c.Overlap, c.Claim)
		}
	}
	if len(strings.Fields(answer)) < 190 {
		t.Errorf("the answer has %d words, want about 200", len(strings.Fields(answer)))
	}
	var times []float64
	for range 200 {
		start := time.Now()
		if _, err := overhead(ctx, store, hits); err != nil {
			t.Fatal(err)
		}
		times = append(times, metrics.Ms(time.Since(start)))
	}
	p50, p95 := metrics.Percentile(times, 50), metrics.Percentile(times, 95)
	t.Logf("answer overhead: p50 %.3f ms, p95 %.3f ms over %d runs", p50, p95, len(times))
	if raceEnabled {
		// make test-overhead runs this test again without -race and sets
		// VIKA_REQUIRE_OVERHEAD_BOUND=1, so that the bound is checked.
		if os.Getenv("VIKA_REQUIRE_OVERHEAD_BOUND") == "1" {
			t.Fatal("VIKA_REQUIRE_OVERHEAD_BOUND=1 under the race detector: the 5 ms bound can only be checked without -race")
		}
		t.Log("race detector on: the 5 ms bound is not checked here (make test-overhead checks it without -race)")
		return
	}
	if p50 >= 5 {
		t.Errorf("answer overhead p50 %.3f ms, want under 5 ms", p50)
	}
}
