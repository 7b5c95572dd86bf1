package retrieve

import (
	"context"

	"vika/backend/corpus"
)

// The student's own highlights and notes (corpus.ChunkMine) are passages
// of their own: in the BM25 and dense indexes like any other, outside
// their page's whole-page entry (they are not its running text), and the
// only ones a "my notes" scope (corpus.Scope.Mine) keeps. The indexes
// filter them before ranking; onlyMine drops what the page ranking and
// the named-page rules brought besides them.

// DeleteChunks removes the passages ids from every index: a student's
// note deleted or edited away. It is meant for passages of a region's
// kind (corpus.ChunkKind.IsRegion), which no whole-page entry holds; an
// unknown id is no error.
func (r *Retriever) DeleteChunks(ctx context.Context, ids []string) error {
	for _, s := range r.spaces {
		s.dense.Delete(ids)
		s.sums.Delete(ids)
	}
	r.book.forget(ids)
	return r.lex.Delete(ctx, ids)
}

// forget drops the book's entries of the chunks ids.
func (b *pageBook) forget(ids []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range ids {
		k, ok := b.byID[id]
		if !ok {
			continue
		}
		delete(b.byID, id)
		delete(b.texts[k], id)
		delete(b.regions, id)
		delete(b.regionTexts, id)
		delete(b.captions, id)
		delete(b.refs, id)
		delete(b.mine, id)
		list := b.byDocs[k.doc]
		for i, x := range list {
			if x == id {
				b.byDocs[k.doc] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
	}
}

// onlyMine keeps the candidates that are the student's own passages.
func (b *pageBook) onlyMine(cands []*candidate) []*candidate {
	b.mu.RLock()
	defer b.mu.RUnlock()
	out := cands[:0:0]
	for _, c := range cands {
		if b.mine[c.id] {
			out = append(out, c)
		}
	}
	return out
}

// mineShare caps the student's own passages among the k passages a
// search keeps when its scope is not "my notes": a note quotes its page,
// so a page highlighted many times would otherwise fill the sources with
// the student's notes and leave out the documents' own text (measured:
// 200 notes on one 15-page paper took all 8 sources of a question about
// it).
func mineShare(k int) int { return max(1, k/2) }

// mineAtMost moves the student's own passages past the first n of them
// to the end of cands (the order otherwise kept).
func (b *pageBook) mineAtMost(cands []*candidate, n int) []*candidate {
	b.mu.RLock()
	defer b.mu.RUnlock()
	var kept, later []*candidate
	for _, c := range cands {
		if b.mine[c.id] {
			if n == 0 {
				later = append(later, c)
				continue
			}
			n--
		}
		kept = append(kept, c)
	}
	return append(kept, later...)
}

// markMine records whether c is the student's own; b.mu is held.
func (b *pageBook) markMine(c corpus.Chunk) {
	if c.Kind == corpus.ChunkMine {
		b.mine[c.ID] = true
	} else {
		delete(b.mine, c.ID)
	}
}
