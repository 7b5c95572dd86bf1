package export

import (
	"bytes"
	"strings"
	"testing"

	"vika/backend/cite"
	"vika/backend/corpus"
	"vika/backend/metrics"
	"vika/backend/rag"
)

// formulaAnswer is an answer with formulas, a malformed one, prices and a
// citation, as a model writes it.
const formulaAnswer = "Attention is $\\mathrm{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V$ [attn.pdf p.4].\n\n" +
	"$$PE_{(pos,2i)} = \\sin(pos/10000^{2i/d_{\\text{model}}})$$\n\n" +
	"It uses \\(a < b\\) and a broken $\\frac{a}{$ formula; it costs $5 and $10.\n\n" +
	"`$HOME` stays code.\n"

func formulaTurns() []rag.Answer {
	hits := []corpus.Hit{{File: "attn.pdf", Page: 4, Text: "Attention(Q,K,V) = softmax(QK^T / sqrt(d_k)) V", Label: "[attn.pdf p.4]", DocID: "d1"}}
	return []rag.Answer{{Question: "What is attention?", Answer: formulaAnswer, Kind: rag.KindLLM,
		Citations: cite.Check(formulaAnswer, hits), Sources: []rag.Source{{Hit: hits[0], Index: 1}},
		Metrics: metrics.Record{Scope: "attn.pdf p.3-5"}}}
}

func TestExportHTMLRendersFormulas(t *testing.T) {
	var b bytes.Buffer
	if err := Conversation(&b, FormatHTML, formulaTurns(), exportTime); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"<math><semantics>",     // inline attention
		`<math display="block"`, // the positional encoding
		"<mfrac>",
		`<annotation encoding="application/x-tex">\mathrm{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right)V</annotation>`,
		`<code class="math-error" title="This formula could not be read: shown as written">$\frac{a}{$</code>`,
		"it costs $5 and $10.",
		`<span class="cite" title="verified against [attn.pdf p.4]">[attn.pdf p.4]</span>`,
		"<code>$HOME</code>",
		`<p class="meta scope">Searched only in: attn.pdf p.3-5</p>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "<math") != 3 {
		t.Errorf("want 3 formulas (attention, encoding, a<b), got %d", strings.Count(out, "<math"))
	}
	for _, bad := range []string{"\uE002", "\uE003", "<script"} {
		if strings.Contains(out, bad) {
			t.Errorf("HTML holds %q", bad)
		}
	}
}

func TestExportMarkdownKeepsLaTeX(t *testing.T) {
	var b bytes.Buffer
	if err := Conversation(&b, FormatMarkdown, formulaTurns(), exportTime); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		`Attention is $\mathrm{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right)V$ [attn.pdf p.4].`,
		`$$PE_{(pos,2i)} = \sin(pos/10000^{2i/d_{\text{model}}})$$`,
		`It uses $a \lt  b$ and`, // \( \) as $, < as \lt: no viewer reads it as HTML
		"it costs $5 and $10.",
		"*Searched only in: attn.pdf p.3-5*",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `\(`) || strings.Contains(out, "$a &lt;") {
		t.Errorf("Markdown kept \\( or escaped LaTeX as HTML:\n%s", out)
	}
}
