package index

import (
	"context"
	"testing"

	"vika/backend/eval"
	"vika/backend/eval/evaltest"
)

func bm25Run(t testing.TB, l *Lexical, qs []eval.Query) eval.Run {
	run := eval.Run{}
	for _, q := range qs {
		hits, err := l.Search(context.Background(), q.Text, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			run[q.ID] = append(run[q.ID], h.ChunkID)
		}
	}
	return run
}

// TestSciFactBM25 checks BM25 on BEIR SciFact test against the bar
// (nDCG@10 >= 0.68; measured 0.6856). It needs ../shared/data and takes a
// few seconds.
func TestSciFactBM25(t *testing.T) {
	if testing.Short() {
		t.Skip("SciFact: not with -short")
	}
	ds := evaltest.SciFact(t, "test")
	l, err := NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Add(context.Background(), eval.Chunks(ds.Corpus)); err != nil {
		t.Fatal(err)
	}
	m := eval.Evaluate(bm25Run(t, l, ds.Queries), ds.Qrels)
	t.Logf("BM25 SciFact test: nDCG@10 %.4f, Recall@100 %.4f, MRR@10 %.4f", m.NDCG10, m.Recall100, m.MRR10)
	if m.NDCG10 < 0.68 {
		t.Errorf("nDCG@10 = %.4f, want >= 0.68", m.NDCG10)
	}
}
