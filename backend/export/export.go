// Package export writes a conversation (the answers of a session, with
// their citations and the model used) as a self-contained HTML page or as
// Markdown, for the student to keep.
package export

import (
	"fmt"
	"html"
	"io"
	"sort"
	"strings"

	"vika/backend/cite"
	"vika/backend/metrics"
	"vika/backend/rag"
)

// Export formats of a conversation.
const (
	FormatHTML     = "html"
	FormatMarkdown = "md"
)

// Conversation writes turns as a self-contained HTML page (inline
// CSS, no script, no remote resource; every text escaped) or as Markdown,
// with each turn's citations and the model used. Key-shaped strings are
// redacted (metrics.Redact), as in every export.
func Conversation(w io.Writer, format string, turns []rag.Answer) error {
	switch format {
	case FormatHTML:
		return exportHTML(w, turns)
	case FormatMarkdown:
		return exportMarkdown(w, turns)
	}
	return fmt.Errorf("unknown export format %q (want html or md)", format)
}

const exportCSS = `body{font:15px/1.55 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;background:#fff}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin:2rem 0 .5rem}
.answer{white-space:pre-wrap;border-left:3px solid #d0d7de;padding:.25rem .75rem}
.cite{font-size:.85em;padding:0 .2em;border-radius:3px;background:#e7f3ea;color:#1a5e2a}
.cite.unverified{background:#fdecea;color:#8a1c12}
.footer,.meta{color:#57606a;font-size:.85em}
.kind{font-weight:600;color:#8a5a00}
ol.sources{font-size:.85em;color:#333}`

func exportHTML(w io.Writer, turns []rag.Answer) error {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n")
	b.WriteString("<title>Vika conversation</title>\n<style>\n" + exportCSS + "\n</style>\n</head>\n<body>\n<h1>Vika conversation</h1>\n")
	if len(turns) == 0 {
		b.WriteString("<p class=\"meta\">No question was asked.</p>\n")
	}
	for i, t := range turns {
		fmt.Fprintf(&b, "<section>\n<h2>%d. %s</h2>\n", i+1, esc(t.Question))
		if t.StandaloneQuestion != "" {
			fmt.Fprintf(&b, "<p class=\"meta\">Searched as: %s</p>\n", esc(t.StandaloneQuestion))
		}
		if label := kindLabel(t); label != "" {
			fmt.Fprintf(&b, "<p class=\"kind\">%s</p>\n", esc(label))
		}
		b.WriteString("<div class=\"answer\">")
		writeCitedHTML(&b, t.Answer, t.Citations)
		b.WriteString("</div>\n")
		fmt.Fprintf(&b, "<p class=\"footer\">%s</p>\n", esc(t.Footer))
		if len(t.Sources) > 0 {
			b.WriteString("<ol class=\"sources\">\n")
			for _, s := range t.Sources {
				fmt.Fprintf(&b, "<li>%s</li>\n", esc(s.Label))
			}
			b.WriteString("</ol>\n")
		}
		b.WriteString("</section>\n")
	}
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCitedHTML writes answer escaped, each citation as a labelled span
// saying whether it was verified.
func writeCitedHTML(b *strings.Builder, answer string, cits []cite.Citation) {
	cits = append([]cite.Citation(nil), cits...)
	sort.Slice(cits, func(i, j int) bool { return cits[i].Start < cits[j].Start })
	pos := 0
	for _, c := range cits {
		if c.Start < pos || c.End > len(answer) || c.Start >= c.End {
			continue // overlapping or stale offsets: left as text
		}
		b.WriteString(esc(answer[pos:c.Start]))
		class, title := "cite", "verified against "+c.Label
		if !c.Verified {
			class, title = "cite unverified", "not verified: "+c.Reason
		}
		fmt.Fprintf(b, "<span class=\"%s\" title=\"%s\">%s</span>", class, esc(title), esc(answer[c.Start:c.End]))
		pos = c.End
	}
	b.WriteString(esc(answer[pos:]))
}

func esc(s string) string { return html.EscapeString(metrics.Redact(s)) }

// kindLabel marks the answers not written by a model, and partial ones.
func kindLabel(t rag.Answer) string {
	var parts []string
	switch t.Kind {
	case rag.KindExtractive:
		parts = append(parts, "Quoted passages: no language model was available.")
	case rag.KindAbstained:
		parts = append(parts, "Not found in the documents: no model was asked.")
	}
	switch {
	case t.Cancelled:
		parts = append(parts, "Stopped before the end.")
	case t.Partial:
		parts = append(parts, "The answer broke off.")
	}
	return strings.Join(parts, " ")
}

func exportMarkdown(w io.Writer, turns []rag.Answer) error {
	var b strings.Builder
	b.WriteString("# Vika conversation\n")
	if len(turns) == 0 {
		b.WriteString("\nNo question was asked.\n")
	}
	for i, t := range turns {
		fmt.Fprintf(&b, "\n## %d. %s\n\n", i+1, oneLineMD(t.Question))
		if t.StandaloneQuestion != "" {
			fmt.Fprintf(&b, "*Searched as: %s*\n\n", oneLineMD(t.StandaloneQuestion))
		}
		if label := kindLabel(t); label != "" {
			fmt.Fprintf(&b, "**%s**\n\n", label)
		}
		// The answer's Markdown is kept under the window's rules: no raw
		// HTML, images as their alt text, only http(s) links. Most
		// Markdown viewers render it, and a document could have steered
		// the model into writing <img src=remote>, ![](https://tracker)
		// or a javascript: link.
		b.WriteString(noHTML.Replace(safeMarkdown(strings.TrimSpace(metrics.Redact(t.Answer)))) + "\n\n")
		fmt.Fprintf(&b, "*%s*\n", oneLineMD(t.Footer))
		if len(t.Citations) > 0 {
			b.WriteString("\nCitations:\n")
			for _, c := range t.Citations {
				mark := "verified"
				if !c.Verified {
					mark = "not verified: " + c.Reason
				}
				fmt.Fprintf(&b, "- %s — %s\n", oneLineMD(c.Label), mark)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// noHTML neutralises HTML in Markdown text.
var noHTML = strings.NewReplacer("<", "&lt;", ">", "&gt;")

// oneLineMD flattens s to one line and escapes the characters that would
// start Markdown emphasis or links.
func oneLineMD(s string) string {
	s = strings.Join(strings.Fields(metrics.Redact(s)), " ")
	return strings.NewReplacer("*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;").Replace(s)
}
