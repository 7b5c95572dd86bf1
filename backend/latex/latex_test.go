package latex

import (
	"errors"
	"strings"
	"testing"
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

func TestCheckRefuses(t *testing.T) {
	for name, in := range map[string]string{
		"empty":          "  \n ",
		"empty fence":    "```latex\n```",
		"prose":          "The image shows the equation for the attention mechanism used in the Transformer.",
		"apology":        "I cannot read this image clearly.",
		"prose + latex":  "Here is the formula: $x = y$. It defines the identity.",
		"unbalanced {":   `\frac{a}{b`,
		"unbalanced }":   `a}{b`,
		"too long":       strings.Repeat(`x_{1} + `, 300),
		"two blocks":     "```latex\nx\n```\nand\n```latex\ny\n```",
		"control chars":  "x = y\x00",
		"only delimiter": "$$",
	} {
		got, err := Check(in)
		if !errors.Is(err, ErrRefused) {
			t.Errorf("%s: Check(%q) = %q, %v; want refused", name, in, got, err)
		}
	}
}

func TestWords(t *testing.T) {
	got := Words(`\frac{\partial \mathcal{L}}{\partial \sigma_{i}} = \left( \sum_i \sigma_i \right) \, \mathrm{softmax}`)
	if got != "frac partial sigma sum" {
		t.Errorf("Words = %q", got)
	}
}
