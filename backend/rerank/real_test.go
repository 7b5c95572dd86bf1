package rerank

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/assets"
	"vika/backend/assets/assetstest"
	"vika/backend/models"
)

// realGolden is a cross-encoder's reference outputs on its real files,
// written by scripts/setup/model_golden.py: the token ids and type ids of
// the Hugging Face tokenizers library for (query, passage) pairs cut at
// the registry's max_tokens (longest first), and the logits of ONNX
// Runtime's Python package on the same ONNX file.
type realGolden struct {
	Model           string `json:"model"`
	ONNX            string `json:"onnx"`
	ONNXSHA256      string `json:"onnx_sha256"`
	TokenizerSHA256 string `json:"tokenizer_sha256"`
	MaxTokens       int    `json:"max_tokens"`
	Fuzz            []struct {
		Text string  `json:"text"`
		IDs  []int64 `json:"ids"`
	} `json:"fuzz"`
	Rerank []struct {
		Query   string  `json:"query"`
		Passage string  `json:"passage"`
		IDs     []int64 `json:"ids"`
		TypeIDs []int64 `json:"type_ids"`
		Logit   float64 `json:"logit"`
	} `json:"rerank"`
}

// TestRealModels checks every cross-encoder of the box on its real files:
// the reference tokenizer's ids and type ids for each pair (French,
// ligatures, mathematics, a passage longer than the model takes), and its
// scores within 1e-4 of ONNX Runtime's Python output.
func TestRealModels(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/models/*.json")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var g realGolden
		if err := json.Unmarshal(raw, &g); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(g.Rerank) == 0 {
			continue
		}
		n++
		t.Run(g.Model, func(t *testing.T) {
			m := assetstest.RequireBox(t, g.Model)
			files, err := models.Verify(models.Root(), m)
			if err != nil {
				t.Fatal(err)
			}
			for rel, want := range map[string]string{g.ONNX: g.ONNXSHA256, "tokenizer.json": g.TokenizerSHA256} {
				info, err := os.Stat(files[rel])
				if err != nil {
					t.Fatalf("%s: the golden was made with %s: %v", m.Name, rel, err)
				}
				if sum, err := assets.FileSHA256(files[rel], info); err != nil || sum != want {
					t.Fatalf("%s: %s has sha256 %s, the golden was made from %s: run scripts/setup/model_golden.py again", m.Name, rel, sum, want)
				}
			}
			o, err := OptionsFor(models.Root(), m)
			if err != nil {
				t.Fatal(err)
			}
			c, err := LoadCrossEncoder(o)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for _, f := range g.Fuzz {
				if ids, err := c.tok.Encode(f.Text, 0); err != nil || !slices.Equal(ids, f.IDs) {
					t.Errorf("ids of %+q: %v (err %v), reference %v", f.Text, ids, err, f.IDs)
				}
			}
			for _, pc := range g.Rerank {
				ids, types, err := c.tok.EncodePair(pc.Query, pc.Passage, g.MaxTokens)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(pc.IDs, ids); diff != "" {
					t.Errorf("ids of (%q, ...) (-reference +vika):\n%s", pc.Query, diff)
				}
				if diff := cmp.Diff(pc.TypeIDs, types); diff != "" {
					t.Errorf("type ids of (%q, ...) (-reference +vika):\n%s", pc.Query, diff)
				}
				scores, err := c.Rerank(context.Background(), pc.Query, []string{pc.Passage})
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(scores[0]-pc.Logit) > 1e-4 {
					t.Errorf("score of (%q, ...) = %.6f, reference %.6f", pc.Query, scores[0], pc.Logit)
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no cross-encoder golden in testdata/models")
	}
}
