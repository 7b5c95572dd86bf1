package embed

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"vika/backend/assets"
)

//go:generate bash testdata/golden/gen.sh

type tokenCase struct {
	Text string  `json:"text"`
	IDs  []int64 `json:"ids"`
}

// tokenizerGolden is testdata/tokenizer_golden.json, written by
// testdata/golden/gen.sh from the original JavaScript tokenizer.
type tokenizerGolden struct {
	Cases []tokenCase `json:"cases"`
	Tiny  struct {
		Vocab json.RawMessage `json:"vocab"`
		Cases []tokenCase     `json:"cases"`
	} `json:"tiny"`
}

func loadTokenizerGolden(t *testing.T) tokenizerGolden {
	t.Helper()
	raw, err := os.ReadFile("testdata/tokenizer_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g tokenizerGolden
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) < 20 || len(g.Tiny.Cases) == 0 {
		t.Fatalf("golden file has %d + %d cases", len(g.Cases), len(g.Tiny.Cases))
	}
	return g
}

func compareIDs(t *testing.T, tok *Tokenizer, cases []tokenCase) {
	t.Helper()
	for _, c := range cases {
		got := tok.Encode(c.Text)
		if diff := cmp.Diff(c.IDs, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Encode(%q) differs from JavaScript (-js +go):\n%s", c.Text, diff)
		}
	}
}

// TestTokenizerQuirks runs the JavaScript algorithm's corner cases on a tiny
// vocabulary (no assets needed).
func TestTokenizerQuirks(t *testing.T) {
	g := loadTokenizerGolden(t)
	tok, err := ReadTokenizer(bytes.NewReader(g.Tiny.Vocab))
	if err != nil {
		t.Fatal(err)
	}
	compareIDs(t, tok, g.Tiny.Cases)
}

// TestTokenizerGolden compares with the JavaScript tokenizer on the real
// USE-lite vocabulary.
func TestTokenizerGolden(t *testing.T) {
	g := loadTokenizerGolden(t)
	vocab := requireAsset(t, assets.USELiteVocab)
	tok, err := LoadTokenizer(vocab)
	if err != nil {
		t.Fatal(err)
	}
	if tok.VocabSize() != 8000 {
		t.Errorf("VocabSize = %d, want 8000", tok.VocabSize())
	}
	compareIDs(t, tok, g.Cases)
}

func TestReadTokenizerErrors(t *testing.T) {
	for _, in := range []string{`{}`, `[["a", 0]]`, `[1,2,3,4,5,6,7]`,
		`[["a",0],["b",0],["c",0],["d",0],["e",0],["f",0],["g","x"]]`} {
		if _, err := ReadTokenizer(strings.NewReader(in)); err == nil {
			t.Errorf("ReadTokenizer(%s) succeeded", in)
		}
	}
}

func BenchmarkTokenize(b *testing.B) {
	tok, err := LoadTokenizer(requireAsset(b, assets.USELiteVocab))
	if err != nil {
		b.Fatal(err)
	}
	texts := benchTexts(32)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range texts {
			tok.Encode(s)
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "docs/s")
}
