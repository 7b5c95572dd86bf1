package onnx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/sugarme/tokenizer"
	"github.com/sugarme/tokenizer/pretrained"
	"golang.org/x/text/unicode/norm"
)

// BERTTokenizer encodes text for the BERT family (WordPiece, and the
// SentencePiece-unigram tokenizer.json of XLM-R models) through the pure-Go
// github.com/sugarme/tokenizer, with two workarounds for its known gaps
// (golden ids from npm @huggingface/tokenizers check the result):
//
//   - it reads `"strip_accents": null` as false, where the Rust crate follows
//     `lowercase`: LoadBERTTokenizer rewrites the null to the lowercase value
//     and, when accents are stripped, NFD-normalises the input first (sugarme
//     removes combining marks but does not decompose);
//   - its clean_text keeps non-ASCII spaces inside words (a no-break space
//     glues two words into one unknown token): Vika cleans the text itself
//     (cleanText) and turns sugarme's off;
//   - it ignores the Replace-regex normaliser of some XLM-R files (runs of
//     spaces become one): Encode collapses them itself;
//   - its Precompiled normaliser (XLM-R's nmt_nfkc map) panics on rules
//     that change a text's length (a letter and a combining accent, as
//     some PDFs give accents; a zero-width joiner deleted) and applies
//     others wrongly: Vika applies the map itself, as the Rust crate does
//     (precompiled.go), and removes it from what sugarme reads. A panic
//     of sugarme's that is left is returned as an error.
//
// The file's own padding and truncation settings are ignored (see
// ReadBERTTokenizer).
//
// Truncation is done here, not by sugarme: the head of a text is kept and the
// special tokens are always present. It is safe for concurrent use.
type BERTTokenizer struct {
	mu sync.Mutex
	tk *tokenizer.Tokenizer // guarded by mu (sugarme does not document concurrent use)

	clean bool         // BertNormalizer's clean_text, applied by Vika (cleanText)
	nfd   bool         // decompose before encoding (accents are stripped)
	pre   *precompiled // the file's Precompiled normaliser, applied by Vika (nil: none)
	// meta is the Metaspace pre-tokenizer's replacement (▁) when Vika
	// applies it (a Unigram model): "" when sugarme does.
	meta       string
	metaPrefix bool // prepend meta to a text not starting with it
	collapse   bool // collapse runs of spaces
	first      int64
	last       int64 // the special tokens around a single text ([CLS] ... [SEP])
	pad        int64
}

var spaceRun = regexp.MustCompile(` {2,}`)

// LoadBERTTokenizer reads a Hugging Face tokenizer.json.
func LoadBERTTokenizer(path string) (*BERTTokenizer, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := ReadBERTTokenizer(raw)
	if err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w", path, err)
	}
	return t, nil
}

// ReadBERTTokenizer is LoadBERTTokenizer over the file's contents.
func ReadBERTTokenizer(raw []byte) (*BERTTokenizer, error) {
	var cfg map[string]any
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, err
	}
	t := &BERTTokenizer{}
	// The real files carry the padding and truncation their exporters used
	// (all-MiniLM-L6-v2: pad every text to 128 tokens, cut at 128). Vika
	// cuts at the registry's max_tokens and pads per batch itself: left in,
	// sugarme would pad a single text and cut it short.
	delete(cfg, "padding")
	delete(cfg, "truncation")
	if n, ok := cfg["normalizer"].(map[string]any); ok {
		rest, charsmap := takePrecompiled(n)
		if charsmap != "" {
			pre, err := newPrecompiled(charsmap)
			if err != nil {
				return nil, err
			}
			t.pre = pre
		}
		if rest == nil {
			cfg["normalizer"] = nil
		} else {
			t.patchNormalizer(rest)
		}
	}
	t.takeMetaspace(cfg)
	patched, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	if t.tk, err = pretrained.FromReader(bytes.NewReader(patched)); err != nil {
		return nil, err
	}
	enc, err := t.tk.EncodeSingle("a", true)
	if err != nil {
		return nil, err
	}
	ids := enc.GetIds()
	if len(ids) < 3 {
		return nil, fmt.Errorf("no special tokens around a single text (got %d ids for %q)", len(ids), "a")
	}
	t.first, t.last = int64(ids[0]), int64(ids[len(ids)-1])
	for _, p := range []string{"[PAD]", "<pad>"} {
		if id, ok := t.tk.TokenToId(p); ok {
			t.pad = int64(id)
			break
		}
	}
	return t, nil
}

// patchNormalizer applies the workarounds to a normalizer and its children.
func (t *BERTTokenizer) patchNormalizer(n map[string]any) {
	switch n["type"] {
	case "BertNormalizer":
		if n["clean_text"] == true {
			t.clean, n["clean_text"] = true, false
		}
		if n["strip_accents"] == nil {
			n["strip_accents"] = n["lowercase"] == true
		}
		if n["strip_accents"] == true {
			t.nfd = true
		}
	case "StripAccents":
		t.nfd = true
	case "Replace":
		if p, ok := n["pattern"].(map[string]any); ok && p["Regex"] != nil && n["content"] == " " {
			t.collapse = true
		}
	case "Sequence":
		children, _ := n["normalizers"].([]any)
		for _, c := range children {
			if m, ok := c.(map[string]any); ok {
				t.patchNormalizer(m)
			}
		}
	}
}

