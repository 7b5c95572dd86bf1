package onnx

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bertDir holds the shared tiny BERT fixtures (written by its gen.sh): a
// WordPiece tokenizer.json and token ids from npm @huggingface/tokenizers.
const bertDir = "../../testdata/bert"

type idsGolden struct {
	MaxLen int `json:"max_len"`
	Single []struct {
		Text string  `json:"text"`
		IDs  []int64 `json:"ids"`
	} `json:"single"`
	Pair []struct {
		Query   string  `json:"query"`
		Passage string  `json:"passage"`
		IDs     []int64 `json:"ids"`
		TypeIDs []int64 `json:"type_ids"`
	} `json:"pair"`
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(bertDir, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

func tinyTokenizer(t *testing.T) *BERTTokenizer {
	t.Helper()
	tok, err := LoadBERTTokenizer(filepath.Join(bertDir, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestBERTTokenizerGolden compares sugarme (with the workarounds) with npm
// @huggingface/tokenizers: accents, case, whitespace runs, subwords, unknowns.
func TestBERTTokenizerGolden(t *testing.T) {
	var g idsGolden
	readJSON(t, "ids_golden.json", &g)
	tok := tinyTokenizer(t)
	for _, c := range g.Single {
		got, err := tok.Encode(c.Text, 0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.IDs, got); diff != "" {
			t.Errorf("Encode(%q) differs from @huggingface/tokenizers (-js +go):\n%s", c.Text, diff)
		}
	}
	for _, c := range g.Pair {
		ids, types, err := tok.EncodePair(c.Query, c.Passage, 0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.IDs, ids); diff != "" {
			t.Errorf("EncodePair(%q, %q) ids (-js +go):\n%s", c.Query, c.Passage, diff)
		}
		if diff := cmp.Diff(c.TypeIDs, types); diff != "" {
			t.Errorf("EncodePair(%q, %q) type ids (-js +go):\n%s", c.Query, c.Passage, diff)
		}
	}
}

func TestBERTTokenizerWorkarounds(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(bertDir, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := ReadBERTTokenizer(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !tok.nfd {
		t.Error("strip_accents null with lowercase true should strip accents")
	}
	var cfg map[string]any
	_ = json.Unmarshal(raw, &cfg)
	cfg["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{
		map[string]any{"type": "Replace", "pattern": map[string]any{"Regex": " {2,}"}, "content": " "},
		map[string]any{"type": "Lowercase"},
	}}
	patched, _ := json.Marshal(cfg)
	if tok, err = ReadBERTTokenizer(patched); err != nil {
		t.Fatal(err)
	}
	if !tok.collapse || tok.nfd {
		t.Errorf("Replace regex: collapse %v nfd %v, want true false", tok.collapse, tok.nfd)
	}
	if _, err := ReadBERTTokenizer([]byte("{")); err == nil {
		t.Error("bad JSON accepted")
	}
}
