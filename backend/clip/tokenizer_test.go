package clip

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vika/backend/models"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "clip", name) }

// TestTokenizerGolden: the ids of npm @huggingface/tokenizers for the tiny
// CLIP-style tokenizer.json (testdata/clip/gen.sh).
func TestTokenizerGolden(t *testing.T) {
	tk, err := LoadTokenizer(fixture("tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Single []struct {
			Text string  `json:"text"`
			IDs  []int64 `json:"ids"`
		} `json:"single"`
	}
	readJSON(t, fixture("ids_golden.json"), &g)
	if len(g.Single) < 8 {
		t.Fatalf("only %d golden texts", len(g.Single))
	}
	for _, c := range g.Single {
		if got := tk.Encode(c.Text, 0); !slices.Equal(got, c.IDs) {
			t.Errorf("Encode(%q) = %v, want %v", c.Text, got, c.IDs)
		}
	}
	// Truncation keeps the head and the end token.
	long := g.Single[1]
	got := tk.Encode(long.Text, 5)
	want := append(slices.Clone(long.IDs[:4]), long.IDs[len(long.IDs)-1])
	if !slices.Equal(got, want) {
		t.Errorf("Encode(%q, 5) = %v, want %v", long.Text, got, want)
	}
}

// TestTokenizerMergeArrays: merges written as [a, b] pairs (newer
// tokenizer.json files) read the same as "a b" strings.
func TestTokenizerMergeArrays(t *testing.T) {
	raw, err := os.ReadFile(fixture("tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	model := doc["model"].(map[string]any)
	var pairs [][2]string
	for _, m := range model["merges"].([]any) {
		p, err := mergePair(json.RawMessage(`"` + m.(string) + `"`))
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, p)
	}
	model["merges"] = pairs
	raw2, _ := json.Marshal(doc)
	a, _ := ReadTokenizer(raw)
	b, err := ReadTokenizer(raw2)
	if err != nil {
		t.Fatal(err)
	}
	text := "the bar chart of the error rate, plotting"
	if x, y := a.Encode(text, 0), b.Encode(text, 0); !slices.Equal(x, y) || len(x) < 5 {
		t.Errorf("strings %v, arrays %v", x, y)
	}
}

func TestTokenizerRejects(t *testing.T) {
	for name, raw := range map[string]string{
		"not json":    `{`,
		"wordpiece":   `{"model": {"type": "WordPiece", "vocab": {"a": 0}}}`,
		"no suffix":   `{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`,
		"bad merge":   `{"model": {"type": "BPE", "end_of_word_suffix": "</w>", "vocab": {"a": 0}, "merges": ["abc"]}}`,
		"no specials": `{"model": {"type": "BPE", "end_of_word_suffix": "</w>", "vocab": {"a": 0}, "merges": []}}`,
	} {
		if _, err := ReadTokenizer([]byte(raw)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestRealTokenizer checks the published example against CLIP's own
// tokenizer.json when the model is installed.
func TestRealTokenizer(t *testing.T) {
	m, err := models.Lookup(Name)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := LoadTokenizer(m.FilePath(models.Root(), "tokenizer.json"))
	if err != nil {
		t.Skipf("CLIP is not installed (%v): `vika models download %s` fetches it from Hugging Face, which this machine cannot reach, so the published example is not checked here; TestTokenizerGolden checks the same code against npm @huggingface/tokenizers", err, Name)
	}
	want := []int64{49406, 320, 1125, 539, 320, 2368, 49407}
	if got := tk.Encode("a photo of a cat", 0); !slices.Equal(got, want) {
		t.Errorf("Encode = %v, want %v", got, want)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}
