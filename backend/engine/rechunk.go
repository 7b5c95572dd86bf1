package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"vika/backend/chunk"
	"vika/backend/corpus"
	"vika/backend/ingest"
)

// Chunking: the passage size and overlap of the documents added from now
// on (SetChunking, the settings' chunk size and overlap), and Rechunk for
// a document added before.

// SetChunking sets how the documents added afterwards are cut into
// passages; the zero Options are chunk's defaults. Documents already in
// the session keep their passages until Rechunk.
func (e *Engine) SetChunking(o chunk.Options) {
	e.chunkMu.Lock()
	e.chunking = o
	e.chunkMu.Unlock()
}

// ingestOptions are the options of an add: e.opts with the chunking in
// force.
func (e *Engine) ingestOptions() ingest.Options {
	e.chunkMu.Lock()
	defer e.chunkMu.Unlock()
	o := e.opts
	o.Chunk = e.chunking
	return o
}

// Rechunk cuts a document already in the session into passages again
// with the chunking in force, from its stored pages (no PDF worker, no
// OCR): its new passages are embedded, then replace the old ones in the
// store and the indexes. A model's descriptions of its regions are kept
// (they follow their region's new passage). It returns the document with
// its new passage count.
func (e *Engine) Rechunk(ctx context.Context, docID string) (corpus.Document, error) {
	if e.isClosed() {
		return corpus.Document{}, ErrClosed
	}
	if err := e.checkRead(ctx, docID); err != nil {
		return corpus.Document{}, err
	}
	doc, data, err := e.DocumentFile(ctx, docID)
	if err != nil {
		return corpus.Document{}, err
	}
	pages, err := e.store.Pages(ctx, docID)
	if err != nil {
		return corpus.Document{}, err
	}
	regions, err := e.store.Regions(ctx, docID, true)
	if err != nil {
		return corpus.Document{}, err
	}
	old, err := e.Chunks(ctx, docID)
	if err != nil {
		return corpus.Document{}, err
	}
	// The pages as an add cut them: with their regions, whose model
	// descriptions have passages of their own (kept below).
	byPage := map[int][]corpus.Region{}
	for _, r := range regions {
		byPage[r.Page] = append(byPage[r.Page], r)
	}
	bare := make([]corpus.Page, len(pages))
	for i := range pages {
		pages[i].Regions = byPage[pages[i].Number]
		bare[i] = pages[i]
		bare[i].Regions = nil
		for _, r := range pages[i].Regions {
			r.Description = ""
			bare[i].Regions = append(bare[i].Regions, r)
		}
	}
	chunks := chunk.Split(doc, bare, e.ingestOptions().Chunk)
	langOf := make(map[int]string, len(pages))
	for _, p := range pages {
		langOf[p.Number] = p.Lang
	}
	for i := range chunks {
		chunks[i].Lang = langOf[chunks[i].Page]
	}
	chunks = append(chunks, describedAgain(old, chunks)...)
	chunks = append(chunks, mineOf(old)...) // the student's own notes stay
	doc.Chunks = len(chunks)
	set := e.models.Load()
	vecs, err := set.ret.Embed(ctx, chunks, nil)
	if err != nil {
		return corpus.Document{}, fmt.Errorf("re-chunk %s: %w", doc.Label, err)
	}
	figs, err := figureVectors(ctx, set.loadedModels, chunks, pageRegions(pages))
	if err != nil {
		return corpus.Document{}, fmt.Errorf("re-chunk %s: %w", doc.Label, err)
	}
	if err := ctx.Err(); err != nil {
		return corpus.Document{}, err
	}
	// Everything that can fail slowly is done: the old passages go and the
	// new ones come in one commit, under the same label.
	if err := e.RemoveDocument(context.WithoutCancel(ctx), docID); err != nil {
		return corpus.Document{}, err
	}
	undo := context.WithoutCancel(ctx)
	res := ingest.Result{Doc: doc, Pages: pages, Chunks: chunks}
	if res.Doc, err = e.commitText(undo, res, data); err != nil {
		return corpus.Document{}, err
	}
	if err := e.attachVectors(undo, res, set, vecs, figs); err != nil {
		return corpus.Document{}, errors.Join(err, e.undoText(undo, res.Doc.ID))
	}
	doc = res.Doc
	doc.Embedding = false
	doc.Vectors = e.models.Load().ret.DocVectors(doc.ID)
	return doc, nil
}

// describedAgain returns the description passages of old (a model's
// description of a region) given the ids of their region's passage in
// chunks, the region's new passages; a description whose region has no
// passage any more is dropped.
func describedAgain(old, chunks []corpus.Chunk) []corpus.Chunk {
	type regionKey struct {
		page int
		kind corpus.ChunkKind
		box  [4]float64
	}
	keyOf := func(c corpus.Chunk) (regionKey, bool) {
		if c.BBox == nil || !c.Kind.IsRegion() {
			return regionKey{}, false
		}
		return regionKey{c.Page, c.Kind, *c.BBox}, true
	}
	first := map[regionKey]string{}
	for _, c := range chunks {
		if k, ok := keyOf(c); ok {
			if _, seen := first[k]; !seen {
				first[k] = c.ID
			}
		}
	}
	var out []corpus.Chunk
	for _, c := range old {
		if !c.Described() {
			continue
		}
		k, ok := keyOf(c)
		id, found := first[k]
		if !ok || !found {
			continue
		}
		c.ID = strings.TrimSuffix(id, corpus.DescribedSuffix) + corpus.DescribedSuffix
		out = append(out, c)
	}
	return out
}
