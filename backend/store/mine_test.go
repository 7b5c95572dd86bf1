package store

import (
	"context"
	"slices"
	"testing"

	"vika/backend/corpus"
)

func TestReplaceKindReplacesOnlyThatKind(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	doc, pages, chunks := fixture("d1", "cours.pdf", 3)
	if err := s.AddDocument(ctx, doc, pages, chunks); err != nil {
		t.Fatal(err)
	}
	mine := func(id, text string) corpus.Chunk {
		return corpus.Chunk{ID: id, DocID: "d1", Page: 2, Text: text, Kind: corpus.ChunkMine, PageType: corpus.PageText}
	}
	if err := s.ReplaceKind(ctx, "d1", corpus.ChunkMine, []corpus.Chunk{mine("n1", "first"), mine("n2", "second")}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceKind(ctx, "d1", corpus.ChunkMine, []corpus.Chunk{mine("n2", "second, edited")}); err != nil {
		t.Fatal(err)
	}
	got, err := s.DocumentChunks(ctx, "d1")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range got {
		ids = append(ids, c.ID+"="+c.Text)
	}
	want := []string{"d1-p1-c1=text of d1 page 1", "d1-p2-c1=", "d1-p3-c1=text of d1 page 3", "n2=second, edited"}
	if !slices.Equal(ids, want) {
		t.Errorf("chunks %q, want %q", ids, want)
	}
	d, err := s.DocumentByID(ctx, "d1")
	if err != nil {
		t.Fatal(err)
	}
	if d.Chunks != 4 {
		t.Errorf("the document counts %d passages, want 4", d.Chunks)
	}
	if err := s.ReplaceKind(ctx, "nope", corpus.ChunkMine, nil); err == nil {
		t.Error("a document not in the store: no error")
	}
}
