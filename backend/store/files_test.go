package store

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"vika/backend/corpus"
)

func TestFileKeptAndDeletedWithItsDocument(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	doc, pages, chunks := fixture("d1", "cours.pdf", 3)
	if err := s.AddDocument(ctx, doc, pages, chunks); err != nil {
		t.Fatal(err)
	}
	want := []byte("%PDF-1.7 bytes of the document")
	if err := s.PutFile(ctx, "d1", want); err != nil {
		t.Fatal(err)
	}
	got, err := s.File(ctx, "d1")
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("File = %q, %v; want %q", got, err, want)
	}
	if _, err := s.File(ctx, "nope"); !errors.Is(err, corpus.ErrNotFound) {
		t.Fatalf("unknown document: err = %v, want corpus.ErrNotFound", err)
	}
	if err := s.PutFile(ctx, "nope", want); err == nil {
		t.Fatal("PutFile accepted bytes of a document not in the store")
	}
	if err := s.DeleteDocument(ctx, "d1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.File(ctx, "d1"); !errors.Is(err, corpus.ErrNotFound) {
		t.Fatalf("after delete: err = %v, want corpus.ErrNotFound", err)
	}
}
