package engine

import (
	"context"
	"strings"
	"testing"

	"vika/backend/chunk"
	"vika/backend/corpus"
	"vika/backend/testpdf"
)

// TestChunkingAndRechunk: the chunking set applies to documents added
// afterwards; a document added before keeps its passages until Rechunk,
// which cuts it again from its stored pages, keeps a model's description
// of its region and leaves it searchable.
func TestChunkingAndRechunk(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	body := testpdf.Words("entropy", 600)
	first := mustAdd(t, e, "first.pdf", testpdf.Text(body))
	e.SetChunking(chunk.Options{Target: 300, Overlap: -1})
	second := mustAdd(t, e, "second.pdf", testpdf.Text(body+" second"))
	if second.Chunks <= first.Chunks {
		t.Fatalf("passages: %d with the default size, %d at 300 characters; want more at 300", first.Chunks, second.Chunks)
	}
	before, err := e.Chunks(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) != first.Chunks {
		t.Fatalf("the first document changed before Rechunk: %d passages, was %d", len(before), first.Chunks)
	}
	// A described region passage, as a describe run leaves it.
	box := [4]float64{72, 72, 300, 200}
	region := corpus.Chunk{ID: before[0].ID + "-fig", DocID: first.ID, Page: 1, Text: "Figure 1: entropy", Kind: corpus.ChunkFigure, BBox: &box, Lang: "en", PageType: corpus.PageText}
	desc := region
	desc.ID, desc.Text = region.ID+corpus.DescribedSuffix, "Figure 1\nA curve of the binary entropy function."
	if err := e.store.AddChunks(ctx, first.ID, []corpus.Chunk{region, desc}); err != nil {
		t.Fatal(err)
	}
	pages, err := e.store.Pages(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	pages[0].Regions = []corpus.Region{{Kind: corpus.ChunkFigure, Page: 1, BBox: box, Caption: "Figure 1: entropy"}}
	if err := e.store.DeleteDocument(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
	_, data, err := e.DocumentFile(ctx, second.ID) // any bytes: the store keeps them with the document
	if err != nil {
		t.Fatal(err)
	}
	first.Chunks += 2
	if err := e.store.AddDocument(ctx, first, pages, append(before, region, desc)); err != nil {
		t.Fatal(err)
	}
	if err := e.store.PutFile(ctx, first.ID, data); err != nil {
		t.Fatal(err)
	}

	got, err := e.Rechunk(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	after, err := e.Chunks(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Chunks != len(after) || len(after) <= len(before)+1 || got.Label != "first.pdf" {
		t.Errorf("re-chunked: %+v with %d passages, was %d; want more, same label", got, len(after), len(before))
	}
	var described []corpus.Chunk
	for _, c := range after {
		if c.Described() {
			described = append(described, c)
		}
		if c.Kind == corpus.ChunkBody && len([]rune(c.Text)) > 2*300 {
			t.Errorf("a passage of %d characters after re-chunking at 300", len([]rune(c.Text)))
		}
	}
	if len(described) != 1 || !strings.Contains(described[0].Text, "binary entropy function") {
		t.Fatalf("described passages after re-chunking: %+v, want the description kept", described)
	}
	base := strings.TrimSuffix(described[0].ID, corpus.DescribedSuffix)
	found := false
	for _, c := range after {
		found = found || (c.ID == base && c.Kind == corpus.ChunkFigure)
	}
	if !found {
		t.Errorf("the description %s follows no figure passage", described[0].ID)
	}
	hits, err := hitsOf(ctx, e, "binary entropy function curve", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || !strings.HasSuffix(hits[0].ChunkID, corpus.DescribedSuffix) {
		t.Errorf("hits after re-chunking %+v, want the description first", hits)
	}
	if _, err := e.Rechunk(ctx, "nope"); err == nil {
		t.Error("re-chunking a document not in the session succeeded")
	}
}
