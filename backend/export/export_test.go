package export

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"vika/backend/cite"
	"vika/backend/corpus"
	"vika/backend/metrics"
	"vika/backend/rag"
)

// satPage is the text of the cited page.
const satPage = "Unit propagation assigns the only remaining literal of a unit clause."

var exportTime = time.Date(2026, 12, 1, 15, 4, 5, 0, time.UTC)

// hostileAnswer is Markdown a model steered by a document could write.
const hostileAnswer = "**Unit** <script>alert(1)</script> propagation assigns literals [sat.pdf p.1]. It is old [sat.pdf p.9].\n\n" +
	"- see [the notes](javascript:alert(2)) and ![tracker](https://evil.example/t.png)\n" +
	"- read [DPLL](https://en.wikipedia.org/wiki/DPLL_algorithm) or https://example.org/sat\n" +
	"- <img src=x onerror=alert(3)> <a href=\"https://evil.example\">raw</a> <javascript:alert(4)>\n\n" +
	"<div onclick=alert(5)>\nblock\n</div>\n\n" +
	"`code [sat.pdf p.1] <b>`\n"

func exportTurns() []rag.Answer {
	hits := []corpus.Hit{{File: "sat.pdf", Page: 1, Text: satPage, Label: "[sat.pdf p.1]", DocID: "d1", FoundBy: "both",
		LexicalScore: metrics.Float(4.25), DenseScore: metrics.Float(0.512), RerankScore: metrics.Float(2.5), Score: 0.0328}}
	return []rag.Answer{
		{Question: "What does <b>unit</b> propagation do? key AIzaSyFAKE-0123456789abcdefghijklmnopqrs", Answer: hostileAnswer, Kind: rag.KindLLM,
			Citations: cite.Check(hostileAnswer, hits), Sources: []rag.Source{{Hit: hits[0], Index: 1}},
			ModelUsed: "groq/llama-3.1-8b-instant", Footer: "Model used: Llama 3.1 8B (Groq) (groq/llama-3.1-8b-instant)",
			Metrics: metrics.Record{HistoryApplied: true, RerankApplied: true, HitAt5: metrics.Float(1), RecallAt5: metrics.Float(0.5), MRR: metrics.Float(1),
				BM25ContributionPct: 100, TotalLatencyMs: 812.5}},
		{Question: "Capital?", Answer: "Not found in your documents.", Kind: rag.KindAbstained, Footer: rag.FooterAbstained,
			Metrics: metrics.Record{HyDEApplied: true, MultiQueryApplied: true}},
	}
}

func TestExportHTML(t *testing.T) {
	var b bytes.Buffer
	if err := Conversation(&b, FormatHTML, exportTurns(), exportTime); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<script", "<b>", "<img", `href="javascript`, "evil.example\"", "onerror=alert(3)>", "AIzaSy", "\uE000"} {
		if strings.Contains(out, bad) {
			t.Errorf("HTML holds %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{
		`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">`,
		"Exported 2026-12-01 15:04:05 UTC",
		// Markdown rendered, raw HTML escaped.
		"<p><strong>Unit</strong> &lt;script&gt;alert(1)&lt;/script&gt; propagation assigns literals",
		`<span class="cite" title="verified against [sat.pdf p.1]">[sat.pdf p.1]</span>`,
		`<span class="cite unverified" title="not verified: page not among the sources">[sat.pdf p.9]</span>`,
		// Safe links kept, unsafe ones and images as text.
		`<a href="https://en.wikipedia.org/wiki/DPLL_algorithm" rel="noopener noreferrer">DPLL</a>`,
		`<a href="https://example.org/sat" rel="noopener noreferrer">https://example.org/sat</a>`,
		"see the notes and Image: tracker",
		"<li>", "<code>",
		"&lt;img src=x onerror=alert(3)&gt; &lt;a href=&#34;https://evil.example&#34;&gt;raw&lt;/a&gt;",
		"&lt;div onclick=alert(5)&gt;",
		"Model used: Llama 3.1 8B (Groq) (groq/llama-3.1-8b-instant)",
		`Applied: <span class="flag on" title="history on">history</span><span class="flag" title="HyDE off">HyDE</span><span class="flag" title="multi-query off">multi-query</span><span class="flag on" title="rerank on">rerank</span>`,
		`<span class="flag on" title="HyDE on">HyDE</span><span class="flag on" title="multi-query on">multi-query</span><span class="flag" title="rerank off">rerank</span>`,
		`<details class="sources"><summary>Sources (1)</summary>`,
		"page 1 · fused 0.033 · BM25 4.250 · cosine 0.512 · reranker 2.500 · found by both",
		"Citations: 1 of 3 verified",
		"<tr><th>Hit@5 / Recall@5 / MRR</th><td class=\"n\">1.000 / 0.500 / 1.000</td></tr>",
		"<tr><th>Hit@5 / Recall@5 / MRR</th><td class=\"n\">no reranker</td></tr>",
		"Not found in the documents: no model was asked.",
		"[redacted]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if tag := regexp.MustCompile(`<[a-z]+[^>]*\s(src|on[a-z]+|style)=`).FindString(out); tag != "" {
		t.Errorf("HTML has a tag with %q", tag)
	}
	// In a code span the citation and the tag stay text.
	if !regexp.MustCompile(`<code>code .*&lt;b&gt;</code>`).MatchString(out) {
		t.Errorf("code span not kept as text:\n%s", out)
	}
	if t.Failed() {
		t.Logf("HTML:\n%s", out)
	}
}

// TestMarkdownCitationsOutsideOffsets: stale citation offsets leave the
// text as it is; the answer's own marker characters cannot forge a chip.
func TestMarkdownCitationsOutsideOffsets(t *testing.T) {
	got := Markdown("A \uE0000\uE001 claim [a.pdf p.2].", []cite.Citation{{Raw: "[a.pdf p.2]", Label: "[a.pdf p.2]", Start: 40, End: 52, Verified: true}})
	if strings.Contains(got, "<span") || !strings.Contains(got, "A 0 claim [a.pdf p.2].") {
		t.Errorf("Markdown = %q", got)
	}
}

func TestExportMarkdown(t *testing.T) {
	var b bytes.Buffer
	turns := exportTurns()
	text := `Unit <script>alert(1)</script> propagation assigns literals [sat.pdf p.1]. It is old [sat.pdf p.9].`
	turns[0].Answer, turns[0].Citations = text, cite.Check(text, []corpus.Hit{turns[0].Sources[0].Hit})
	if err := Conversation(&b, FormatMarkdown, turns, exportTime); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"## 1. What does &lt;b&gt;unit&lt;/b&gt; propagation do? key [redacted]",
		"*Model used: Llama 3.1 8B (Groq) (groq/llama-3.1-8b-instant)*",
		"- [sat.pdf p.1] — verified", "- [sat.pdf p.9] — not verified: page not among the sources",
		"**Not found in the documents: no model was asked.**",
		"Unit &lt;script&gt;alert(1)&lt;/script&gt; propagation assigns literals [sat.pdf p.1].",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "<script") {
		t.Errorf("Markdown holds raw HTML from the answer:\n%s", out)
	}
	if err := Conversation(&b, "pdf", nil, exportTime); err == nil {
		t.Error("format pdf accepted")
	}
}
