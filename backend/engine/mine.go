package engine

import (
	"context"
	"fmt"
	"slices"

	"vika/backend/corpus"
)

// SetMine makes chunks (each of kind corpus.ChunkMine: the student's own
// highlights and notes, package notes) the document's own passages as
// they now stand: those that are new or changed are embedded and
// indexed, those gone leave the store and the indexes, the others stay
// as they are. A course file does not keep them with the document (the
// session keeps the notes themselves); re-chunking the document keeps
// them.
func (e *Engine) SetMine(ctx context.Context, docID string, chunks []corpus.Chunk) error {
	if e.isClosed() {
		return ErrClosed
	}
	for _, c := range chunks {
		if c.Kind != corpus.ChunkMine || c.DocID != docID {
			return fmt.Errorf("engine: passage %s is not the student's own of document %s", c.ID, docID)
		}
	}
	e.commitMu.Lock()
	defer e.commitMu.Unlock()
	old, err := e.store.DocumentChunks(ctx, docID)
	if err != nil {
		return err
	}
	if _, err := e.store.DocumentByID(ctx, docID); err != nil {
		return err
	}
	held := map[string]corpus.Chunk{}
	for _, c := range old {
		if c.Kind == corpus.ChunkMine {
			held[c.ID] = c
		}
	}
	var changed []corpus.Chunk
	kept := map[string]bool{}
	for _, c := range chunks {
		kept[c.ID] = true
		if h, ok := held[c.ID]; !ok || h.Text != c.Text || h.Page != c.Page || !slices.Equal(boxOf(h), boxOf(c)) {
			changed = append(changed, c)
		}
	}
	var gone []string
	for id := range held {
		if !kept[id] {
			gone = append(gone, id)
		}
	}
	ret := e.models.Load().ret // stays in force while commitMu is held
	vecs, err := ret.Embed(ctx, changed, nil)
	if err != nil {
		return err
	}
	if err := e.store.ReplaceKind(ctx, docID, corpus.ChunkMine, chunks); err != nil {
		return err
	}
	if err := ret.DeleteChunks(ctx, gone); err != nil {
		return err
	}
	return ret.AddEmbedded(ctx, changed, vecs)
}

func boxOf(c corpus.Chunk) []float64 {
	if c.BBox == nil {
		return nil
	}
	return c.BBox[:]
}

// notMine returns chunks without the student's own passages.
func notMine(chunks []corpus.Chunk) []corpus.Chunk {
	return slices.DeleteFunc(slices.Clone(chunks), func(c corpus.Chunk) bool { return c.Kind == corpus.ChunkMine })
}

// mineOf returns the student's own passages of chunks.
func mineOf(chunks []corpus.Chunk) []corpus.Chunk {
	var out []corpus.Chunk
	for _, c := range chunks {
		if c.Kind == corpus.ChunkMine {
			out = append(out, c)
		}
	}
	return out
}
