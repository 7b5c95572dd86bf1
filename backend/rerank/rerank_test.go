package rerank

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"vika/backend/assets"
	"vika/backend/assets/assetstest"
	"vika/backend/models"
	"vika/backend/models/modelstest"
)

// Shared fixtures (testdata/bert at the top of the repository, written by its gen.sh): a tiny BERT-shaped
// cross-encoder with seeded weights and the logits numpy computes for it.
const fixtures = "../../testdata/bert"

type golden struct {
	MaxLen int `json:"max_len"`
	Rerank []struct {
		Query   string  `json:"query"`
		Passage string  `json:"passage"`
		Logit   float64 `json:"logit"`
	} `json:"rerank"`
}

func readGolden(t *testing.T) golden {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(fixtures, "bert_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Rerank) == 0 {
		t.Fatal("no rerank cases")
	}
	return g
}

func ortLibrary(t *testing.T) string {
	t.Helper()
	return assetstest.Require(t, assets.ORT)
}

func tiny(t *testing.T, maxLen, batch int) *CrossEncoder {
	t.Helper()
	c, err := LoadCrossEncoder(Options{
		Name:      "tiny-cross",
		Library:   ortLibrary(t),
		Model:     filepath.Join(fixtures, "cross_encoder.onnx"),
		Tokenizer: filepath.Join(fixtures, "tokenizer.json"),
		MaxTokens: maxLen,
		BatchSize: batch,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestCrossEncoderGolden compares the logits of ONNX Runtime with numpy's,
// per query, in batches of several sizes (padding must not change a score).
func TestCrossEncoderGolden(t *testing.T) {
	g := readGolden(t)
	for _, batch := range []int{1, 2, 16} {
		c := tiny(t, g.MaxLen, batch)
		byQuery := map[string][]int{}
		var order []string
		for i, r := range g.Rerank {
			if _, ok := byQuery[r.Query]; !ok {
				order = append(order, r.Query)
			}
			byQuery[r.Query] = append(byQuery[r.Query], i)
		}
		for _, q := range order {
			var passages []string
			for _, i := range byQuery[q] {
				passages = append(passages, g.Rerank[i].Passage)
			}
			scores, err := c.Rerank(context.Background(), q, passages)
			if err != nil {
				t.Fatal(err)
			}
			if len(scores) != len(passages) {
				t.Fatalf("%d scores for %d passages", len(scores), len(passages))
			}
			for k, i := range byQuery[q] {
				if want := g.Rerank[i].Logit; math.Abs(scores[k]-want) > 1e-5*max(1, math.Abs(want)) {
					t.Errorf("batch %d: Rerank(%q, %q) = %v, numpy %v", batch, q, passages[k], scores[k], want)
				}
			}
		}
	}
}

func TestCrossEncoderEdges(t *testing.T) {
	c := tiny(t, 12, 4)
	if s, err := c.Rerank(context.Background(), "cat", nil); err != nil || len(s) != 0 {
		t.Errorf("Rerank(no passages) = %v, %v", s, err)
	}
	if s, err := c.Rerank(context.Background(), "", []string{"", "the cat"}); err != nil || len(s) != 2 {
		t.Errorf("Rerank(empty texts) = %v, %v", s, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Rerank(ctx, "cat", []string{"mat"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if Label(c) != "tiny-cross" {
		t.Errorf("Label = %q", Label(c))
	}
	c.Close()
	if _, err := c.Rerank(context.Background(), "cat", []string{"mat"}); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
	if _, err := LoadCrossEncoder(Options{Library: ortLibrary(t), Model: filepath.Join(fixtures, "encoder.onnx"),
		Tokenizer: filepath.Join(fixtures, "tokenizer.json")}); err == nil {
		t.Error("a model without logits loaded as a cross-encoder")
	}
}

// TestOpenNone: without an installed cross-encoder there is no reranker and
// the metrics label is "none".
func TestOpenNone(t *testing.T) {
	r, err := Open(t.TempDir())
	if err != nil || r != nil {
		t.Fatalf("Open(empty) = %v, %v; want nil, nil", r, err)
	}
	if Label(r) != None || None != "none" {
		t.Errorf("Label(nil) = %q", Label(r))
	}
}

// TestOpenInstalled installs the tiny cross-encoder under the registry name
// of the real one, through the downloader (trust on first download, as the
// registry's hashes are unverified), then Open finds and loads it.
func TestOpenInstalled(t *testing.T) {
	ortLibrary(t)
	m := models.Rerankers()[0]
	root := t.TempDir()
	modelstest.Install(t, root, m.Name, filepath.Join(fixtures, "cross_encoder.onnx"), filepath.Join(fixtures, "tokenizer.json"))
	r, err := Open(root)
	if err != nil || r == nil {
		t.Fatalf("Open = %v, %v", r, err)
	}
	defer r.Close()
	if Label(r) != m.Name {
		t.Errorf("Label = %q, want %q", Label(r), m.Name)
	}
	passages := []string{"photosynthesis turns light into energy.", "the cat sat on the mat."}
	got, err := r.Rerank(context.Background(), "what is photosynthesis?", passages)
	if err != nil {
		t.Fatal(err)
	}
	ref := tiny(t, m.MaxTokens, 1)
	want, err := ref.Rerank(context.Background(), "what is photosynthesis?", passages)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-6 {
			t.Errorf("score %d: %v, want %v", i, got[i], want[i])
		}
	}
}
