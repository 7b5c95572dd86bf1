package engine

import (
	"context"
	"testing"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/testpdf"
)

// TestHitsCarryTheirRegionBox: a hit on a figure or table passage carries
// its region's box (for the viewer to outline), a body hit none.
func TestHitsCarryTheirRegionBox(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	body := "Residual networks add the input of a block to its output."
	data := testpdf.Text(body)
	id := ingest.DocID(data)
	figBox := [4]float64{72, 100, 300, 260}
	res := ingest.Result{
		Doc: corpus.Document{ID: id, File: "paper.pdf", Pages: 1},
		Pages: []corpus.Page{{DocID: id, Number: 1, Type: corpus.PageText, Text: body,
			Regions: []corpus.Region{{Kind: corpus.ChunkFigure, Page: 1, BBox: figBox, Caption: "Figure 2: Training error of plain networks."}}}},
		Chunks: []corpus.Chunk{
			{ID: id + ":1:0", DocID: id, Page: 1, Text: body, Kind: corpus.ChunkBody, Lang: "en", PageType: corpus.PageText},
			{ID: id + ":1:f", DocID: id, Page: 1, Text: "Figure 2: Training error of plain networks.", Kind: corpus.ChunkFigure, BBox: &figBox, Lang: "en", PageType: corpus.PageText},
		},
	}
	if _, err := e.commit(ctx, res, nil, nil, data); err != nil {
		t.Fatal(err)
	}
	hits, err := hitsOf(ctx, e, "training error of plain networks", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].ChunkID != id+":1:f" {
		t.Fatalf("hits = %+v, want the figure passage first", hits)
	}
	if hits[0].Kind != corpus.ChunkFigure || hits[0].BBox == nil || *hits[0].BBox != figBox {
		t.Errorf("figure hit kind %q box %v, want figure %v", hits[0].Kind, hits[0].BBox, figBox)
	}
	hits, err = hitsOf(ctx, e, "residual networks add the input", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].ChunkID != id+":1:0" || hits[0].BBox != nil {
		t.Errorf("body hit = %+v, want the body passage without a box", hits)
	}
}
