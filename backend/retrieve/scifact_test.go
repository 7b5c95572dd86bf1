package retrieve

import (
	"context"
	"sync"
	"testing"
	"time"

	"vika/backend/assets/assetstest"
	"vika/backend/embed"
	"vika/backend/eval"
	"vika/backend/eval/evaltest"
	"vika/backend/index"
)

var sharedUSE struct {
	once sync.Once
	e    *embed.USELite
	err  error
}

// loadUSELite returns one USE-lite embedder per test binary, or skips.
func loadUSELite(tb testing.TB) *embed.USELite {
	tb.Helper()
	assetstest.RequireAll(tb)
	o, err := embed.DefaultUSELiteOptions()
	if err != nil {
		tb.Fatal(err)
	}
	sharedUSE.once.Do(func() { sharedUSE.e, sharedUSE.err = embed.LoadUSELite(o) })
	if sharedUSE.err != nil {
		tb.Fatal(sharedUSE.err)
	}
	return sharedUSE.e
}

// TestSciFactRegression indexes BEIR SciFact (title and text) with the
// offline default set-up (bleve BM25 and USE-lite with its measured
// profile) and checks the bars on the test split: BM25 nDCG@10 at
// least 0.68 and hybrid at least BM25. It needs ../shared/data and the
// installed assets and takes about three minutes on two idle cores
// (embedding 5,183 abstracts in 128-token windows: about 300 CPU-seconds),
// so it does not run with -short.
func TestSciFactRegression(t *testing.T) {
	if testing.Short() {
		t.Skip("SciFact regression: minutes of embedding; not with -short")
	}
	ds := evaltest.SciFact(t, "test")
	ctx := context.Background()
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer lex.Close()

	run := func(r *Retriever, mode Mode) eval.Metrics {
		t.Helper()
		rn := eval.Run{}
		for _, q := range ds.Queries {
			res, err := r.Search(ctx, q.Text, SearchOptions{Mode: mode, K: eval.RecallCutoff})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range res.Hits {
				rn[q.ID] = append(rn[q.ID], h.ChunkID)
			}
		}
		m := eval.Evaluate(rn, ds.Qrels)
		t.Logf("%-6s nDCG@10 %.4f  Recall@100 %.4f  MRR@10 %.4f", mode, m.NDCG10, m.Recall100, m.MRR10)
		return m
	}

	chunks := eval.Chunks(ds.Corpus)
	emb := loadUSELite(t) // skips without assets; BM25 alone is checked by index tests
	dense := index.NewDense(emb.Dim())
	r, err := New(lex, dense, emb, Options{EmbedWorkers: 2})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := r.Add(ctx, chunks, nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("indexed %d documents in %v", len(chunks), time.Since(start).Round(time.Second))

	bm25 := run(r, ModeBM25)
	if bm25.NDCG10 < 0.68 {
		t.Errorf("BM25 nDCG@10 = %.4f, want >= 0.68", bm25.NDCG10)
	}
	dense1 := run(r, ModeDense)
	hybrid := run(r, ModeHybrid)
	if best := max(bm25.NDCG10, dense1.NDCG10); hybrid.NDCG10 < best {
		t.Errorf("hybrid nDCG@10 = %.4f, below the better of BM25 and dense (%.4f)", hybrid.NDCG10, best)
	}
}
