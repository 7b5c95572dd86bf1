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

// TestBERTTokenizerIgnoresFilePadding: the real all-MiniLM-L6-v2
// tokenizer.json pads every text to 128 tokens and cuts at 128. Read as
// given, a single text came back padded (and its last special token read
// as [PAD]); the file's padding and truncation must not change the ids.
func TestBERTTokenizerIgnoresFilePadding(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(bertDir, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["padding"] = map[string]any{"strategy": map[string]any{"Fixed": 16}, "direction": "Right",
		"pad_to_multiple_of": nil, "pad_id": 0, "pad_type_id": 0, "pad_token": "[PAD]"}
	cfg["truncation"] = map[string]any{"max_length": 4, "strategy": "LongestFirst", "stride": 0}
	padded, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := ReadBERTTokenizer(raw)
	if err != nil {
		t.Fatal(err)
	}
	withPadding, err := ReadBERTTokenizer(padded)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"the cat sat on the mat", "enzyme kinetics of protein folding in the cell"} {
		want, err := plain.Encode(text, 64)
		if err != nil {
			t.Fatal(err)
		}
		got, err := withPadding.Encode(text, 64)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Encode(%q) with the file's padding (-plain +padded):\n%s", text, diff)
		}
	}
}
