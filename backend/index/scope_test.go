package index

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
)

// scopeChunks are three documents of ten pages, every page on "entropy",
// document "c" in French.
func scopeChunks() []corpus.Chunk {
	var out []corpus.Chunk
	for _, doc := range []string{"a", "b", "c"} {
		for p := 1; p <= 10; p++ {
			text := fmt.Sprintf("entropy of the source, page %d %s", p, doc)
			lang := "en"
			if doc == "c" {
				text, lang = fmt.Sprintf("entropy de la source, page %d", p), "fr"
			}
			for i := 0; i < p%3+1; i++ { // pages differ in how often they say it
				text += " entropy"
			}
			out = append(out, corpus.Chunk{ID: fmt.Sprintf("%s-%02d", doc, p), DocID: doc, Page: p, Lang: lang, Text: text})
		}
	}
	return out
}

func TestLexicalSearchScoped(t *testing.T) {
	ctx := context.Background()
	l, err := NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Add(ctx, scopeChunks()); err != nil {
		t.Fatal(err)
	}
	all, err := l.Search(ctx, "entropy", 100)
	if err != nil {
		t.Fatal(err)
	}
	score := map[string]float64{}
	for _, h := range all {
		score[h.ChunkID] = h.Score
	}
	for _, sc := range []corpus.Scope{
		{Docs: []string{"b"}},
		{Docs: []string{"a", "c"}, From: 3, To: 4},
		{From: 9},
		{Docs: []string{"c"}, To: 2},
	} {
		got, err := l.SearchScoped(ctx, "entropy", 100, sc)
		if err != nil {
			t.Fatal(err)
		}
		var want []Scored
		for _, h := range all { // the unscoped ranking, kept chunks only
			var doc string
			var page int
			fmt.Sscanf(h.ChunkID, "%1s-%d", &doc, &page)
			if sc.Keeps(doc, page) {
				want = append(want, h)
			}
		}
		if len(want) == 0 {
			t.Fatalf("%+v keeps nothing", sc)
		}
		// Same chunks, same scores, same order: the filter scores nothing.
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("SearchScoped(%+v) (-unscoped, kept +scoped):\n%s", sc, diff)
		}
		// And the top k is the scope's top k, not a cut of the global one.
		top, err := l.SearchScoped(ctx, "entropy", 2, sc)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want[:min(2, len(want))], top); diff != "" {
			t.Errorf("top 2 of %+v (-want +got):\n%s", sc, diff)
		}
	}
}

func TestDenseSearchScoped(t *testing.T) {
	ctx := context.Background()
	chunks := scopeChunks()
	d := NewDense(3)
	vecs := make([][]float32, len(chunks))
	for i := range chunks {
		vecs[i] = []float32{1, float32(i) / 30, 0.5}
	}
	if err := d.Add(chunks, vecs); err != nil {
		t.Fatal(err)
	}
	q := []float32{1, 0, 0.5}
	sc := corpus.Scope{Docs: []string{"c"}, From: 5, To: 7}
	got, err := d.SearchScoped(ctx, q, 2, sc)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{got[0].ChunkID, got[1].ChunkID}
	if diff := cmp.Diff([]string{"c-05", "c-06"}, ids); diff != "" {
		t.Errorf("scoped dense (-want +got):\n%s", diff)
	}
	// After a document is deleted, rows move: the scope follows them.
	d.DeleteDoc("a")
	got, _ = d.SearchScoped(ctx, q, 30, corpus.Scope{Docs: []string{"b"}, To: 1})
	if len(got) != 1 || got[0].ChunkID != "b-01" {
		t.Errorf("after a delete, scoped dense = %v, want b-01", got)
	}
}
