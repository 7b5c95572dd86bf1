package engine

import (
	"context"

	"vika/backend/corpus"
)

// DocumentFile returns a document and its original bytes, for the viewer;
// corpus.ErrNotFound when the document is not in the session.
func (e *Engine) DocumentFile(ctx context.Context, docID string) (corpus.Document, []byte, error) {
	if e.isClosed() {
		return corpus.Document{}, nil, ErrClosed
	}
	doc, err := e.store.DocumentByID(ctx, docID)
	if err != nil {
		return corpus.Document{}, nil, err
	}
	data, err := e.store.File(ctx, docID)
	return doc, data, err
}

// Chunks returns a document's passages in reading order (for the explorer).
func (e *Engine) Chunks(ctx context.Context, docID string) ([]corpus.Chunk, error) {
	if e.isClosed() {
		return nil, ErrClosed
	}
	if _, err := e.store.DocumentByID(ctx, docID); err != nil {
		return nil, err
	}
	chunks, err := e.store.DocumentChunks(ctx, docID)
	if chunks == nil && err == nil {
		chunks = []corpus.Chunk{}
	}
	return chunks, err
}
