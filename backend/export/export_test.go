package export

import (
	"bytes"
	"strings"
	"testing"

	"vika/backend/cite"
	"vika/backend/corpus"
	"vika/backend/rag"
)

// satPage is the text of the cited page.
const satPage = "Unit propagation assigns the only remaining literal of a unit clause."

func exportTurns() []rag.Answer {
	text := `Unit <script>alert(1)</script> propagation assigns literals [sat.pdf p.1]. It is old [sat.pdf p.9].`
	hits := []corpus.Hit{{File: "sat.pdf", Page: 1, Text: satPage, Label: "[sat.pdf p.1]", DocID: "d1"}}
	return []rag.Answer{
		{Question: "What does <b>unit</b> propagation do? key AIzaSyFAKE-0123456789abcdefghijklmnopqrs", Answer: text, Kind: rag.KindLLM,
			Citations: cite.Check(text, hits), Sources: []rag.Source{{Hit: hits[0], Index: 1}},
			ModelUsed: "groq/llama-3.1-8b-instant", Footer: "Model used: Llama 3.1 8B (Groq) (groq/llama-3.1-8b-instant)"},
		{Question: "Capital?", Answer: "Not found in your documents.", Kind: rag.KindAbstained, Footer: rag.FooterAbstained},
	}
}

func TestExportHTML(t *testing.T) {
	var b bytes.Buffer
	if err := Conversation(&b, FormatHTML, exportTurns()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<script", "<b>", "src=", "href=", "http://", "https://", "AIzaSy"} {
		if strings.Contains(out, bad) {
			t.Errorf("HTML holds %q", bad)
		}
	}
	for _, want := range []string{
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		`<span class="cite" title="verified against [sat.pdf p.1]">[sat.pdf p.1]</span>`,
		`<span class="cite unverified" title="not verified: page not among the sources">[sat.pdf p.9]</span>`,
		"Model used: Llama 3.1 8B (Groq) (groq/llama-3.1-8b-instant)",
		"Not found in the documents: no model was asked.",
		"<style>", "[redacted]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q:\n%s", want, out)
		}
	}
}

func TestExportMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := Conversation(&b, FormatMarkdown, exportTurns()); err != nil {
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
	if err := Conversation(&b, "pdf", nil); err == nil {
		t.Error("format pdf accepted")
	}
}
