package index

import (
	"context"
	"os"
	"testing"

	"vika/backend/corpus"
	"vika/backend/eval"
)

// sciFactDir is where the shared evaluation data lives (data/README.md).
const sciFactDir = "../../../shared/data/scifact"

func loadSciFact(t testing.TB, split string) *eval.Dataset {
	t.Helper()
	if _, err := os.Stat(sciFactDir); err != nil {
		t.Skipf("SciFact not found at %s (../shared/data is not part of the repository): %v", sciFactDir, err)
	}
	ds, err := eval.LoadBEIR(sciFactDir, split)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// DocChunks turns BEIR documents into one chunk each: title, blank line, text.
func docChunks(docs []eval.Doc) []corpus.Chunk {
	out := make([]corpus.Chunk, len(docs))
	for i, d := range docs {
		out[i] = corpus.Chunk{ID: d.ID, DocID: d.ID, Lang: "en", Text: d.Title + "\n\n" + d.Text}
	}
	return out
}

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
	ds := loadSciFact(t, "test")
	l, err := NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Add(context.Background(), docChunks(ds.Corpus)); err != nil {
		t.Fatal(err)
	}
	m := eval.Evaluate(bm25Run(t, l, ds.Queries), ds.Qrels)
	t.Logf("BM25 SciFact test: nDCG@10 %.4f, Recall@100 %.4f, MRR@10 %.4f", m.NDCG10, m.Recall100, m.MRR10)
	if m.NDCG10 < 0.68 {
		t.Errorf("nDCG@10 = %.4f, want >= 0.68", m.NDCG10)
	}
}
