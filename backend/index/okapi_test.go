package index

import (
	"context"
	"math"
	"testing"

	"vika/backend/corpus"
)

// TestOkapiScore pins the textbook formula: raw term frequency, the mean
// length in tokens, Lucene's idf, each query term summed with no
// coordination factor; scope, replacement and deletion.
func TestOkapiScore(t *testing.T) {
	ctx := context.Background()
	o := NewOkapi()
	pages := []corpus.Chunk{
		{ID: "a#p1", DocID: "a", Page: 1, Lang: "en", Text: "graph graph graph coloring"},
		{ID: "a#p2", DocID: "a", Page: 2, Lang: "en", Text: "graph edges vertices"},
		{ID: "b#p1", DocID: "b", Page: 1, Lang: "en", Text: "coloring of maps with four colours and nothing else at all"},
	}
	if err := o.Add(ctx, pages); err != nil {
		t.Fatal(err)
	}
	// Lengths in tokens after the English analyzer (stop words out).
	n := map[string]float64{}
	for _, c := range pages {
		_, k := o.shards[Analyzer("en")].terms(c.Text)
		n[c.ID] = float64(k)
	}
	if n["a#p1"] != 4 || n["a#p2"] != 3 {
		t.Fatalf("lengths %v", n)
	}
	avg := (n["a#p1"] + n["a#p2"] + n["b#p1"]) / 3
	idf := func(df float64) float64 { return math.Log(1 + (3-df+0.5)/(df+0.5)) }
	part := func(tf, n, df float64) float64 { return idf(df) * tf * (K1 + 1) / (tf + K1*(1-B+B*n/avg)) }
	got, err := o.SearchScoped(ctx, "graph coloring", 10, corpus.Scope{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		"a#p1": part(3, 4, 2) + part(1, 4, 2),
		"a#p2": part(1, 3, 2),
		"b#p1": part(1, n["b#p1"], 2),
	}
	if len(got) != 3 || got[0].ChunkID != "a#p1" {
		t.Fatalf("hits %+v", got)
	}
	for _, s := range got {
		if math.Abs(s.Score-want[s.ChunkID]) > 1e-9 {
			t.Errorf("%s: score %v, want %v", s.ChunkID, s.Score, want[s.ChunkID])
		}
	}
	// A page matching one query term of two is not scaled by 1/2 (bleve's coordination is).
	if got[1].ChunkID == "a#p2" && math.Abs(got[1].Score-part(1, 3, 2)) > 1e-9 {
		t.Errorf("coordination applied: %+v", got[1])
	}
	scoped, _ := o.SearchScoped(ctx, "graph coloring", 10, corpus.Scope{Docs: []string{"a"}, From: 2, To: 2})
	if len(scoped) != 1 || scoped[0].ChunkID != "a#p2" {
		t.Errorf("scoped %+v", scoped)
	}
	// Replacing a page changes its terms and the statistics; deleting a document drops its pages.
	if err := o.Add(ctx, []corpus.Chunk{{ID: "a#p2", DocID: "a", Page: 2, Lang: "en", Text: "trees"}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := o.SearchScoped(ctx, "edges", 10, corpus.Scope{}); len(got) != 0 {
		t.Errorf("replaced page still found: %+v", got)
	}
	if err := o.DeleteDoc(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	got, _ = o.SearchScoped(ctx, "graph coloring", 10, corpus.Scope{})
	if len(got) != 1 || got[0].ChunkID != "b#p1" || math.Abs(got[0].Score-math.Log(1+0.5/1.5)) > 1e-9 {
		t.Errorf("after delete %+v", got)
	}
}
