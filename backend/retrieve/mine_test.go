package retrieve

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/index"
)

// TestMineSearch: a question over everything keeps at most half of its
// passages from the student's own notes (they quote their page and would
// fill the sources); "my notes" keeps only them; a deleted note is gone.
func TestMineSearch(t *testing.T) {
	ctx := context.Background()
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer lex.Close()
	var chunks []corpus.Chunk
	for i := range 6 {
		chunks = append(chunks, corpus.Chunk{ID: fmt.Sprintf("d-p%d", i+1), DocID: "d", Page: i + 1, Lang: "en",
			Text: fmt.Sprintf("entropy of a discrete source, part %d", i)})
		chunks = append(chunks, corpus.Chunk{ID: fmt.Sprintf("mine-%d", i), DocID: "d", Page: i + 1, Lang: "en", Kind: corpus.ChunkMine,
			Text: "entropy entropy entropy: my note on entropy"})
	}
	r, err := New(lex, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.AddEmbedded(ctx, chunks, nil); err != nil {
		t.Fatal(err)
	}
	count := func(sc corpus.Scope) (mine, other int) {
		res, err := r.Search(ctx, "entropy", SearchOptions{Mode: ModeBM25, K: 6, Scope: sc})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if strings.HasPrefix(h.ChunkID, "mine-") { // retrieve's hits carry ids; the engine labels their kinds
				mine++
			} else {
				other++
			}
		}
		return mine, other
	}
	if mine, other := count(corpus.Scope{}); mine != 3 || other != 3 {
		t.Errorf("everything: %d notes and %d passages of the document, want 3 and 3", mine, other)
	}
	if mine, other := count(corpus.Scope{Mine: true}); mine != 6 || other != 0 {
		t.Errorf("my notes: %d notes and %d passages of the document, want 6 and 0", mine, other)
	}
	if err := r.DeleteChunks(ctx, []string{"mine-0", "mine-1", "mine-2", "mine-3", "mine-4"}); err != nil {
		t.Fatal(err)
	}
	if mine, _ := count(corpus.Scope{Mine: true}); mine != 1 {
		t.Errorf("after deleting five notes my notes finds %d", mine)
	}
}
