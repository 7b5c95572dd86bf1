package embed

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"vika/backend/assets"
	"vika/backend/assets/assetstest"
	"vika/backend/models"
	"vika/backend/onnx"
)

// modelsDir holds the reference outputs of the real model files, written
// by scripts/setup/model_golden.py: the token ids of the Hugging Face
// tokenizers library and the vectors of ONNX Runtime's Python package on
// the very files the box installs.
const modelsDir = "../../testdata/models"

// realGolden is one model's file of modelsDir.
type realGolden struct {
	Model           string `json:"model"`
	ONNX            string `json:"onnx"`
	ONNXSHA256      string `json:"onnx_sha256"`
	TokenizerSHA256 string `json:"tokenizer_sha256"`
	MaxTokens       int    `json:"max_tokens"`
	Embed           []struct {
		Text   string    `json:"text"`
		Kind   string    `json:"kind"` // passage or query
		IDs    []int64   `json:"ids"`
		Vector []float64 `json:"vector"`
	} `json:"embed"`
	Rerank []json.RawMessage `json:"rerank"`
	// Fuzz holds short random strings of the characters normalisers
	// treat specially, with the reference ids (no prefix, no cut).
	Fuzz []struct {
		Text string  `json:"text"`
		IDs  []int64 `json:"ids"`
	} `json:"fuzz"`
}

func readRealGoldens(t *testing.T) []realGolden {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(modelsDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []realGolden
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var g realGolden
		if err := json.Unmarshal(raw, &g); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, g)
	}
	return out
}

// checkGoldenFiles fails when the golden was made from other bytes than
// the installed files.
func checkGoldenFiles(t *testing.T, g realGolden, m models.Model) map[string]string {
	t.Helper()
	paths, err := models.Verify(models.Root(), m)
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]string{g.ONNX: g.ONNXSHA256, "tokenizer.json": g.TokenizerSHA256} {
		p, ok := paths[rel]
		if !ok {
			t.Fatalf("%s: the golden was made with %s, which this machine's registry entry does not use", m.Name, rel)
		}
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if sum, err := assets.FileSHA256(p, info); err != nil || sum != want {
			t.Fatalf("%s: %s has sha256 %s, the golden was made from %s: run scripts/setup/model_golden.py again", m.Name, rel, sum, want)
		}
	}
	if g.MaxTokens != m.MaxTokens {
		t.Fatalf("%s: golden cut at %d tokens, the registry at %d", m.Name, g.MaxTokens, m.MaxTokens)
	}
	return paths
}

// TestRealModels checks every embedder of the box on its real files
// against the references: the same token ids as the Rust tokenizer (French
// accents, ligatures, mathematics, runs of spaces, other scripts, inputs
// longer than the model takes), and vectors with cosine >= 0.9999 to ONNX
// Runtime's Python output pooled and normalised as the model card says,
// prefixes included.
func TestRealModels(t *testing.T) {
	n := 0
	for _, g := range readRealGoldens(t) {
		if len(g.Embed) == 0 {
			continue
		}
		n++
		t.Run(g.Model, func(t *testing.T) {
			m := assetstest.RequireBox(t, g.Model)
			checkGoldenFiles(t, g, m)
			o, err := BERTOptionsFor(models.Root(), m)
			if err != nil {
				t.Fatal(err)
			}
			e, err := LoadBERT(o)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			checkFuzz(t, g, e.Tokenizer())
			for _, c := range g.Embed {
				prefix := m.PassagePrefix
				if c.Kind == "query" {
					prefix = m.QueryPrefix
				}
				ids, err := e.Tokenizer().Encode(prefix+c.Text, m.MaxTokens)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(c.IDs, ids); diff != "" {
					t.Errorf("token ids of %q (-reference +vika):\n%s", short(c.Text), diff)
				}
				var emb Embedder = e
				if c.Kind == "query" {
					emb = e.ForQueries()
				}
				vs, err := emb.Embed(context.Background(), []string{c.Text})
				if err != nil {
					t.Fatal(err)
				}
				if cos := cosine64(vs[0], c.Vector); cos < 0.9999 {
					t.Errorf("vector of %q: cosine %.6f with the reference, want >= 0.9999", short(c.Text), cos)
				}
				if l := length(vs[0]); math.Abs(l-1) > 1e-4 {
					t.Errorf("vector of %q has length %.6f, want 1", short(c.Text), l)
				}
			}
		})
	}
	if n == 0 {
		t.Fatalf("no embedder golden in %s", modelsDir)
	}
}

// checkFuzz compares the ids of the golden's random strings.
func checkFuzz(t *testing.T, g realGolden, tok *onnx.BERTTokenizer) {
	t.Helper()
	if len(g.Fuzz) == 0 {
		t.Fatalf("%s: the golden has no fuzz cases: run scripts/setup/model_golden.py again", g.Model)
	}
	bad := 0
	for _, c := range g.Fuzz {
		if strings.TrimFunc(c.Text, func(r rune) bool { return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) }) == "" {
			continue // blank: Vika embeds no token of it (a zero vector), by design
		}
		ids, err := tok.Encode(c.Text, 0)
		if err != nil || !slices.Equal(ids, c.IDs) {
			if bad++; bad <= 5 {
				t.Errorf("ids of %+q: %v (err %v), reference %v", c.Text, ids, err, c.IDs)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d random strings tokenized otherwise than the reference", bad, len(g.Fuzz))
	}
}

func short(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "..."
	}
	return s
}

func cosine64(a []float32, b []float64) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * b[i]
		na += float64(a[i]) * float64(a[i])
		nb += b[i] * b[i]
	}
	return dot / math.Sqrt(na*nb)
}
