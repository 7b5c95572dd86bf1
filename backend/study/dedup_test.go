package study

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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

// TestCardsMerge: the English duplicate pairs of the fixture, one card
// citing a.pdf and its twin b.pdf, among the distinct neighbours (from
// c.pdf), merged with bge-small-en-v1.5: no neighbour is lost, most twins
// fold into their first card, which then also cites the twin's page; an
// unverified card gives its place to a verified twin.
func TestCardsMerge(t *testing.T) {
	eng := modelEngine(t, "bge-small-en-v1.5")
	s := New(eng, nil)
	mk := func(doc string, page int, qa [2]string, verified bool) Card {
		label := "[" + doc + ".pdf p." + strconv.Itoa(page) + "]"
		return Card{Question: qa[0], Answer: qa[1] + " " + label, Label: label, DocID: doc, Page: page, Check: Check{Verified: verified}}
	}
	var cards []Card
	twins := 0
	for i, p := range cardPairs(t) {
		switch {
		case p.Lang != "en":
		case p.Dup:
			twins++
			cards = append(cards, mk("a", i+1, p.A, i != 0), mk("b", i+1, p.B, true))
		default:
			cards = append(cards, mk("c", i+1, p.B, true))
		}
	}
	out, merged, how, model, err := s.merge(context.Background(), cards, "en")
	if err != nil || how != DedupEmbedding || model != "bge-small-en-v1.5" {
		t.Fatalf("merge: %s %q %v", how, model, err)
	}
	if merged != len(cards)-len(out) || merged*3 < twins*2 {
		t.Errorf("%d of %d twins merged, %d cards left of %d", merged, twins, len(out), len(cards))
	}
	for _, c := range cards {
		kept := slices.ContainsFunc(out, func(o Card) bool {
			return (o.DocID == c.DocID && o.Page == c.Page) || (c.DocID == "a" && slices.Contains(o.Also, Cited{Label: c.Label, DocID: c.DocID, Page: c.Page, Verified: c.Check.Verified}))
		})
		if c.DocID != "b" && !kept {
			t.Errorf("card %s p.%d lost", c.DocID, c.Page)
		}
	}
	for _, c := range out {
		switch {
		case len(c.Also) == 0:
		case len(c.Also) == 1 && c.Also[0].Page == c.Page && c.Also[0].DocID != c.DocID:
		default:
			t.Errorf("card %s p.%d also cites %+v", c.DocID, c.Page, c.Also)
		}
		if c.Page == 1 && len(c.Also) > 0 && (c.DocID != "b" || c.Also[0].DocID != "a") {
			t.Errorf("the unverified card kept its place over its verified twin: %+v", c)
		}
	}
	t.Logf("%d cards: %d twins of %d merged", len(cards), merged, twins)
}

// TestCardsMergeText: without an embedding model only cards with the same
// question and answer merge, whatever page each cites; the deck says so.
func TestCardsMergeText(t *testing.T) {
	eng, _, _ := twoPDFs(t)
	s := New(eng, nil)
	qa := [2]string{"What is self-attention?", "An attention mechanism relating different positions of a single sequence."}
	cards := []Card{
		{Question: qa[0], Answer: qa[1] + " [a.pdf p.2]", DocID: "a", Page: 2, Label: "[a.pdf p.2]"},
		{Question: "Define self-attention.", Answer: qa[1] + " [a.pdf p.3]", DocID: "a", Page: 3, Label: "[a.pdf p.3]"},
		{Question: " what is  SELF-attention", Answer: qa[1] + " [b.pdf p.5]", DocID: "b", Page: 5, Label: "[b.pdf p.5]"},
	}
	out, merged, how, model, err := s.merge(context.Background(), cards, "en")
	if err != nil || how != DedupText || model != "" || merged != 1 || len(out) != 2 {
		t.Fatalf("merge: %d merged, %d left, %s %q %v", merged, len(out), how, model, err)
	}
	if len(out[0].Also) != 1 || out[0].Also[0].DocID != "b" || out[0].Also[0].Page != 5 {
		t.Errorf("first card also cites %+v", out[0].Also)
	}
}

// failingEmbed is a library whose embedding model fails.
type failingEmbed struct{ Docs }

func (failingEmbed) Embed(context.Context, string, []string) (string, [][]float32, error) {
	return "", nil, errors.New("embedding model crashed")
}

// TestCardsMergeEmbedFails: an embedding model that fails does not lose
// the deck: its cards merge on text only and the deck says why
// (DedupTextFallback); a cancelled merge still fails.
func TestCardsMergeEmbedFails(t *testing.T) {
	eng, _, _ := twoPDFs(t)
	s := New(failingEmbed{eng}, nil)
	qa := [2]string{"What is self-attention?", "An attention mechanism relating different positions of a single sequence."}
	cards := []Card{
		{Question: qa[0], Answer: qa[1] + " [a.pdf p.2]", DocID: "a", Page: 2, Label: "[a.pdf p.2]"},
		{Question: "Define self-attention.", Answer: qa[1] + " [a.pdf p.3]", DocID: "a", Page: 3, Label: "[a.pdf p.3]"},
		{Question: qa[0], Answer: qa[1] + " [b.pdf p.5]", DocID: "b", Page: 5, Label: "[b.pdf p.5]"},
	}
	out, merged, how, model, err := s.merge(context.Background(), cards, "en")
	if err != nil || how != DedupTextFallback || model != "" || merged != 1 || len(out) != 2 {
		t.Fatalf("merge: %d merged, %d left, %s %q %v", merged, len(out), how, model, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, _, _, err := s.merge(ctx, cards, "en"); err == nil {
		t.Error("a cancelled merge did not fail")
	}
}
