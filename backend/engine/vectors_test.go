package engine

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/retrieve"
)

// commit stores res and indexes it with vecs, the vectors by set (nil:
// embedded now with the models in force), as an add does in its two steps.
func (e *Engine) commit(ctx context.Context, res ingest.Result, set *modelSet, vecs [][]float32, data []byte) (corpus.Document, error) {
	doc, err := e.commitText(ctx, res, data)
	if err != nil {
		return doc, err
	}
	res.Doc = doc
	if err := e.attachVectors(ctx, res, set, vecs, figureVecs{}); err != nil {
		return corpus.Document{}, errors.Join(err, e.undoText(ctx, doc.ID))
	}
	doc.Embedding = false
	return doc, nil
}

// holdEmbedding takes every embedding slot, so that adds stop once their
// text is stored; the returned function gives them back.
func holdEmbedding(e *Engine) (release func()) {
	for range cap(e.embedSlots) {
		e.embedSlots <- struct{}{}
	}
	return func() {
		for range cap(e.embedSlots) {
			<-e.embedSlots
		}
	}
}

// TestSearchableBeforeVectors holds the embedding of an added PDF: the
// document is searchable by BM25 (and in the default and dense modes
// without an error) from its "searchable" event, marked as embedding in
// Documents and counted in Stats.KeywordsOnly; once its vectors land,
// dense search finds it and nothing is marked any more.
func TestSearchableBeforeVectors(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{})
	release := holdEmbedding(e)
	r := newRecorder()
	id := e.StartBytes("stats.pdf", paperA, r.progress)
	waitFor(t, "the searchable event", func() bool { return slices.Contains(r.stages(id), StageSearchable) })

	docs, err := e.Documents(ctx)
	if err != nil || len(docs) != 1 || !docs[0].Embedding {
		t.Fatalf("Documents while embedding = %+v, %v; want one, marked embedding", docs, err)
	}
	res, err := e.Search(ctx, retrieve.Query{Question: "quagga zebra"}, SearchOptions{K: 3})
	if err != nil || len(res.Hits) == 0 || res.Hits[0].Page != 2 {
		t.Fatalf("default search while embedding = %+v, %v; want page 2 first", res.Hits, err)
	}
	dense := e.DenseUnavailable() == nil
	if dense && res.Stats.KeywordsOnly != 1 {
		t.Errorf("KeywordsOnly while embedding = %d, want 1", res.Stats.KeywordsOnly)
	}
	if dense {
		d, err := e.Search(ctx, retrieve.Query{Question: "quagga zebra"}, SearchOptions{Mode: retrieve.ModeDense, K: 3})
		if err != nil || len(d.Hits) != 0 {
			t.Errorf("dense search while embedding = %+v, %v; want no hit and no error", d.Hits, err)
		}
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	if err := e.WaitVectors(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitVectors while embedding = %v, want the deadline", err)
	}
	cancel()

	release()
	if p := r.wait(t); p.Stage != StageDone || p.Doc == nil || p.Doc.Embedding {
		t.Fatalf("final = %+v", p)
	}
	if err := e.WaitVectors(ctx); err != nil {
		t.Fatal(err)
	}
	docs, _ = e.Documents(ctx)
	if len(docs) != 1 || docs[0].Embedding {
		t.Errorf("Documents after the vectors = %+v", docs)
	}
	res, err = e.Search(ctx, retrieve.Query{Question: "quagga zebra"}, SearchOptions{K: 3})
	if err != nil || res.Stats.KeywordsOnly != 0 {
		t.Errorf("search after the vectors: KeywordsOnly %d, %v", res.Stats.KeywordsOnly, err)
	}
	if dense {
		d, err := e.Search(ctx, retrieve.Query{Question: "zebras of the savannah"}, SearchOptions{Mode: retrieve.ModeDense, K: 3})
		if err != nil || len(d.Hits) == 0 {
			t.Errorf("dense search after the vectors = %+v, %v", d.Hits, err)
		}
	}
}

// TestCancelWhileEmbeddingLeavesNothing cancels an add whose text is
// stored: the document leaves the session and the BM25 index.
func TestCancelWhileEmbeddingLeavesNothing(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{})
	release := holdEmbedding(e)
	defer release()
	r := newRecorder()
	id := e.StartBytes("stats.pdf", paperA, r.progress)
	waitFor(t, "the searchable event", func() bool { return slices.Contains(r.stages(id), StageSearchable) })
	e.Cancel(id)
	if p := r.wait(t); p.Stage != StageCancelled {
		t.Fatalf("final = %+v", p)
	}
	docs, _ := e.Documents(ctx)
	hits, err := hitsOf(ctx, e, "quagga", 3)
	if len(docs) != 0 || len(hits) != 0 || err != nil {
		t.Fatalf("after cancel: %d documents, hits %v, %v", len(docs), hits, err)
	}
	if err := e.WaitVectors(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestReadingOverlapsEmbedding: while two adds wait for their vectors, a
// third is read and becomes searchable (the reading slots are free).
func TestReadingOverlapsEmbedding(t *testing.T) {
	e := newEngine(t, Config{})
	release := holdEmbedding(e)
	defer release()
	r := newRecorder()
	var ids []string
	for i, data := range [][]byte{paperA, paperB, tiny} {
		ids = append(ids, e.StartBytes([]string{"a.pdf", "b.pdf", "c.pdf"}[i], data, r.progress))
	}
	for _, id := range ids {
		waitFor(t, id+" searchable", func() bool { return slices.Contains(r.stages(id), StageSearchable) })
	}
}
