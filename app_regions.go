package main

import (
	"vika/backend/corpus"
	"vika/backend/docserve"
)

// RegionView is a table, figure or display formula as the window shows it:
// corpus.Region with the address its crop is served at instead of bytes.
type RegionView struct {
	Kind        corpus.ChunkKind `json:"kind"`
	Page        int              `json:"page"`
	BBox        [4]float64       `json:"bbox"`
	Caption     string           `json:"caption"`
	Text        string           `json:"text"`
	Description string           `json:"description"`
	// Refusal is the last description refused (a code the window
	// translates, and the model), absent when none was.
	Refusal *corpus.Refusal `json:"refusal,omitempty"`
	// Image is the address of the figure's crop (docserve.CropURL,
	// served by id, one at a time); "" when it has none.
	Image string `json:"image"`
}

func regionView(r corpus.Region, image string) RegionView {
	return RegionView{Kind: r.Kind, Page: r.Page, BBox: r.BBox, Caption: r.Caption, Text: r.Text,
		Description: r.Description, Refusal: r.Refusal, Image: image}
}

// RegionBatch is a run of a document's regions, as PageBatch.
type RegionBatch struct {
	Regions []RegionView `json:"regions"`
	Next    int          `json:"next"`
	Total   int          `json:"total"`
}

// Regions returns a document's tables, figures and formulas in page
// order from offset, a bounded run at a time like Pages, figures with the
// address of their crop (for the explorer).
func (a *App) Regions(docID string, offset int) (RegionBatch, error) {
	rs, err := a.s.Regions(a.ctx, docID, true)
	if err != nil {
		return RegionBatch{}, err
	}
	views := regionViews(docID, rs)
	run, next := batch(views, offset, regionSize)
	return RegionBatch{Regions: run, Next: next, Total: len(views)}, nil
}

// regionSize is about what a region's view adds to a bridge reply.
func regionSize(v RegionView) int {
	return len(v.Caption) + len(v.Text) + len(v.Description) + len(v.Image) + 256
}

// regionViews are the views of a document's regions in page order, each
// figure with a crop given the address it is served at (its rank among
// the crops of its page).
func regionViews(docID string, rs []corpus.Region) []RegionView {
	out := make([]RegionView, 0, len(rs))
	crops := map[int]int{} // crops seen so far on each page
	for _, r := range rs {
		image := ""
		if len(r.Image) > 0 {
			image = docserve.CropURL(docID, r.Page, crops[r.Page])
			crops[r.Page]++
		}
		out = append(out, regionView(r, image))
	}
	return out
}

// SourceRegion returns the table or figure a passage was made from, with
// the address of its crop (for an answer's sources); a view with no Kind
// for any other passage.
func (a *App) SourceRegion(chunkID string) (RegionView, error) {
	r, ok := a.s.RegionOf(a.ctx, chunkID)
	if !ok {
		return RegionView{}, nil
	}
	image := ""
	if docID, page, n, ok := a.s.CropOf(a.ctx, chunkID); ok {
		image = docserve.CropURL(docID, page, n)
	}
	return regionView(r, image), nil
}