// takeMetaspace takes the Metaspace pre-tokenizer of a Unigram model out
// of cfg, to apply it in content: sugarme's Unigram scans the whole
// 250,000-piece vocabulary for its lowest score on every word it is given
// (about 0.1 s a passage with XLM-R's), and the Metaspace pre-tokenizer
// gives it every word apart. Given the whole text, spaces already turned
// into ▁, it scans once; the pieces are the same, since no piece of such
// a vocabulary holds a ▁ past its first character (the fuzzed goldens of
// TestRealModels check the ids).
func (t *BERTTokenizer) takeMetaspace(cfg map[string]any) {
	pt, _ := cfg["pre_tokenizer"].(map[string]any)
	model, _ := cfg["model"].(map[string]any)
	if pt == nil || model == nil || pt["type"] != "Metaspace" || model["type"] != "Unigram" {
		return
	}
	r, _ := pt["replacement"].(string)
	if r == "" {
		return
	}
	prefix := pt["add_prefix_space"] == true
	if s, ok := pt["prepend_scheme"].(string); ok {
		prefix = s == "always" || s == "first"
	}
	t.meta, t.metaPrefix = r, prefix
	cfg["pre_tokenizer"] = nil
}

// cleanText is BertNormalizer's clean_text as the Rust crate does it: NUL,
// U+FFFD and every character of the categories Other (control, format,
// private use, surrogate, unassigned; tab and line breaks aside) go, every
// White_Space character becomes a space. sugarme's leaves non-ASCII spaces
// (no-break, ideographic) inside words, which then read as unknown.
func cleanText(text string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == ' ':
			return ' '
		case r == 0 || r == utf8.RuneError || unicode.Is(unicode.C, r):
			return -1
		case unicode.IsSpace(r):
			return ' '
		case !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z):
			return -1 // unassigned
		}
		return r
	}, text)
}

// PadID is the id of the padding token (0 when the vocabulary has none).
func (t *BERTTokenizer) PadID() int64 { return t.pad }

// content returns the ids of text without special tokens. A panic of
// sugarme's (on text that no test foresaw: the text comes from hostile
// PDFs) is returned as an error.
func (t *BERTTokenizer) content(text string) (ids []int64, err error) {
	if t.clean {
		text = cleanText(text)
	}
	if t.nfd {
		text = norm.NFD.String(text)
	}
	if t.pre != nil {
		text = t.pre.normalize(text)
	}
	defer func() {
		if r := recover(); r != nil {
			ids, err = nil, fmt.Errorf("tokenizer: %v", r)
		}
	}()
	if t.collapse {
		text = spaceRun.ReplaceAllString(text, " ")
	}
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	if t.meta != "" {
		text = strings.ReplaceAll(text, " ", t.meta)
		if t.metaPrefix && !strings.HasPrefix(text, t.meta) {
			text = t.meta + text
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	enc, err := t.tk.EncodeSingle(text, false)
	if err != nil {
		return nil, err
	}
	ids = make([]int64, len(enc.GetIds()))
	for i, id := range enc.GetIds() {
		ids[i] = int64(id)
	}
	return ids, nil
}

// Encode returns the ids of text with its special tokens, at most maxLen of
// them (maxLen <= 0: no limit); a longer text keeps its head.
func (t *BERTTokenizer) Encode(text string, maxLen int) ([]int64, error) {
	ids, err := t.content(text)
	if err != nil {
		return nil, err
	}
	if maxLen > 0 && len(ids) > maxLen-2 {
		ids = ids[:max(0, maxLen-2)]
	}
	out := make([]int64, 0, len(ids)+2)
	out = append(out, t.first)
	out = append(out, ids...)
	return append(out, t.last), nil
}

// EncodePair returns the ids and token type ids of the pair (a, b) in BERT's
// layout, [CLS] a [SEP] b [SEP] with types 0 for the first part and 1 for the
// second, at most maxLen ids (maxLen <= 0: no limit). A long pair is cut
// longest-first, as transformers does: the last token of the longer part (of
// b on a tie) goes until the pair fits.
func (t *BERTTokenizer) EncodePair(a, b string, maxLen int) (ids, types []int64, err error) {
	x, err := t.content(a)
	if err != nil {
		return nil, nil, err
	}
	y, err := t.content(b)
	if err != nil {
		return nil, nil, err
	}
	if maxLen > 0 {
		budget := max(0, maxLen-3)
		for len(x)+len(y) > budget {
			if len(x) > len(y) {
				x = x[:len(x)-1]
			} else {
				y = y[:len(y)-1]
			}
		}
	}
	n := len(x) + len(y) + 3
	ids = make([]int64, 0, n)
	ids = append(ids, t.first)
	ids = append(ids, x...)
	ids = append(ids, t.last)
	ids = append(ids, y...)
	ids = append(ids, t.last)
	types = make([]int64, n)
	for i := len(x) + 2; i < n; i++ {
		types[i] = 1
	}
	return ids, types, nil
}
