package rag

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/assets"
	"vika/backend/assets/assetstest"
	"vika/backend/engine"
	"vika/backend/llm/llmtest"
	"vika/backend/models"
	"vika/backend/models/modelstest"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// newEmbeddingEngine returns an engine holding sat.pdf with a tiny
// sentence encoder (seeded weights, package embed's testdata) installed as
// the English model, so that dense and hybrid modes run. It skips without
// ONNX Runtime (fails without it under VIKA_REQUIRE_ASSETS=1).
func newEmbeddingEngine(t *testing.T) *engine.Engine {
	t.Helper()
	assetstest.Require(t, assets.ORT)
	const name, fixtures = "all-MiniLM-L6-v2", "../../testdata/bert"
	root := t.TempDir()
	modelstest.Install(t, root, name, filepath.Join(fixtures, "encoder.onnx"), filepath.Join(fixtures, "tokenizer.json"))
	t.Setenv(models.EnvModelEN, name)
	t.Setenv(models.EnvModelMulti, "")
	eng, err := engine.New(context.Background(), engine.Config{ModelsRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if err := eng.DenseUnavailable(); err != nil {
		t.Fatal(err)
	}
	if _, err := addPDF(t, eng, "sat.pdf", testpdf.Text(satPages...)); err != nil {
		t.Fatal(err)
	}
	return eng
}

// topBM25 is the best BM25 score of q, from a search of its own.
func topBM25(t *testing.T, eng *engine.Engine, q string) float64 {
	t.Helper()
	res, err := eng.Search(t.Context(), retrieve.Query{Question: q}, engine.SearchOptions{Mode: retrieve.ModeBM25, K: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 {
		return 0
	}
	return res.Hits[0].Score
}

// TestOneSearchPerQuestion: in bm25 and hybrid modes the question's own
// search gives the sources' scores and the best BM25 score abstaining
// needs: one engine search per question. The abstention is the same as
// with a separate BM25 search: an off-topic question abstains, and the
// threshold is compared with the question's best BM25 score.
func TestOneSearchPerQuestion(t *testing.T) {
	engines := map[retrieve.Mode]func(*testing.T) *engine.Engine{
		retrieve.ModeBM25:   newEngine,
		retrieve.ModeHybrid: newEmbeddingEngine,
	}
	const question, offTopic = "What does unit propagation do?", "Which river flows through Vienna?"
	for mode, newEng := range engines {
		t.Run(string(mode), func(t *testing.T) {
			base := newEng(t)
			top := topBM25(t, base, question)
			if top <= 0 {
				t.Fatalf("no BM25 hit for %q", question)
			}
			ask := func(q string, minBM25 float64) Answer {
				t.Helper()
				eng := &recordingEngine{Engine: base}
				o := testOptions()
				o.Mode, o.MinBM25 = string(mode), minBM25
				a, err := New(eng, noProviders(t), Config{}).Ask(t.Context(), q, o, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(eng.opts) != 1 || eng.queries[0].Question != q || eng.queries[0].Expanded() {
					t.Errorf("%q: searches %q %+v; want the question's only", q, eng.queries, eng.opts)
				}
				if a.Metrics.RetrievalMode != string(mode) {
					t.Errorf("%q: retrieval mode %q, want %q", q, a.Metrics.RetrievalMode, mode)
				}
				return a
			}

			a := ask(question, 0)
			if a.Kind == KindAbstained || len(a.Sources) == 0 {
				t.Fatalf("answerable question: kind %s, %d sources", a.Kind, len(a.Sources))
			}
			for _, s := range a.Sources {
				if (s.LexicalScore != nil) != (s.FoundBy != retrieve.FoundDense) {
					t.Errorf("source %s found by %s: lexical score %v", s.Label, s.FoundBy, s.LexicalScore)
				}
				if (s.DenseScore != nil) != (mode == retrieve.ModeHybrid) {
					t.Errorf("source %s in %s mode: dense score %v", s.Label, mode, s.DenseScore)
				}
			}
			if s := a.Sources[0]; mode == retrieve.ModeBM25 && (s.LexicalScore == nil || *s.LexicalScore != top) {
				t.Errorf("best source %s: lexical score %v, want %g", s.Label, s.LexicalScore, top)
			}
			// The threshold is compared with the question's best BM25 score.
			if a := ask(question, top*1.001); a.Kind != KindAbstained {
				t.Errorf("threshold just above the best BM25 score %g: kind %s", top, a.Kind)
			}
			if a := ask(question, top*0.999); a.Kind == KindAbstained {
				t.Errorf("threshold just below the best BM25 score %g: abstained", top)
			}
			if a := ask(offTopic, 0); a.Kind != KindAbstained {
				t.Errorf("off-topic question: kind %s, sources %+v", a.Kind, a.Sources)
			}
		})
	}
}

// TestQuestionScoresProbe: where the question's search does not measure
// its BM25 scores, one BM25 search for the question does, inside the
// engine's one search (retrieve.Retriever.SearchQuery). After HyDE the
// passage that was searched matches well, but abstaining judges the
// question, and the sources carry the question's BM25 scores, not the
// passage's, and no cosine (the passage's). In dense mode BM25 does not
// decide abstaining, but the sources still get the question's BM25
// scores (the relevance proxy of the metrics).
func TestQuestionScoresProbe(t *testing.T) {
	t.Run("hyde", func(t *testing.T) {
		base := newEngine(t)
		eng := &recordingEngine{Engine: base}
		const passage = "Unit propagation assigns the only remaining literal of a unit clause."
		p := newProviders(t, func(r llmtest.Request) llmtest.Reply {
			if strings.Contains(requestText(t, r.Body), "would answer the user's question") {
				return geminiSays(passage)
			}
			return geminiSays(goodAnswer)
		}, nil, 0)
		o := testOptions()
		o.HyDE = true
		const offTopic = "Which river flows through Vienna?"
		a, err := New(eng, p.svc, Config{}).Ask(t.Context(), offTopic, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(eng.queries) != 1 || eng.queries[0].HyDE != passage || eng.queries[0].Question != offTopic {
			t.Errorf("searches %q %+v; want one: the question with its passage", eng.queries, eng.opts)
		}
		if a.Kind != KindAbstained {
			t.Errorf("off-topic question found by its HyDE passage: kind %s", a.Kind)
		}

		eng = &recordingEngine{Engine: base}
		const question = "What does unit propagation do?"
		a, err = New(eng, p.svc, Config{}).Ask(t.Context(), question, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.Kind == KindAbstained || len(eng.queries) != 1 || eng.queries[0].Question != question {
			t.Fatalf("kind %s, searches %q", a.Kind, eng.queries)
		}
		probe, err := base.Search(t.Context(), retrieve.Query{Question: question}, engine.SearchOptions{Mode: retrieve.ModeBM25, K: retrieve.DefaultDepth})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]float64{}
		for _, h := range probe.Hits {
			want[h.ChunkID] = h.Score
		}
		for _, s := range a.Sources {
			w, ok := want[s.ChunkID]
			if s.DenseScore != nil || ok != (s.LexicalScore != nil) || ok && *s.LexicalScore != w {
				t.Errorf("source %s: dense %v, lexical %v; want the question's BM25 score (%g, %v)", s.Label, s.DenseScore, s.LexicalScore, w, ok)
			}
		}
	})
	t.Run("dense", func(t *testing.T) {
		eng := &recordingEngine{Engine: newEmbeddingEngine(t)}
		o := testOptions()
		o.Mode, o.MinBM25 = string(retrieve.ModeDense), 1000
		const question = "What does unit propagation do?"
		a, err := New(eng, noProviders(t), Config{}).Ask(t.Context(), question, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.Kind == KindAbstained || len(a.Sources) == 0 {
			t.Fatalf("dense mode abstained on BM25: kind %s", a.Kind)
		}
		if len(eng.opts) != 1 || eng.queries[0].Question != question {
			t.Errorf("searches %q %+v; want the question's only", eng.queries, eng.opts)
		}
		lexical := 0
		for _, s := range a.Sources {
			if s.DenseScore == nil {
				t.Errorf("source %s: no dense score", s.Label)
			}
			if s.LexicalScore != nil {
				lexical++
			}
		}
		if lexical == 0 {
			t.Errorf("no source has the question's BM25 score: %+v", a.Sources)
		}
	})
}
