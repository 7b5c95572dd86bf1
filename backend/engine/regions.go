package engine

import (
	"sync"

	"vika/backend/corpus"
)

// pictures keeps the session's table and figure regions that have a crop
// (corpus.Region.Image), in memory like the PDF bytes, so that an answer
// can show them to a vision-capable model.
type pictures struct {
	mu      sync.Mutex
	byChunk map[string]corpus.Region    // chunk id -> its region; guarded by mu
	byPage  map[pageKey][]corpus.Region // guarded by mu
}

type pageKey struct {
	doc  string
	page int
}

func newPictures() *pictures {
	return &pictures{byChunk: map[string]corpus.Region{}, byPage: map[pageKey][]corpus.Region{}}
}

// keep records the regions of a document's pages that have a crop, and
// which of its chunks (of the same page, kind and box) stands for each.
func (p *pictures) keep(docID string, pages []corpus.Page, chunks []corpus.Chunk) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pg := range pages {
		for _, r := range pg.Regions {
			if len(r.Image) == 0 {
				continue
			}
			if r.Page == 0 {
				r.Page = pg.Number
			}
			k := pageKey{docID, r.Page}
			p.byPage[k] = append(p.byPage[k], r)
		}
	}
	for _, c := range chunks {
		if c.BBox == nil || (c.Kind != corpus.ChunkFigure && c.Kind != corpus.ChunkTable) {
			continue
		}
		for _, r := range p.byPage[pageKey{docID, c.Page}] {
			if r.Kind == c.Kind && r.BBox == *c.BBox {
				p.byChunk[c.ID] = r
				break
			}
		}
	}
}

// forget drops a document's regions.
func (p *pictures) forget(docID string, chunkIDs []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k := range p.byPage {
		if k.doc == docID {
			delete(p.byPage, k)
		}
	}
	for _, id := range chunkIDs {
		delete(p.byChunk, id)
	}
}

// RegionOf returns the table or figure region a passage was made from,
// with its crop; false when the passage has none (a body passage, or a
// region without a picture).
func (e *Engine) RegionOf(chunkID string) (corpus.Region, bool) {
	e.pics.mu.Lock()
	defer e.pics.mu.Unlock()
	r, ok := e.pics.byChunk[chunkID]
	return r, ok
}

// RegionsOn returns the regions of a page that have a crop.
func (e *Engine) RegionsOn(docID string, page int) []corpus.Region {
	e.pics.mu.Lock()
	defer e.pics.mu.Unlock()
	return append([]corpus.Region(nil), e.pics.byPage[pageKey{docID, page}]...)
}
