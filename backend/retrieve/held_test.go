package retrieve

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
)

// TestDocVectors counts each document's vectors by the model that made
// them; a passage without text has none, and a deleted document none.
func TestDocVectors(t *testing.T) {
	r, emb := emptyRetriever(t, Options{})
	chunks := []corpus.Chunk{
		{ID: "a1", DocID: "a", Page: 1, Text: "residual learning"},
		{ID: "a2", DocID: "a", Page: 2, Text: "plain networks"},
		{ID: "a3", DocID: "a", Page: 2, Kind: corpus.ChunkFigure, Text: " "}, // nothing to embed
		{ID: "b1", DocID: "b", Page: 1, Text: "attention"},
	}
	if err := r.Add(t.Context(), chunks, nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{emb.Name(): 2}, r.DocVectors("a")); diff != "" {
		t.Errorf("document a (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{emb.Name(): 1}, r.DocVectors("b")); diff != "" {
		t.Errorf("document b (-want +got):\n%s", diff)
	}
	if got := r.DocVectors("missing"); got != nil {
		t.Errorf("unknown document: %v, want nil", got)
	}
	if err := r.DeleteDoc(t.Context(), "a"); err != nil {
		t.Fatal(err)
	}
	if got := r.DocVectors("a"); got != nil {
		t.Errorf("deleted document: %v, want nil", got)
	}
}
