package rag

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"vika/backend/cite"
	"vika/backend/corpus"
)

func exportTurns() []Answer {
	text := `Unit <script>alert(1)</script> propagation assigns literals [sat.pdf p.1]. It is old [sat.pdf p.9].`
	hits := []corpus.Hit{{File: "sat.pdf", Page: 1, Text: satPages[0], Label: "[sat.pdf p.1]", DocID: "d1"}}
	return []Answer{
		{Question: "What does <b>unit</b> propagation do? key AIzaSyFAKE-0123456789abcdefghijklmnopqrs", Answer: text, Kind: KindLLM,
			Citations: cite.Check(text, hits), Sources: []Source{{Hit: hits[0], Index: 1}},
			ModelUsed: "groq/llama-3.1-8b-instant", Footer: "Model used: Llama 3.1 8B (Groq) (groq/llama-3.1-8b-instant)"},
		{Question: "Capital?", Answer: "Not found in your documents.", Kind: KindAbstained, Footer: FooterAbstained},
	}
}

func TestExportHTML(t *testing.T) {
	var b bytes.Buffer
	if err := ExportConversation(&b, FormatHTML, exportTurns()); err != nil {
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
	if err := ExportConversation(&b, FormatMarkdown, exportTurns()); err != nil {
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
	if err := ExportConversation(&b, "pdf", nil); err == nil {
		t.Error("format pdf accepted")
	}
}

func TestExportMetrics(t *testing.T) {
	s := New(newEngine(t), nil, Config{})
	if _, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), nil); err != nil {
		t.Fatal(err)
	}
	var csv, js bytes.Buffer
	if err := s.ExportMetrics(t.Context(), &csv, "csv"); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(csv.String()), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "1,What does unit propagation do?,,extractive,bm25,") {
		t.Errorf("csv:\n%s", csv.String())
	}
	if err := s.ExportMetrics(t.Context(), &js, "json"); err != nil {
		t.Fatal(err)
	}
	var v MetricsView
	if err := json.Unmarshal(js.Bytes(), &v); err != nil || len(v.Records) != 1 || v.Summary.Questions != 1 {
		t.Errorf("json: %v\n%s", err, js.String())
	}
	if err := s.ExportMetrics(t.Context(), &js, "xml"); err == nil {
		t.Error("format xml accepted")
	}
}
