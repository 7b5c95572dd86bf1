package index

import (
	"context"
	"slices"
	"testing"

	"vika/backend/corpus"
)

// mineChunks are the document's passages and two of the student's own
// notes on pages 2 and 7, all about entropy.
func mineChunks() []corpus.Chunk {
	out := scopeChunks()
	out = append(out,
		corpus.Chunk{ID: "mine-1", DocID: "a", Page: 2, Lang: "en", Kind: corpus.ChunkMine, Text: "my note: entropy is the average surprise"},
		corpus.Chunk{ID: "mine-2", DocID: "b", Page: 7, Lang: "en", Kind: corpus.ChunkMine, Text: "entropy again, exam question"})
	return out
}

func sortedIDs(hits []Scored) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ChunkID
	}
	slices.Sort(out)
	return out
}

func TestMineScopeKeepsOnlyTheStudentsOwn(t *testing.T) {
	ctx := context.Background()
	l, err := NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Add(ctx, mineChunks()); err != nil {
		t.Fatal(err)
	}
	d := NewDense(2)
	vecs := make([][]float32, len(mineChunks()))
	for i := range vecs {
		vecs[i] = []float32{1, float32(i) / 100}
	}
	if err := d.Add(mineChunks(), vecs); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		scope corpus.Scope
		want  []string
	}{
		{corpus.Scope{Mine: true}, []string{"mine-1", "mine-2"}},
		{corpus.Scope{Mine: true, Docs: []string{"b"}}, []string{"mine-2"}},
		{corpus.Scope{Mine: true, From: 3}, []string{"mine-2"}},
		{corpus.Scope{Mine: true, Docs: []string{"c"}}, []string{}},
	} {
		lex, err := l.SearchScoped(ctx, "entropy", 100, tc.scope)
		if err != nil {
			t.Fatal(err)
		}
		if got := sortedIDs(lex); !slices.Equal(got, tc.want) {
			t.Errorf("BM25 %+v: %v, want %v", tc.scope, got, tc.want)
		}
		dense, err := d.SearchScoped(ctx, []float32{1, 0}, 100, tc.scope)
		if err != nil {
			t.Fatal(err)
		}
		if got := sortedIDs(dense); !slices.Equal(got, tc.want) {
			t.Errorf("dense %+v: %v, want %v", tc.scope, got, tc.want)
		}
	}
	// Deleting a note takes it out; the document's passages stay.
	if err := l.Delete(ctx, []string{"mine-1", "unknown"}); err != nil {
		t.Fatal(err)
	}
	d.Delete([]string{"mine-1"})
	lex, _ := l.SearchScoped(ctx, "entropy", 100, corpus.Scope{Mine: true})
	dense, _ := d.SearchScoped(ctx, []float32{1, 0}, 100, corpus.Scope{Mine: true})
	if !slices.Equal(sortedIDs(lex), []string{"mine-2"}) || !slices.Equal(sortedIDs(dense), []string{"mine-2"}) {
		t.Errorf("after deleting mine-1: BM25 %v, dense %v", sortedIDs(lex), sortedIDs(dense))
	}
	all, _ := l.Search(ctx, "entropy", 100)
	if len(all) != len(scopeChunks())+1 {
		t.Errorf("BM25 holds %d chunks after the delete, want %d", len(all), len(scopeChunks())+1)
	}
}
