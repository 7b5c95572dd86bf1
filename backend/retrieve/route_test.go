package retrieve

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
	"vika/backend/index"
)

// twoModels returns a Retriever routing English (and unknown-language)
// chunks to an "en" model and every other language to a "multi" model of
// another dimension, with testChunks added (c4 is French).
func twoModels(t *testing.T) (r *Retriever, en, multi *index.Dense) {
	t.Helper()
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lex.Close() })
	ee, me := &fakeEmbedder{dim: 64, name: "en-model"}, &fakeEmbedder{dim: 48, name: "multi-model"}
	en, multi = index.NewDense(ee.Dim()), index.NewDense(me.Dim())
	r, err = NewRouted(lex, []Space{
		{Embedder: ee, Dense: en, Languages: []string{"en", ""}},
		{Embedder: me, Dense: multi},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var last, total int
	if err := r.Add(context.Background(), testChunks, func(done, n int) {
		if done < last || n != len(testChunks) {
			t.Errorf("progress %d/%d after %d", done, n, last)
		}
		last, total = done, n
	}); err != nil {
		t.Fatal(err)
	}
	if last != total {
		t.Errorf("progress ended at %d/%d", last, total)
	}
	return r, en, multi
}

func TestRoutingByLanguage(t *testing.T) {
	r, en, multi := twoModels(t)
	ctx := context.Background()
	if en.Len() != 4 || multi.Len() != 1 {
		t.Fatalf("vectors: en %d, multi %d; want 4, 1", en.Len(), multi.Len())
	}
	if _, ok := multi.Vector("c4"); !ok {
		t.Error("the French chunk is not in the multilingual index")
	}
	for _, lang := range []string{"en", "", "fr", "de"} {
		if !r.Covers(lang) {
			t.Errorf("Covers(%q) = false", lang)
		}
	}
	if diff := cmp.Diff(map[string]int{"en-model": 4, "multi-model": 1}, r.Vectors()); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"en-model", "multi-model"}, r.Embedders()); diff != "" {
		t.Error(diff)
	}

	// A query reaches both models; each hit is scored in its own model's list.
	res, err := r.Search(ctx, "statistiques descriptives zebras", SearchOptions{Mode: ModeHybrid, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"en-model", "multi-model"}, res.Stats.Embedders); diff != "" {
		t.Errorf("embedders: %s", diff)
	}
	got := map[string]traced{}
	for _, h := range trace(t, res) {
		got[h.ChunkID] = h
	}
	for id, want := range map[string]struct{ model, foundBy string }{
		"c4": {"multi-model", FoundBoth}, // BM25 matches its words; it is the multi model's nearest
		"c1": {"en-model", FoundBoth},
		"c2": {"en-model", FoundBoth},
	} {
		h, ok := got[id]
		if !ok || h.Model != want.model || h.FoundBy != want.foundBy || h.DenseRank != 1 && id == "c4" {
			t.Errorf("%s: %+v, want model %s found by %s", id, h, want.model, want.foundBy)
		}
	}
	if h := got["c4"]; h.DenseScore <= 0 {
		t.Errorf("c4 has no cosine: %+v", h)
	}
	// Dense mode interleaves the models' lists by rank.
	res, err = r.Search(ctx, "statistiques descriptives zebras", SearchOptions{Mode: ModeDense, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 3 || trace(t, res)[0].DenseRank != 1 || trace(t, res)[1].DenseRank != 1 || res.Stats.DenseCandidates != 4 {
		t.Errorf("dense: %+v, stats %+v", res.Hits, res.Stats)
	}

	// A chunk re-added in another language moves to that language's model.
	moved := testChunks[3]
	moved.Lang = "en"
	if err := r.Add(ctx, []corpus.Chunk{moved}, nil); err != nil {
		t.Fatal(err)
	}
	if en.Len() != 5 || multi.Len() != 0 {
		t.Errorf("after the move: en %d, multi %d", en.Len(), multi.Len())
	}
	// Only the model holding vectors embeds the query.
	res, err = r.Search(ctx, "zebras", SearchOptions{Mode: ModeHybrid})
	if err != nil || len(res.Stats.Embedders) != 1 || res.Stats.Embedders[0] != "en-model" {
		t.Errorf("embedders with an empty multilingual index: %v, %v", res.Stats.Embedders, err)
	}
	if err := r.DeleteDoc(ctx, "d2"); err != nil || en.Len() != 3 {
		t.Errorf("DeleteDoc: %v, en %d", err, en.Len())
	}
	if err := r.AddEmbedded(ctx, testChunks[:1], [][]float32{make([]float32, 48)}); err == nil {
		t.Error("a vector of the wrong model's dimension was accepted")
	}
}

// TestRoutingFallback: with one English-only model, a French chunk still
// gets a vector (explicit dense searches rank it) but is not covered.
func TestRoutingFallback(t *testing.T) {
	lex, err := index.NewLexical()
	if err != nil {
		t.Fatal(err)
	}
	defer lex.Close()
	emb := newFakeEmbedder()
	dense := index.NewDense(emb.Dim())
	r, err := NewRouted(lex, []Space{{Embedder: emb, Dense: dense, Languages: []string{"en", ""}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Add(context.Background(), testChunks, nil); err != nil {
		t.Fatal(err)
	}
	if dense.Len() != len(testChunks) || r.Covers("fr") || !r.Covers("en") || !r.Covers("") {
		t.Errorf("fallback: %d vectors, covers fr %v", dense.Len(), r.Covers("fr"))
	}
	if _, err := NewRouted(lex, []Space{{Embedder: emb}}, Options{}); err == nil {
		t.Error("a space without a dense index: no error")
	}
}

func TestMergeSpaces(t *testing.T) {
	z := Profile{Fusion: FusionConvex, Norm: NormZScore, DenseWeight: 0.5}
	rrf := Profile{Fusion: FusionRRF, DenseWeight: 0.5}
	a := []*candidate{
		{id: "x", score: 2, hasDense: true, denseRank: 1, lexicalRank: 2},
		{id: "y", score: 1, lexicalRank: 1}, // no vector in a
		{id: "w", score: 0.5, lexicalRank: 3},
	}
	b := []*candidate{
		{id: "y", score: 1.5, hasDense: true, denseRank: 1, lexicalRank: 1},
		{id: "x", score: 0.1, lexicalRank: 2},
		{id: "w", score: 0.7, lexicalRank: 3}, // vector in neither: best score
	}
	out := mergeSpaces([]*space{{prof: z}, {prof: z}}, [][]*candidate{a, b}, "")
	if diff := cmp.Diff([]string{"x", "y", "w"}, ids(out)); diff != "" {
		t.Errorf("by score: %s", diff)
	}
	if out[0] != a[0] || out[1] != b[0] || out[2] != b[2] {
		t.Error("a chunk did not take its home list's candidate")
	}
	// Convex against RRF: by RRF of the home ranks, x (1st in a) and y (1st
	// in b) tie and break by BM25 rank.
	out = mergeSpaces([]*space{{prof: z}, {prof: rrf}}, [][]*candidate{a, b}, "")
	if diff := cmp.Diff([]string{"y", "x", "w"}, ids(out)); diff != "" {
		t.Errorf("by rank: %s", diff)
	}
	if want := 1.0 / (DefaultRRFK + 1); out[0].score != want {
		t.Errorf("RRF score %v, want %v", out[0].score, want)
	}
}

func ids(cands []*candidate) []string {
	var out []string
	for _, c := range cands {
		out = append(out, c.id)
	}
	return out
}

func TestDefaultMode(t *testing.T) {
	english := func(l string) bool { return l == "en" || l == "" }
	for _, tc := range []struct {
		covers func(string) bool
		langs  []string
		want   Mode
	}{
		{nil, []string{"en"}, ModeBM25},
		{english, []string{"en", ""}, ModeHybrid},
		{english, []string{"en", "fr"}, ModeBM25},
		{english, nil, ModeHybrid},
	} {
		if got := DefaultMode(tc.covers, tc.langs...); got != tc.want {
			t.Errorf("DefaultMode(covers=%v, %q) = %s, want %s", tc.covers != nil, tc.langs, got, tc.want)
		}
	}
}
