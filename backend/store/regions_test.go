package store

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"vika/backend/corpus"
	"vika/backend/message"
)

// Regions, figure crops and region chunks' boxes are stored with their
// document, counted on it, and go with it.
func TestRegionsRoundTrip(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	doc, pages, chunks := fixture("r1", "r1.pdf", 3)
	png := []byte("\x89PNG\r\n\x1a\n fake crop bytes")
	pages[0].Regions = []corpus.Region{
		{Kind: corpus.ChunkTable, Page: 1, BBox: [4]float64{50, 60, 500, 200}, Caption: "Table 1: Errors.", Text: "| a | b |\n| --- | --- |\n| 1 | 2 |"},
		{Kind: corpus.ChunkFigure, Page: 1, BBox: [4]float64{50, 300, 500, 600}, Caption: "Figure 1. A plot.", Text: "x\ny", Description: "a rising curve", Image: png},
	}
	pages[2].Regions = []corpus.Region{{Kind: corpus.ChunkFormula, Page: 3, BBox: [4]float64{100, 100, 300, 120}, Text: "E = mc2 (1)", Caption: "(1)"}}
	box := [4]float64{50, 60, 500, 200}
	chunks = append(chunks, corpus.Chunk{ID: "r1-p1-c2", DocID: "r1", Page: 1, Text: "Table 1: Errors.\n\n| a | b |", PageType: corpus.PageText, Kind: corpus.ChunkTable, BBox: &box})
	doc.Regions = map[corpus.ChunkKind]int{corpus.ChunkTable: 1, corpus.ChunkFigure: 1, corpus.ChunkFormula: 1}
	doc.Chunks = len(chunks)
	if err := s.AddDocument(ctx, doc, pages, chunks); err != nil {
		t.Fatal(err)
	}
	got, err := s.Regions(ctx, "r1", true)
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]corpus.Region{}, pages[0].Regions...), pages[2].Regions...)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("regions:\n%+v\nwant\n%+v", got, want)
	}
	light, err := s.Regions(ctx, "r1", false)
	if err != nil || len(light) != 3 || light[1].Image != nil || light[1].Caption != "Figure 1. A plot." {
		t.Errorf("regions without images: %+v, %v", light, err)
	}
	cs, err := s.Chunks(ctx, []string{"r1-p1-c2", "r1-p1-c1"})
	if err != nil {
		t.Fatal(err)
	}
	if c := cs["r1-p1-c2"]; c.BBox == nil || *c.BBox != box || c.Kind != corpus.ChunkTable {
		t.Errorf("region chunk %+v", c)
	}
	if c := cs["r1-p1-c1"]; c.BBox != nil {
		t.Errorf("body chunk got box %v", c.BBox)
	}
	d, err := s.DocumentByID(ctx, "r1")
	if err != nil || !reflect.DeepEqual(d.Regions, doc.Regions) {
		t.Errorf("document counts %v, %v", d.Regions, err)
	}
	if err := s.DeleteDocument(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	if rs, err := s.Regions(ctx, "r1", true); err != nil || len(rs) != 0 {
		t.Errorf("after delete: %d regions, %v", len(rs), err)
	}
	if _, err := s.DocumentByID(ctx, "r1"); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("document after delete: %v", err)
	}
}

// TestDescribedPassagesAndRefusals: passages added after the document
// (descriptions, LaTeX) count in its passage count, which the library's
// card shows; a refusal is kept with its region, with the model and the
// code, until a description is kept.
func TestDescribedPassagesAndRefusals(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	doc, pages, chunks := fixture("r2", "r2.pdf", 2)
	formula := corpus.Region{Kind: corpus.ChunkFormula, Page: 2, BBox: [4]float64{100, 100, 300, 120}, Text: "E = mc2 (1)", Caption: "(1)"}
	pages[1].Regions = []corpus.Region{formula}
	doc.Chunks = len(chunks)
	if err := s.AddDocument(ctx, doc, pages, chunks); err != nil {
		t.Fatal(err)
	}
	box := formula.BBox
	described := corpus.Chunk{ID: chunks[0].ID + corpus.DescribedSuffix, DocID: "r2", Page: 2, Text: "(1)\nLaTeX: E = mc^2", PageType: corpus.PageText, Kind: corpus.ChunkFormula, BBox: &box}
	if err := s.AddChunks(ctx, "r2", []corpus.Chunk{described}); err != nil {
		t.Fatal(err)
	}
	d, err := s.DocumentByID(ctx, "r2")
	if err != nil || d.Chunks != len(chunks)+1 {
		t.Fatalf("passage count %d after a description, want %d (%v)", d.Chunks, len(chunks)+1, err)
	}
	if docs, err := s.Documents(ctx); err != nil || len(docs) != 1 || docs[0].Chunks != len(chunks)+1 {
		t.Fatalf("documents: %+v %v", docs, err)
	}

	refusal := corpus.Refusal{Model: "gemini/gemini-2.5-flash", Reason: message.New(message.RefusedProse, "words", 7)}
	if err := s.SetRefusal(ctx, "r2", formula, refusal); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Regions(ctx, "r2", false)
	if err != nil || len(rs) != 1 || rs[0].Refusal == nil || rs[0].Refusal.Model != refusal.Model ||
		rs[0].Refusal.Reason.Code != message.RefusedProse {
		t.Fatalf("refusal kept: %+v %v", rs, err)
	}
	if got := rs[0].Refusal.Reason.English(); got != "the answer holds 7 words of prose" {
		t.Errorf("refusal read back: %q", got)
	}
	if err := s.SetDescription(ctx, "r2", formula, "E = mc^2"); err != nil {
		t.Fatal(err)
	}
	if rs, _ := s.Regions(ctx, "r2", false); rs[0].Refusal != nil || rs[0].Description != "E = mc^2" {
		t.Errorf("after a description: %+v", rs[0])
	}
	if err := s.SetRefusal(ctx, "r2", corpus.Region{Kind: corpus.ChunkFigure, Page: 2, BBox: box}, refusal); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("refusal of a region that is not there: %v", err)
	}
}
