package onnx

import (
	"fmt"
	"strings"

	"github.com/rivo/uniseg"
	"github.com/sugarme/tokenizer/spm"
)

// precompiled is a SentencePiece "Precompiled" normaliser (XLM-R's
// nmt_nfkc map: a double-array trie of the texts to replace and the
// replacements), applied the way Hugging Face's tokenizers crate applies
// it. sugarme's own Normalize panics on replacements that change a text's
// length (a letter and a combining accent, a zero-width joiner dropped,
// "²" after a combining mark...) and cannot tell a rule that deletes a
// character from no rule: Vika normalises the text itself with this and
// gives sugarme the result, its Precompiled normaliser removed.
type precompiled struct {
	m *spm.Precompiled
}

func newPrecompiled(charsmap string) (*precompiled, error) {
	raw, err := spm.FromBase64(charsmap)
	if err != nil {
		return nil, fmt.Errorf("precompiled_charsmap: %w", err)
	}
	m, err := spm.NewPrecompiledFrom(raw)
	if err != nil {
		return nil, fmt.Errorf("precompiled_charsmap: %w", err)
	}
	return &precompiled{m}, nil
}

// transform returns the replacement of chunk: that of the shortest prefix
// of chunk the trie holds, which may be empty (the rule deletes it); ok is
// false when the trie holds no prefix of chunk.
func (p *precompiled) transform(chunk string) (string, bool) {
	results := p.m.Trie.CommonPrefixSearch([]byte(chunk))
	if len(results) == 0 {
		return "", false
	}
	i := results[0]
	if i < 0 || i > len(p.m.Normalized) {
		return "", false
	}
	j := strings.IndexByte(p.m.Normalized[i:], 0)
	if j < 0 {
		j = len(p.m.Normalized) - i
	}
	return p.m.Normalized[i : i+j], true
}

// normalize applies the map as the Rust crate does: each grapheme cluster
// shorter than 6 bytes that the map holds is replaced whole; otherwise
// each of its characters is replaced by its own rule, or kept.
func (p *precompiled) normalize(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	g := uniseg.NewGraphemes(text)
	for g.Next() {
		cluster := g.Str()
		if len(cluster) < 6 {
			if r, ok := p.transform(cluster); ok {
				b.WriteString(r)
				continue
			}
		}
		for _, c := range cluster {
			part := string(c)
			if r, ok := p.transform(part); ok {
				b.WriteString(r)
			} else {
				b.WriteString(part)
			}
		}
	}
	return b.String()
}

// takePrecompiled removes the Precompiled normaliser from n (the
// tokenizer.json's normalizer, a Sequence or a single one) and returns its
// charsmap; "" when there is none. A Sequence left with one normaliser
// keeps it; nil is returned as the whole when the Precompiled one was the
// only one.
func takePrecompiled(n map[string]any) (rest map[string]any, charsmap string) {
	switch n["type"] {
	case "Precompiled":
		s, _ := n["precompiled_charsmap"].(string)
		return nil, s
	case "Sequence":
		children, _ := n["normalizers"].([]any)
		kept := make([]any, 0, len(children))
		for _, c := range children {
			if m, ok := c.(map[string]any); ok && m["type"] == "Precompiled" {
				charsmap, _ = m["precompiled_charsmap"].(string)
				continue
			}
			kept = append(kept, c)
		}
		n["normalizers"] = kept
	}
	return n, charsmap
}
