package engine

import (
	"context"
	"fmt"

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

// CropOf locates the crop of the region a passage was made from: its
// document, page and index among the page's crops (the order of
// RegionsOn, which CropAt reads); false when RegionOf finds none.
func (e *Engine) CropOf(ctx context.Context, chunkID string) (docID string, page, n int, ok bool) {
	r, ok := e.RegionOf(ctx, chunkID)
	if !ok {
		return "", 0, 0, false
	}
	chunks, err := e.store.Chunks(ctx, []string{chunkID})
	if err != nil {
		return "", 0, 0, false
	}
	c := chunks[chunkID]
	for i, o := range e.RegionsOn(ctx, c.DocID, r.Page) {
		if o.Kind == r.Kind && o.BBox == r.BBox {
			return c.DocID, r.Page, i, true
		}
	}
	return "", 0, 0, false
}

// CropAt returns the n-th crop of a document's page (the order of
// RegionsOn); an error wrapping corpus.ErrNotFound when there is none.
func (e *Engine) CropAt(ctx context.Context, docID string, page, n int) ([]byte, error) {
	rs := e.RegionsOn(ctx, docID, page)
	if n < 0 || n >= len(rs) || len(rs[n].Image) == 0 {
		return nil, fmt.Errorf("%w: no crop %d on page %d", corpus.ErrNotFound, n, page)
	}
	return rs[n].Image, nil
}
