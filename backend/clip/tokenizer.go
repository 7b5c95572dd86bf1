package clip

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"
)

// MaxTokens is CLIP's context length, its two special tokens included.
const MaxTokens = 77

// defaultSplit is CLIP's pre-tokenizer pattern: a word of letters, one
// digit, a run of other visible characters, English contractions. The
// file's own Split pattern replaces it when it has one.
const defaultSplit = `'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+`

var whitespace = regexp.MustCompile(`\s+`)

// Tokenizer is CLIP's byte-level BPE text encoder, read from a Hugging Face
// tokenizer.json whose model is BPE with an end-of-word suffix (`</w>`):
// the text is NFC-normalised, its whitespace runs become one space and it
// is lower-cased; the split pattern cuts it into words, each word's UTF-8
// bytes become GPT-2's printable byte symbols, the last one with the
// suffix, and the merges join neighbours, lowest rank first. The start and
// end tokens go around. Golden ids from npm @huggingface/tokenizers check
// it. It is safe for concurrent use.
type Tokenizer struct {
	vocab  map[string]int64
	ranks  map[[2]string]int // merge rank by pair
	suffix string
	split  *regexp.Regexp
	unk    int64 // id of a symbol missing from the vocabulary; -1: none
	start  int64
	end    int64

	mu    sync.Mutex
	cache map[string][]int64 // ids by word; guarded by mu
}

// maxCached bounds the word cache.
const maxCached = 10_000

// LoadTokenizer reads a tokenizer.json.
func LoadTokenizer(path string) (*Tokenizer, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := ReadTokenizer(raw)
	if err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w", path, err)
	}
	return t, nil
}

