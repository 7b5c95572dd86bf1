package study

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vika/backend/assets/assetstest"
	"vika/backend/engine"
	"vika/backend/models"
)

// cardPairs reads testdata/study/card_pairs.json.
func cardPairs(t *testing.T) []struct {
	Lang string    `json:"lang"`
	Dup  bool      `json:"dup"`
	A    [2]string `json:"a"`
	B    [2]string `json:"b"`
} {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "study", "card_pairs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Pairs []struct {
			Lang string    `json:"lang"`
			Dup  bool      `json:"dup"`
			A    [2]string `json:"a"`
			B    [2]string `json:"b"`
		} `json:"pairs"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f.Pairs
}

// modelEngine is a session embedding every language with the model name
// (the one merge would be given), or skips when it is not installed.
func modelEngine(t *testing.T, name string) *engine.Engine {
	t.Helper()
	if m, err := models.Lookup(name); err == nil && slices.Contains([]string{"bge-small-en-v1.5", "multilingual-e5-small"}, name) {
		assetstest.RequireBox(t, m.Name)
	}
	t.Setenv("VIKA_EMBED_MODEL_EN", name)
	t.Setenv("VIKA_EMBED_MODEL_MULTI", name)
	eng, err := engine.New(context.Background(), engine.Config{ModelsRoot: models.Root()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if got := eng.EmbedderNames(); len(got) == 0 || got[0] != name {
		t.Skipf("%s is not installed (embedders %v)", name, got)
	}
	return eng
}

// TestDuplicateCosine measures, for each model of DuplicateCosine, the
// cosine of the duplicate and non-duplicate card pairs of the fixture, as
// merge computes it, and checks that the threshold separates them.
func TestDuplicateCosine(t *testing.T) {
	pairs := cardPairs(t)
	for name, threshold := range DuplicateCosine {
		t.Run(name, func(t *testing.T) {
			eng := modelEngine(t, name)
			for _, lang := range []string{"en", "fr"} {
				var texts, answers []string
				var dup []bool
				for _, p := range pairs {
					if p.Lang == lang {
						texts = append(texts, p.A[0]+"\n"+p.A[1], p.B[0]+"\n"+p.B[1])
						answers = append(answers, p.A[1], p.B[1])
						dup = append(dup, p.Dup)
					}
				}
				model, vecs, err := eng.Embed(context.Background(), lang, texts)
				if err != nil || model != name || len(vecs) != len(texts) {
					t.Fatalf("%s: model %q, %d vectors, %v", lang, model, len(vecs), err)
				}
				var dups, others []float64
				caught, wrong := 0, 0
				for i, d := range dup {
					c := cosine(vecs[2*i], vecs[2*i+1])
					merged := duplicate(c, threshold, answers[2*i], answers[2*i+1])
					if d {
						dups = append(dups, c)
						caught += b2i(merged)
					} else {
						others = append(others, c)
						if merged {
							wrong++
							t.Errorf("%s distinct pair %d (%q): cosine %.3f >= %.2f, merged", lang, i, texts[2*i][:40], c, threshold)
						}
					}
				}
				// A duplicate left is a card twice; a distinct card merged is a
				// card lost: the threshold merges no distinct pair and most
				// duplicates.
				if caught*3 < len(dups)*2 {
					t.Errorf("%s: %d of %d duplicate pairs merged at %.2f", lang, caught, len(dups), threshold)
				}
				slices.Sort(dups)
				slices.Sort(others)
				t.Logf("%s %s at %.2f: %d of %d duplicates merged, %d of %d distinct pairs; duplicates' cosines %.3f, distinct pairs' %.3f",
					name, lang, threshold, caught, len(dups), wrong, len(others), dups, others)
			}
		})
	}
}
