package main

import (
	"vika/backend/corpus"
	"vika/backend/docserve"
)

// RegionView is a table, figure or display formula as the window shows it:
// corpus.Region with its crop as a data: URL instead of bytes.
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
	// Image is the figure's crop as a PNG data URL; "" when it has none.
	Image string `json:"image"`
}

func regionView(r corpus.Region) RegionView {
	return RegionView{Kind: r.Kind, Page: r.Page, BBox: r.BBox, Caption: r.Caption, Text: r.Text,
		Description: r.Description, Refusal: r.Refusal, Image: docserve.FigureURL(r.Image)}
}

// Regions returns a document's tables, figures and formulas in page
// order, figures with their crop (for the explorer).
func (a *App) Regions(docID string) ([]RegionView, error) {
	rs, err := a.s.Regions(a.ctx, docID, true)
	if err != nil {
		return nil, err
	}
	out := make([]RegionView, 0, len(rs))
	for _, r := range rs {
		out = append(out, regionView(r))
	}
	return out, nil
}

// SourceRegion returns the table or figure a passage was made from, with
// its crop (for an answer's sources); a view with no Kind for any other
// passage.
func (a *App) SourceRegion(chunkID string) (RegionView, error) {
	r, ok := a.s.RegionOf(a.ctx, chunkID)
	if !ok {
		return RegionView{}, nil
	}
	return regionView(r), nil
}
