package engine

import (
	"context"
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

// keep records the regions of a document's pages, and which of its
// chunks (of the same page, kind and box) stands for each.
func (p *pictures) keep(docID string, pages []corpus.Page, chunks []corpus.Chunk) {
	p.mu.Lock()
	defer p.mu.Unlock()
	all := map[pageKey][]corpus.Region{}
	for _, pg := range pages {
		for _, r := range pg.Regions {
			if r.Page == 0 {
				r.Page = pg.Number
			}
			k := pageKey{docID, r.Page}
			all[k] = append(all[k], r)
			if len(r.Image) > 0 {
				p.byPage[k] = append(p.byPage[k], r)
			}
		}
	}
	for _, c := range chunks {
		if c.BBox == nil || (c.Kind != corpus.ChunkFigure && c.Kind != corpus.ChunkTable) {
			continue
		}
		for _, r := range all[pageKey{docID, c.Page}] {
			if r.Kind == c.Kind && r.BBox == *c.BBox {
				p.byChunk[c.ID] = r
				break
			}
		}
	}
}

// describe sets the description of the region of a document's passage.
func (p *pictures) describe(docID, chunkID, text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.byChunk[chunkID]
	if !ok {
		return
	}
	r.Description = text
	p.byChunk[chunkID] = r
	p.byChunk[chunkID+DescribedSuffix] = r // its description's passage shows it too
	rs := p.byPage[pageKey{docID, r.Page}]
	for i := range rs {
		if rs[i].Kind == r.Kind && rs[i].BBox == r.BBox {
			rs[i].Description = text
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
// with its crop when it has one; false for a body passage.
func (e *Engine) RegionOf(_ context.Context, chunkID string) (corpus.Region, bool) {
	e.pics.mu.Lock()
	defer e.pics.mu.Unlock()
	r, ok := e.pics.byChunk[chunkID]
	return r, ok
}

// RegionsOn returns the regions of a page that have a crop.
func (e *Engine) RegionsOn(_ context.Context, docID string, page int) []corpus.Region {
	e.pics.mu.Lock()
	defer e.pics.mu.Unlock()
	return append([]corpus.Region(nil), e.pics.byPage[pageKey{docID, page}]...)
}
