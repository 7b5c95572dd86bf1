package export

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"time"

	"vika/backend/corpus"
	"vika/backend/mindmap"
)

func testMap() mindmap.Map {
	a := corpus.Document{ID: "a", File: "a.pdf", Label: "<script>alert(1)</script>.pdf", Pages: 30, Outline: []corpus.OutlineEntry{
		{Title: "1 Intro & <b>motivation</b>", Page: 2}, {Title: "1.1 \"Quotes\" 'and' ]]>", Page: 3, Depth: 1}, {Title: "2 Théorie", Page: 10},
	}}
	b := corpus.Document{ID: "b", File: "b.pdf", Label: "b.pdf", Pages: 25}
	return mindmap.Build([]mindmap.Source{
		{Doc: a, Terms: []mindmap.Term{{Term: "entropie <i>", DocID: "a", Page: 11}}},
		{Doc: b},
	})
}

// TestMindMapSVG: the SVG is well-formed XML with no script, a text for
// every node (escaped markup shown as text), its page, and the course
// named in the language asked.
func TestMindMapSVG(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		var buf bytes.Buffer
		if err := MindMap(&buf, FormatSVG, testMap(), lang, time.Time{}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		texts := svgTexts(t, out)
		joined := strings.Join(texts, "\n")
		for _, want := range []string{"<script>alert(1)</script>.pdf", "1 Intro & <b>motivation</b> p.2", "1.1 \"Quotes\" 'and' ]]> p.3", "2 Théorie p.10", "entropie <i> p.11", "b.pdf"} {
			if !strings.Contains(joined, want) {
				t.Errorf("%s: no text %q in %q", lang, want, texts)
			}
		}
		course, pages := "Course", "pages 1–10"
		if lang == "fr" {
			course, pages = "Cours", "pages 1 à 10"
		}
		if texts[len(texts)-1] != course || !strings.Contains(joined, pages) {
			t.Errorf("%s: root %q, want %q, and a run %q", lang, texts[len(texts)-1], course, pages)
		}
		if strings.Contains(strings.ToLower(out), "<script") || strings.Contains(out, "foreignObject") || strings.Contains(out, "<b>") {
			t.Errorf("%s: markup from a label reached the SVG", lang)
		}
	}
}

// svgTexts parses the SVG (failing on malformed XML) and returns the
// text of each <text>, tspans included.
func svgTexts(t *testing.T, s string) []string {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	var out []string
	depth := 0
	var cur strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed: %v", err)
		}
		switch v := tok.(type) {
		case xml.StartElement:
			if v.Name.Local == "text" {
				depth++
				cur.Reset()
			}
		case xml.EndElement:
			if v.Name.Local == "text" {
				depth--
				out = append(out, strings.TrimSpace(cur.String()))
			}
		case xml.CharData:
			if depth > 0 {
				cur.Write(v)
			}
		}
	}
	return out
}

// TestMindMapHTML: the page has the exports' CSP, no script, the SVG
// and every node listed with its citation, labels escaped.
func TestMindMapHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := MindMap(&buf, FormatHTML, testMap(), "fr", time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		`<html lang="fr">`, CSP, "<title>Carte mentale: Cours</title>", "<svg ",
		"&lt;script&gt;alert(1)&lt;/script&gt;.pdf", "1 Intro &amp; &lt;b&gt;motivation&lt;/b&gt;", `<span class="cite">[a.pdf p.2]</span>`,
		`<span class="kind">entropie &lt;i&gt;</span> <span class="cite">[a.pdf p.11]</span>`, "pages 11 à 20", "Documents : 2, sections : 6, termes clés : 1.",
		"Exportée le 2026-01-02 03:04 UTC.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	if strings.Contains(out, "<script") || strings.Contains(out, "<b>") || strings.Contains(out, "<i>") {
		t.Error("markup from a label reached the page")
	}
	if err := MindMap(&buf, "pdf", testMap(), "en", time.Time{}); err == nil {
		t.Error("an unknown format was written")
	}
}
