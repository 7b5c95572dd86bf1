package engine

import (
	"context"

	"vika/backend/corpus"
)

// The session's tables and figures live in the store with their crops
// (corpus.Region.Image), in memory like the PDF bytes: an answer shows
// them to a vision-capable model, and Describe has them described.

// RegionOf returns the table, figure or formula region a passage was made
// from (or whose description it holds: a formula's is its LaTeX), with its
// crop when it has one; false for a body passage.
func (e *Engine) RegionOf(ctx context.Context, chunkID string) (corpus.Region, bool) {
	if e.isClosed() {
		return corpus.Region{}, false
	}
	chunks, err := e.store.Chunks(ctx, []string{chunkID})
	if err != nil {
		return corpus.Region{}, false
	}
	c, ok := chunks[chunkID]
	if !ok || c.BBox == nil || (c.Kind != corpus.ChunkFigure && c.Kind != corpus.ChunkTable && c.Kind != corpus.ChunkFormula) {
		return corpus.Region{}, false
	}
	var regions []corpus.Region
	if c.Kind == corpus.ChunkFormula { // a formula keeps no crop: all the document's, without images
		regions, err = e.store.Regions(ctx, c.DocID, false)
	} else {
		regions, err = e.store.RegionsOn(ctx, c.DocID, c.Page)
	}
	if err != nil {
		return corpus.Region{}, false
	}
	return regionOf(c, regions)
}

// regionOf finds the region of a chunk among a document's regions: same
// page, kind and box.
func regionOf(c corpus.Chunk, regions []corpus.Region) (corpus.Region, bool) {
	if c.BBox == nil {
		return corpus.Region{}, false
	}
	for _, r := range regions {
		if r.Page == c.Page && r.Kind == c.Kind && r.BBox == *c.BBox {
			return r, true
		}
	}
	return corpus.Region{}, false
}

// RegionsOn returns the regions of a page that have a crop.
func (e *Engine) RegionsOn(ctx context.Context, docID string, page int) []corpus.Region {
	if e.isClosed() {
		return nil
	}
	rs, err := e.store.RegionsOn(ctx, docID, page)
	if err != nil {
		return nil
	}
	return rs
}
