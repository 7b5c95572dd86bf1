package engine

import (
	"context"
	"errors"
	"slices"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/retrieve"
)

// An add is two commits. commitText stores the document and indexes its
// passages for BM25 and the page ranking, so that it answers at once;
// attachVectors later gives the passages their vectors, and from then on a
// hybrid search finds them by meaning too. In between the document is
// "embedding": Documents marks it (corpus.Document.Embedding), a search
// counts it in Stats.KeywordsOnly, and WaitVectors waits for it.

// commitText stores a processed document under a unique label, with its
// original bytes (for the viewer) and its passages, and indexes them for
// BM25 in the models in force; the document is embedding until
// attachVectors or undoText. On failure nothing of it remains, and other
// documents are untouched.
func (e *Engine) commitText(ctx context.Context, res ingest.Result, data []byte) (corpus.Document, error) {
	e.commitMu.Lock()
	defer e.commitMu.Unlock()
	if err := ctx.Err(); err != nil {
		return corpus.Document{}, err
	}
	if err := e.checkNew(ctx, res.Doc.ID); err != nil {
		return corpus.Document{}, err
	}
	docs, err := e.store.Documents(ctx)
	if err != nil {
		return corpus.Document{}, err
	}
	res.Doc.Label = uniqueLabel(res.Doc.File, docs)
	if err := e.store.AddDocument(ctx, res.Doc, res.Pages, res.Chunks); err != nil {
		return corpus.Document{}, err
	}
	undo := context.WithoutCancel(ctx)
	if err := e.store.PutFile(ctx, res.Doc.ID, data); err != nil {
		return corpus.Document{}, errors.Join(err, e.store.DeleteDocument(undo, res.Doc.ID))
	}
	ret := e.models.Load().ret // stays in force while commitMu is held
	if err := ret.AddText(ctx, res.Chunks); err != nil {
		return corpus.Document{}, errors.Join(err, ret.DeleteDoc(undo, res.Doc.ID), e.store.DeleteDocument(undo, res.Doc.ID))
	}
	e.setEmbedding(res.Doc.ID, true)
	e.setReading(res.Doc.ID, res.Doc.Reading)
	res.Doc.Embedding = true
	return res.Doc, nil
}

// attachVectors indexes the vectors of res's passages and figures, made
// by the models of set (embedded again when switchModels swapped the
// models since), and ends the document's embedding. A document removed
// meanwhile is left removed.
func (e *Engine) attachVectors(ctx context.Context, res ingest.Result, set *modelSet, vecs [][]float32, figs figureVecs) error {
	e.commitMu.Lock()
	defer e.commitMu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, err := e.store.DocumentByID(ctx, res.Doc.ID); errors.Is(err, corpus.ErrNotFound) {
		e.setEmbedding(res.Doc.ID, false)
		return nil
	} else if err != nil {
		return err
	}
	cur := e.models.Load() // stays in force while commitMu is held
	if cur != set {
		var err error
		if vecs, err = cur.ret.Embed(ctx, res.Chunks, nil); err != nil {
			return err
		}
		if figs, err = figureVectors(ctx, cur.loadedModels, res.Chunks, pageRegions(res.Pages)); err != nil {
			return err
		}
	}
	err := cur.ret.AddVectors(res.Chunks, vecs)
	if err == nil {
		err = cur.ret.AddFigures(figs.chunks, figs.vecs)
	}
	if err != nil {
		return err
	}
	e.setEmbedding(res.Doc.ID, false)
	return nil
}

// undoText removes a document commitText stored, when its vectors could
// not be made (a cancelled add leaves nothing).
func (e *Engine) undoText(ctx context.Context, docID string) error {
	ctx = context.WithoutCancel(ctx)
	e.commitMu.Lock()
	defer e.commitMu.Unlock()
	defer e.setEmbedding(docID, false)
	defer e.setReading(docID, 0)
	if _, err := e.store.DocumentByID(ctx, docID); errors.Is(err, corpus.ErrNotFound) {
		return nil
	}
	return errors.Join(e.models.Load().ret.DeleteDoc(ctx, docID), e.store.DeleteDocument(ctx, docID))
}

// setEmbedding marks document id as waiting for its vectors, or not.
func (e *Engine) setEmbedding(id string, on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if on {
		e.embedding[id] = true
	} else {
		delete(e.embedding, id)
	}
	if len(e.embedding) == 0 {
		e.vectorsReady.Broadcast()
	}
}

// embeddingDocs returns the ids of the documents still waiting for their
// vectors, sorted.
func (e *Engine) embeddingDocs() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	ids := make([]string, 0, len(e.embedding))
	for id := range e.embedding {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// WaitVectors waits until no document of the session is waiting for its
// vectors (every add in flight has ended or has its vectors), or ctx ends.
// Searches never need it; measurements of dense retrieval and course
// files do.
func (e *Engine) WaitVectors(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {
		e.mu.Lock()
		e.vectorsReady.Broadcast()
		e.mu.Unlock()
	})
	defer stop()
	e.mu.Lock()
	defer e.mu.Unlock()
	for len(e.embedding) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		e.vectorsReady.Wait()
	}
	return ctx.Err()
}

// keywordsOnly counts the documents within scope that a search finds by
// BM25 only because their vectors are not there yet (none in BM25 mode).
func (e *Engine) keywordsOnly(scope corpus.Scope, mode retrieve.Mode) int {
	if mode == retrieve.ModeBM25 {
		return 0
	}
	n := 0
	for _, id := range e.embeddingDocs() {
		if len(scope.Docs) == 0 || slices.Contains(scope.Docs, id) {
			n++
		}
	}
	return n
}
