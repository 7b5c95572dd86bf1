package engine

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/testpdf"
)

func pngOf(t *testing.T, shade uint8) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 40, 30))
	for i := range img.Pix {
		img.Pix[i] = shade + uint8(i%7)
	}
	img.SetGray(3, 3, color.Gray{Y: 255 - shade})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestPicturesKeptWithTheirPassages: the crops of a committed document's
// regions are found by their passage and by their page, a region without
// a crop is not kept, and removing the document forgets them.
func TestPicturesKeptWithTheirPassages(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	data := testpdf.Text("Figure 2 shows the error of plain and residual networks.", "Table 1 lists the architectures.")
	id := ingest.DocID(data)
	figBox, tabBox := [4]float64{72, 100, 300, 260}, [4]float64{72, 80, 520, 200}
	fig := corpus.Region{Kind: corpus.ChunkFigure, Page: 1, BBox: figBox, Caption: "Figure 2: Training error.", Image: pngOf(t, 40)}
	tab := corpus.Region{Kind: corpus.ChunkTable, Page: 2, BBox: tabBox, Caption: "Table 1: Architectures.", Text: "| layer | output |"}
	eqBox := [4]float64{220, 436, 504, 462}
	eq := corpus.Region{Kind: corpus.ChunkFormula, Page: 2, BBox: eqBox, Caption: "(1)", Text: "y = f(x) + x (1)", Description: `y = \mathcal{F}(x) + x`}
	res := ingest.Result{
		Doc: corpus.Document{ID: id, File: "paper.pdf", Pages: 2},
		Pages: []corpus.Page{
			{DocID: id, Number: 1, Type: corpus.PageText, Text: "Figure 2 shows the error of plain and residual networks.", Regions: []corpus.Region{fig}},
			{DocID: id, Number: 2, Type: corpus.PageText, Text: "Table 1 lists the architectures.", Regions: []corpus.Region{tab, eq}},
		},
		Chunks: []corpus.Chunk{
			{ID: id + ":1:0", DocID: id, Page: 1, Text: "Figure 2 shows the error of plain and residual networks.", Kind: corpus.ChunkBody, Lang: "en", PageType: corpus.PageText},
			{ID: id + ":1:f", DocID: id, Page: 1, Text: "Figure 2: Training error.", Kind: corpus.ChunkFigure, BBox: &figBox, Lang: "en", PageType: corpus.PageText},
			{ID: id + ":2:t", DocID: id, Page: 2, Text: "Table 1: Architectures. | layer | output |", Kind: corpus.ChunkTable, BBox: &tabBox, Lang: "en", PageType: corpus.PageText},
			{ID: id + ":2:e", DocID: id, Page: 2, Text: "(1) y = f(x) + x (1)", Kind: corpus.ChunkFormula, BBox: &eqBox, Lang: "en", PageType: corpus.PageText},
		},
	}
	if _, err := e.commit(ctx, res, nil, nil, data); err != nil {
		t.Fatal(err)
	}
	if r, ok := e.RegionOf(ctx, id+":1:f"); !ok || !bytes.Equal(r.Image, fig.Image) || r.Caption != fig.Caption {
		t.Errorf("RegionOf(figure passage) = %+v, %v", r.Caption, ok)
	}
	// A formula keeps no crop; its region carries its transcribed LaTeX (the sources panel shows it).
	if r, ok := e.RegionOf(ctx, id+":2:e"); !ok || r.Description != eq.Description || len(r.Image) != 0 {
		t.Errorf("RegionOf(formula passage) = %+v, %v", r, ok)
	}
	if _, ok := e.RegionOf(ctx, id+":1:0"); ok {
		t.Error("a body passage has a region")
	}
	if _, ok := e.RegionOf(ctx, id+":2:t"); ok {
		t.Error("a table without a crop has a picture")
	}
	if rs := e.RegionsOn(ctx, id, 1); len(rs) != 1 || rs[0].BBox != figBox {
		t.Errorf("RegionsOn(page 1) = %d regions", len(rs))
	}
	if rs := e.RegionsOn(ctx, id, 2); len(rs) != 0 {
		t.Errorf("RegionsOn(page 2) = %d regions, want none (no crop)", len(rs))
	}
	if err := e.RemoveDocument(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, ok := e.RegionOf(ctx, id+":1:f"); ok || len(e.RegionsOn(ctx, id, 1)) != 0 {
		t.Error("the crops outlived their document")
	}
}

// TestCropsByID: a figure's crop is found by document, page and index
// (CropAt), and a figure passage leads to the same crop (CropOf): the
// window loads crops one at a time by that address instead of receiving
// every crop of a document as base64 in one bridge reply.
func TestCropsByID(t *testing.T) {
	e := newEngine(t, Config{})
	d := mustAdd(t, e, "figures.pdf", testpdf.SharedFigures(1, 3))
	ctx := context.Background()
	regions, err := e.Regions(ctx, d.ID, true)
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := e.Chunks(ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, c := range chunks {
		if c.Kind != corpus.ChunkFigure {
			continue
		}
		doc, page, n, ok := e.CropOf(ctx, c.ID)
		if !ok || doc != d.ID || page != 1 {
			t.Fatalf("CropOf(%s) = %s %d %d %v", c.ID, doc, page, n, ok)
		}
		png, err := e.CropAt(ctx, doc, page, n)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := e.RegionOf(ctx, c.ID)
		if !bytes.Equal(png, r.Image) || len(png) == 0 || !bytes.Equal(png, regions[n].Image) {
			t.Errorf("figure %d: the crop served is not the figure's", n)
		}
		seen++
	}
	if seen != 3 {
		t.Errorf("%d figure passages, want 3", seen)
	}
	if _, err := e.CropAt(ctx, d.ID, 1, 3); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("CropAt past the last crop: %v", err)
	}
}
