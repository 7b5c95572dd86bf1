package engine

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"vika/backend/corpus"
)

func TestDocumentFileAndChunks(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true})
	doc := mustAdd(t, e, "paper.pdf", paperA)

	got, data, err := e.DocumentFile(ctx, doc.ID)
	if err != nil || got.ID != doc.ID || !bytes.Equal(data, paperA) {
		t.Fatalf("DocumentFile = %v, %d bytes, %v; want the added bytes", got.ID, len(data), err)
	}
	chunks, err := e.Chunks(ctx, doc.ID)
	if err != nil || len(chunks) != doc.Chunks || len(chunks) == 0 {
		t.Fatalf("Chunks = %d, %v; want %d", len(chunks), err, doc.Chunks)
	}
	if chunks[0].Page != 1 {
		t.Errorf("first chunk on page %d, want 1", chunks[0].Page)
	}

	if err := e.RemoveDocument(ctx, doc.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.DocumentFile(ctx, doc.ID); !errors.Is(err, corpus.ErrNotFound) {
		t.Fatalf("after removal: %v, want corpus.ErrNotFound", err)
	}
	if _, err := e.Chunks(ctx, doc.ID); !errors.Is(err, corpus.ErrNotFound) {
		t.Fatalf("Chunks after removal: %v, want corpus.ErrNotFound", err)
	}
}
