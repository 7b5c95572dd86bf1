package engine

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log"

	"vika/backend/clip"
	"vika/backend/corpus"
	"vika/backend/index"
	"vika/backend/models"
	"vika/backend/retrieve"
)

// Figures are found by what they show when CLIP is installed: each figure
// crop gets an image vector at ingest (and when CLIP is installed or the
// models switch), and a question's CLIP text vector scores them in a list
// of their own that joins the search (retrieve.Figures). Without CLIP,
// figures are found by their caption, inner text and description.

// openFigures loads CLIP when it is installed under root: nil and no error
// when it is not.
func openFigures(root string) (*clip.Model, *retrieve.Figures, error) {
	m, err := clip.Open(root)
	switch {
	case errors.Is(err, models.ErrNotInstalled):
		return nil, nil, nil
	case err != nil:
		return nil, nil, fmt.Errorf("%s: %w", clip.Name, err)
	}
	return m, &retrieve.Figures{Model: m, Index: index.NewDense(m.Dim())}, nil
}

// figureVecs are figure passages with the image vectors of their crops.
type figureVecs struct {
	chunks []corpus.Chunk
	vecs   [][]float32
}

// figureVectors computes the image vectors of the figure passages of
// chunks whose crop regions gives (the document's regions, by chunk),
// with lm's CLIP; nothing without it. A crop that does not decode is
// left out (logged): its figure is still found by its text.
func figureVectors(ctx context.Context, lm loadedModels, chunks []corpus.Chunk, regions func(corpus.Chunk) (corpus.Region, bool)) (figureVecs, error) {
	var out figureVecs
	if lm.image == nil {
		return out, nil
	}
	var batch []image.Image
	var pending []corpus.Chunk
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		vecs, err := lm.image.EmbedImages(ctx, batch)
		if err != nil {
			return err
		}
		out.chunks = append(out.chunks, pending...)
		out.vecs = append(out.vecs, vecs...)
		batch, pending = batch[:0], pending[:0]
		return nil
	}
	for _, c := range chunks {
		if c.Kind != corpus.ChunkFigure {
			continue
		}
		r, ok := regions(c)
		if !ok || len(r.Image) == 0 {
			continue
		}
		img, err := clip.Decode(r.Image)
		if err != nil {
			log.Printf("figure %s (page %d): %v: found by its text only", c.ID, c.Page, err)
			continue
		}
		batch, pending = append(batch, img), append(pending, c)
		if len(batch) == clip.DefaultBatchSize {
			if err := flush(); err != nil {
				return figureVecs{}, err
			}
		}
	}
	if err := flush(); err != nil {
		return figureVecs{}, err
	}
	return out, nil
}

// pageRegions finds a chunk's region among the pages of one ingest.
func pageRegions(pages []corpus.Page) func(corpus.Chunk) (corpus.Region, bool) {
	byPage := map[int][]corpus.Region{}
	for _, p := range pages {
		byPage[p.Number] = p.Regions
	}
	return func(c corpus.Chunk) (corpus.Region, bool) { return regionOf(c, byPage[c.Page]) }
}

// storeRegions finds a chunk's region among the session's (crops
// included), reading a document's regions when its first chunk comes (the
// chunks come document by document) and keeping only that document's.
func (e *Engine) storeRegions(ctx context.Context) func(corpus.Chunk) (corpus.Region, bool) {
	var doc string
	var regions []corpus.Region
	return func(c corpus.Chunk) (corpus.Region, bool) {
		if c.DocID != doc {
			doc, regions = c.DocID, nil
			var err error
			if regions, err = e.store.Regions(ctx, c.DocID, true); err != nil {
				log.Printf("figures of %s: %v: found by their text only", c.DocID, err)
			}
		}
		return regionOf(c, regions)
	}
}
