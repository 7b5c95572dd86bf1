package engine

import (
	"context"
	"slices"
	"testing"

	"vika/backend/assets/assetstest"
	"vika/backend/corpus"
	"vika/backend/models"
	"vika/backend/testpdf"
)

// TestBoxModels runs a session on the models the box installs (the data
// dir's, as the app finds them): English goes to bge-small-en-v1.5, French
// to multilingual-e5-small, and every answer is reranked by
// ms-marco-MiniLM-L-12-v2. A French question worded unlike its page is
// found by meaning, in a session of English and French documents, with a
// reranker score.
func TestBoxModels(t *testing.T) {
	for _, name := range []string{"bge-small-en-v1.5", "multilingual-e5-small", "ms-marco-MiniLM-L-12-v2"} {
		assetstest.RequireBox(t, name)
	}
	e := newEngine(t, Config{ModelsRoot: models.Root()})
	if got := e.EmbedderNames(); !slices.Equal(got, []string{"bge-small-en-v1.5", "multilingual-e5-small"}) {
		t.Fatalf("embedders %v, want bge-small-en-v1.5 then multilingual-e5-small", got)
	}
	if r, err := e.Reranker(); err != nil || r != "ms-marco-MiniLM-L-12-v2" {
		t.Fatalf("reranker %q (%v)", r, err)
	}
	mustAdd(t, e, "biologie.pdf", testpdf.Pages(
		testpdf.Page{Heading: "1 La photosynthèse", Body: "Les plantes vertes captent l'énergie lumineuse grâce à la chlorophylle " +
			"et fabriquent du glucose à partir du dioxyde de carbone et de l'eau, en rejetant du dioxygène."},
		testpdf.Page{Heading: "2 Les marées", Body: "L'attraction de la Lune et du Soleil soulève les océans : deux fois par jour, " +
			"la mer monte puis descend le long des côtes de la Manche et de l'Atlantique."},
	))
	mustAdd(t, e, "stats.pdf", paperA)
	ctx := context.Background()
	// within is how far the answer page may rank: the English
	// cross-encoder reorders French passages too (it helps the French
	// student questions at 5 and 8 passages, not at 1: measurements.md),
	// so the French page need only be among the first two.
	for _, c := range []struct {
		question, file string
		page, within   int
	}{
		{"Comment les végétaux transforment-ils la lumière du jour en sucre ?", "biologie.pdf", 1, 2},
		{"Which striped animal lives on the African grasslands?", "stats.pdf", 2, 1},
	} {
		hits, err := hitsOf(ctx, e, c.question, 3)
		if err != nil || len(hits) == 0 {
			t.Fatalf("%q: %v, %v", c.question, hits, err)
		}
		i := slices.IndexFunc(hits, func(h corpus.Hit) bool { return h.File == c.file && h.Page == c.page })
		if i < 0 || i >= c.within {
			t.Errorf("%q: %s p.%d not among the first %d: %v", c.question, c.file, c.page, c.within, labels(hits))
			continue
		}
		h := hits[i]
		if (h.FoundBy != "dense" && h.FoundBy != "both") || h.DenseScore == nil || h.RerankScore == nil {
			t.Errorf("%q: %s found by %s (cosine %v, rerank %v), want by meaning, reranked", c.question, h.Label, h.FoundBy, h.DenseScore, h.RerankScore)
		}
		if h.Band == "" {
			t.Errorf("%q: %s has no cosine band", c.question, h.Label)
		}
	}
}