type tokenizerFile struct {
	Model struct {
		Type      string            `json:"type"`
		Vocab     map[string]int64  `json:"vocab"`
		Merges    []json.RawMessage `json:"merges"`
		Suffix    string            `json:"end_of_word_suffix"`
		UnkToken  *string           `json:"unk_token"`
		Prefix    string            `json:"continuing_subword_prefix"`
		ByteFalls bool              `json:"byte_fallback"`
	} `json:"model"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
	Post         struct {
		Type string `json:"type"`
		Cls  []any  `json:"cls"`
		Sep  []any  `json:"sep"`
	} `json:"post_processor"`
}

// ReadTokenizer is LoadTokenizer over the file's contents.
func ReadTokenizer(raw []byte) (*Tokenizer, error) {
	var f tokenizerFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, err
	}
	m := f.Model
	if m.Type != "BPE" {
		return nil, fmt.Errorf("model type %q: want BPE", m.Type)
	}
	if m.Suffix == "" || m.Prefix != "" {
		return nil, fmt.Errorf("not a CLIP tokenizer: end_of_word_suffix %q, continuing_subword_prefix %q", m.Suffix, m.Prefix)
	}
	if len(m.Vocab) == 0 {
		return nil, errors.New("empty vocabulary")
	}
	t := &Tokenizer{vocab: m.Vocab, ranks: make(map[[2]string]int, len(m.Merges)), suffix: m.Suffix,
		unk: -1, cache: map[string][]int64{}}
	for i, raw := range m.Merges {
		pair, err := mergePair(raw)
		if err != nil {
			return nil, fmt.Errorf("merge %d: %w", i, err)
		}
		if _, ok := t.ranks[pair]; !ok {
			t.ranks[pair] = i
		}
	}
	if m.UnkToken != nil {
		if id, ok := m.Vocab[*m.UnkToken]; ok {
			t.unk = id
		}
	}
	pattern, err := splitPattern(f.PreTokenizer)
	if err != nil {
		return nil, err
	}
	if t.split, err = regexp.Compile(pattern); err != nil {
		return nil, fmt.Errorf("split pattern: %w", err)
	}
	var ok1, ok2 bool
	t.start, ok1 = special(f.Post.Cls, m.Vocab, "<|startoftext|>")
	t.end, ok2 = special(f.Post.Sep, m.Vocab, "<|endoftext|>")
	if !ok1 || !ok2 {
		return nil, errors.New("no <|startoftext|> or <|endoftext|> token")
	}
	return t, nil
}

// mergePair reads a merge written "a b" or ["a", "b"].
func mergePair(raw json.RawMessage) ([2]string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		a, b, ok := strings.Cut(s, " ")
		if !ok || a == "" || b == "" || strings.Contains(b, " ") {
			return [2]string{}, fmt.Errorf("%q is not two symbols", s)
		}
		return [2]string{a, b}, nil
	}
	var p []string
	if err := json.Unmarshal(raw, &p); err != nil || len(p) != 2 {
		return [2]string{}, fmt.Errorf("%s is not a pair", raw)
	}
	return [2]string{p[0], p[1]}, nil
}

// splitPattern returns the regex of the file's Split pre-tokenizer (the
// matches are the words), or CLIP's when it has none. The special-token
// alternatives are dropped: text never yields special tokens.
func splitPattern(raw json.RawMessage) (string, error) {
	var pt struct {
		Type    string            `json:"type"`
		Pre     []json.RawMessage `json:"pretokenizers"`
		Pattern struct {
			Regex *string `json:"Regex"`
		} `json:"pattern"`
		Invert bool `json:"invert"`
	}
	if len(raw) == 0 || string(raw) == "null" {
		return defaultSplit, nil
	}
	if err := json.Unmarshal(raw, &pt); err != nil {
		return "", fmt.Errorf("pre_tokenizer: %w", err)
	}
	switch pt.Type {
	case "Sequence":
		for _, p := range pt.Pre {
			if s, err := splitPattern(p); err != nil || s != defaultSplit {
				return s, err
			}
		}
	case "Split":
		if pt.Pattern.Regex != nil && pt.Invert {
			var keep []string
			for _, alt := range strings.Split(*pt.Pattern.Regex, "|") {
				if !strings.HasPrefix(alt, `<\|`) {
					keep = append(keep, alt)
				}
			}
			return strings.Join(keep, "|"), nil
		}
	}
	return defaultSplit, nil
}

// special returns the id of a post-processor token written [content, id],
// else of the vocabulary's entry named def.
func special(tok []any, vocab map[string]int64, def string) (int64, bool) {
	if len(tok) == 2 {
		if id, ok := tok[1].(float64); ok {
			return int64(id), true
		}
	}
	id, ok := vocab[def]
	return id, ok
}

// Words returns the pre-tokenized words of text, normalised as CLIP does.
func (t *Tokenizer) Words(text string) []string {
	text = norm.NFC.String(text)
	text = strings.ToLower(whitespace.ReplaceAllString(text, " "))
	return t.split.FindAllString(text, -1)
}

// Encode returns the ids of text between the start and end tokens, at most
// maxLen of them (maxLen <= 0: MaxTokens); a longer text keeps its head.
func (t *Tokenizer) Encode(text string, maxLen int) []int64 {
	if maxLen <= 0 {
		maxLen = MaxTokens
	}
	maxLen = max(maxLen, 2)
	ids := []int64{t.start}
	for _, w := range t.Words(text) {
		if len(ids) >= maxLen-1 {
			break
		}
		ids = append(ids, t.word(w)...)
	}
	ids = ids[:min(len(ids), maxLen-1)]
	return append(ids, t.end)
}

// word returns the ids of one word.
func (t *Tokenizer) word(w string) []int64 {
	t.mu.Lock()
	ids, ok := t.cache[w]
	t.mu.Unlock()
	if ok {
		return ids
	}
	for _, s := range t.bpe(byteSymbols(w, t.suffix)) {
		if id, ok := t.vocab[s]; ok {
			ids = append(ids, id)
		} else if t.unk >= 0 {
			ids = append(ids, t.unk)
		}
	}
	t.mu.Lock()
	if len(t.cache) >= maxCached {
		clear(t.cache)
	}
	t.cache[w] = ids
	t.mu.Unlock()
	return ids
}

// bpe merges the pair of neighbours with the lowest rank, every occurrence
// left to right, until no pair has a rank.
func (t *Tokenizer) bpe(syms []string) []string {
	for len(syms) > 1 {
		best, at := -1, -1
		for i := 0; i+1 < len(syms); i++ {
			if r, ok := t.ranks[[2]string{syms[i], syms[i+1]}]; ok && (best < 0 || r < best) {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		a, b := syms[at], syms[at+1]
		out := syms[:0:0]
		for i := 0; i < len(syms); i++ {
			if i+1 < len(syms) && syms[i] == a && syms[i+1] == b {
				out = append(out, a+b)
				i++
				continue
			}
			out = append(out, syms[i])
		}
		syms = out
	}
	return syms
}

// byteSymbols maps the UTF-8 bytes of w to GPT-2's printable symbols, the
// last one ending with suffix.
func byteSymbols(w, suffix string) []string {
	syms := make([]string, len(w))
	for i := range len(w) {
		syms[i] = string(byteRune[w[i]])
	}
	if len(syms) > 0 {
		syms[len(syms)-1] += suffix
	}
	return syms
}

// byteRune is GPT-2's reversible map from bytes to printable characters:
// the printable Latin-1 bytes stand for themselves, the others take the
// runes from U+0100 on, in byte order.
var byteRune = func() [256]rune {
	var m [256]rune
	n := 0
	for b := range 256 {
		switch {
		case b >= '!' && b <= '~', b >= 0xA1 && b <= 0xAC, b >= 0xAE && b <= 0xFF:
			m[b] = rune(b)
		default:
			m[b] = rune(256 + n)
			n++
		}
	}
	return m
}()
