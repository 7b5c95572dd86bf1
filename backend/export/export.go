// Package export writes answers for people to keep: a conversation (the
// answers of a session, with their citations, sources, the techniques
// applied and the model used) as a self-contained HTML page or as
// Markdown, and the report of a batch of questions (`vika ask --queries`)
// as JSON lines and the same HTML page with each question's metrics. The
// HTML has no script and a strict Content-Security-Policy; answers'
// Markdown is rendered under the window's rules (no raw HTML, links only
// to http(s) URLs, no image loaded).
package export

import (
	"fmt"
	"io"
	"strings"
	"time"

	"vika/backend/message"
	"vika/backend/metrics"
	"vika/backend/rag"
)

// Export formats of a conversation.
const (
	FormatHTML     = "html"
	FormatMarkdown = "md"
)

// Conversation writes turns as a self-contained HTML page (see Page) or
// as Markdown, with each turn's citations and the model used; now is the
// export time the page shows. Key-shaped strings are redacted
// (metrics.Redact), as in every export.
func Conversation(w io.Writer, format string, turns []rag.Answer, now time.Time) error {
	switch format {
	case FormatHTML:
		return Page(w, "Vika conversation", now, nil, turns)
	case FormatMarkdown:
		return exportMarkdown(w, turns)
	}
	return fmt.Errorf("unknown export format %q (want html or md)", format)
}

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
		if t.Metrics.Scope != "" {
			fmt.Fprintf(&b, "*Searched only in: %s*\n\n", oneLineMD(t.Metrics.Scope))
		}
		if label := kindLabel(t); label != "" {
			fmt.Fprintf(&b, "**%s**\n\n", label)
		}
		// The answer's Markdown is written back from the parse tree the
		// HTML export uses (safeMarkdown): no raw HTML, images as their alt
		// text, only http(s) links, formulas as $...$. A document could
		// have steered the model into writing <img src=remote>,
		// ![](https://tracker) or a javascript: link.
		b.WriteString(safeMarkdown(strings.TrimSpace(metrics.Redact(t.Answer))) + "\n\n")
		fmt.Fprintf(&b, "*%s*\n", oneLineMD(t.Footer))
		if len(t.Citations) > 0 {
			b.WriteString("\nCitations:\n")
			for _, c := range t.Citations {
				mark := "verified"
				if !c.Verified {
					mark = "not verified: " + message.New(c.Reason).English()
				}
				fmt.Fprintf(&b, "- %s — %s\n", oneLineMD(c.Label), mark)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// oneLineMD flattens s (a question, a footer, a label: text, not
// Markdown) to one line and escapes what would start Markdown emphasis,
// code, links, images or HTML (mdLiteral, noLinks).
func oneLineMD(s string) string {
	return noLinks(mdLiteral(strings.Join(strings.Fields(metrics.Redact(s)), " ")))
}
