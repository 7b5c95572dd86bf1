package engine

import (
	"context"
	"testing"
)

// TestAddReportCountsVectors: the document an add reports (the window's
// "done" event) already counts its vectors by model, as a listing does;
// the reverted first try filled them at listing only, so the window,
// showing the event's document, said "0 vectors". Without an embedding
// model there are none, and the document says so by having no counts.
func TestAddReportCountsVectors(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{})
	if !e.models.Load().ret.HasEmbedder() {
		t.Fatal("no embedding model: the test needs the default one (make assets)")
	}
	d := mustAdd(t, e, "stats.pdf", paperA)
	total := 0
	for _, n := range d.Vectors {
		total += n
	}
	if total != d.Chunks || len(d.Vectors) != 1 || d.Embedding {
		t.Errorf("added: %d passages, vectors %v (embedding %v); want one model holding every passage", d.Chunks, d.Vectors, d.Embedding)
	}
	docs, err := e.Documents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 || len(docs[0].Vectors) != 1 || docs[0].Vectors[e.models.Load().ret.Embedders()[0]] != d.Chunks {
		t.Errorf("listed: %+v, want the same counts", docs)
	}

	bm25 := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	if d := mustAdd(t, bm25, "stats.pdf", paperA); d.Vectors != nil {
		t.Errorf("keyword-only session: vectors %v, want none", d.Vectors)
	}
}
