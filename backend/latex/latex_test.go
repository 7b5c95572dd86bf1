package latex

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"vika/backend/message"
)

func TestCheckKeepsFormulas(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`\frac{\partial L}{\partial \sigma}`, `\frac{\partial L}{\partial \sigma}`},
		{"  $$ E = mc^2 $$ ", "E = mc^2"},
		{`\[ \sum_{i=1}^{n} x_i \]`, `\sum_{i=1}^{n} x_i`},
		{"```latex\n\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V\n```",
			`\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right)V`},
		{`f(x) = \begin{cases} 1 & \text{if the sample is positive} \\ 0 & \text{otherwise} \end{cases}`,
			`f(x) = \begin{cases} 1 & \text{if the sample is positive} \\ 0 & \text{otherwise} \end{cases}`},
		{`\{ x \in \mathbb{R} : x > 0 \}`, `\{ x \in \mathbb{R} : x > 0 \}`},
		{`PE_{(pos, 2i)} = \sin(pos / 10000^{2i/d_{model}})`, `PE_{(pos, 2i)} = \sin(pos / 10000^{2i/d_{model}})`},
	} {
		got, err := Check(c.in)
		if err != nil || got != c.want {
			t.Errorf("Check(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestCheckRefuses: each refusal wraps ErrRefused and carries the code
// the window shows (message.Of), with its parameters.
func TestCheckRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		in   string
		want message.Message
	}{
		"empty":          {"  \n ", message.New(message.RefusedEmpty)},
		"empty fence":    {"```latex\n```", message.New(message.RefusedEmpty)},
		"prose":          {"The image shows the equation for the attention mechanism used in the Transformer.", message.New(message.RefusedProse, "words", 7)},
		"apology":        {"I cannot read this image clearly.", message.New(message.RefusedProse, "words", 5)},
		"prose + latex":  {"Here is the formula: $x = y$. It defines the identity.", message.New(message.RefusedProse, "words", 4)},
		"sentences":      {"x = yes. No", message.New(message.RefusedSentences)},
		"unbalanced {":   {`\frac{a}{b`, message.New(message.RefusedBracesOpen, "count", 1)},
		"unbalanced }":   {`a}{b`, message.New(message.RefusedBraceUnopened)},
		"too long":       {strings.Repeat(`x_{1} + `, 300), message.New(message.RefusedTooLong, "chars", 2399, "limit", MaxRunes)},
		"two blocks":     {"```latex\nx\n```\nand\n```latex\ny\n```", message.New(message.RefusedCodeBlock)},
		"control chars":  {"x = y\x00", message.New(message.RefusedControl)},
		"only delimiter": {"$$", message.New(message.RefusedEmpty)},
	} {
		got, err := Check(c.in)
		if !errors.Is(err, ErrRefused) {
			t.Errorf("%s: Check(%q) = %q, %v; want refused", name, c.in, got, err)
			continue
		}
		if m := message.Of(err); !reflect.DeepEqual(m, c.want) {
			t.Errorf("%s: message %+v, want %+v", name, m, c.want)
		}
	}
}

func TestWords(t *testing.T) {
	got := Words(`\frac{\partial \mathcal{L}}{\partial \sigma_{i}} = \left( \sum_i \sigma_i \right) \, \mathrm{softmax}`)
	if got != "frac partial sigma sum" {
		t.Errorf("Words = %q", got)
	}
}
