package export

import (
	"fmt"
	"io"
	"strings"
	"time"

	"vika/backend/message"
	"vika/backend/metrics"
	"vika/backend/study"
)

// Guide writes a study guide as a self-contained HTML page (the CSP and
// style of Page, no script, every text escaped) or as Markdown. Each
// line keeps its citations; a line the checker could not verify is
// marked with the reason, as in the chat.
func Guide(w io.Writer, format string, g study.Guide, now time.Time) error {
	switch format {
	case FormatHTML:
		return guideHTML(w, g, now)
	case FormatMarkdown:
		return guideMarkdown(w, g)
	}
	return fmt.Errorf("unknown export format %q (want html or md)", format)
}

func guideTitle(g study.Guide) string {
	t := "Study guide: " + g.File
	if g.Section != "" {
		t += " - " + g.Section
	}
	return oneLine(t)
}

// guidePages says the pages studied: "Pages 1-15", or each document's for
// a guide of several.
func guidePages(g study.Guide) string {
	if g.DocID != "" || len(g.Docs) == 0 {
		return fmt.Sprintf("Pages %d-%d", g.From, g.To)
	}
	parts := make([]string, len(g.Docs))
	for i, d := range g.Docs {
		parts[i] = fmt.Sprintf("%s pages %d-%d", d.Label, d.From, d.To)
	}
	return strings.Join(parts, "; ")
}

// unverifiedNote is the mark of a line the checker could not verify.
func unverifiedNote(c study.Check) string {
	if c.Verified {
		return ""
	}
	return "not verified: " + message.New(c.Reason).English()
}

func guideHTML(w io.Writer, g study.Guide, now time.Time) error {
	var b strings.Builder
	line := func(l study.Line) string {
		s := esc(l.Text)
		if n := unverifiedNote(l.Check); n != "" {
			s += ` <span class="cite unverified">` + esc(n) + `</span>`
		}
		return s
	}
	writeHead(&b, g.Lang, guideTitle(g))
	fmt.Fprintf(&b, "<h1>%s</h1>\n<p class=\"meta\">%s. Exported %s.</p>\n", esc(guideTitle(g)), esc(guidePages(g)), now.UTC().Format("2006-01-02 15:04 UTC"))
	if len(g.Outline) > 0 {
		b.WriteString("<p class=\"kind\">Extractive outline: no language model was available.</p>\n<h2>Outline</h2>\n<ol>\n")
		for _, it := range g.Outline {
			fmt.Fprintf(&b, "<li><strong>%s</strong><div class=\"passage\">%s %s</div></li>\n", esc(outlineTitle(it)), esc(it.Quote), esc(it.Label))
		}
		b.WriteString("</ol>\n")
	}
	if len(g.Summary) > 0 {
		b.WriteString("<h2>Summary</h2>\n<ul>\n")
		for _, l := range g.Summary {
			b.WriteString("<li>" + line(l) + "</li>\n")
		}
		b.WriteString("</ul>\n")
	}
	if len(g.Terms) > 0 {
		b.WriteString("<h2>Key terms</h2>\n<dl>\n")
		for _, t := range g.Terms {
			b.WriteString("<dt><strong>" + esc(t.Term) + "</strong></dt><dd>" + line(t.Definition) + "</dd>\n")
		}
		b.WriteString("</dl>\n")
	}
	if len(g.QAs) > 0 {
		b.WriteString("<h2>Likely exam questions</h2>\n<ol>\n")
		for _, q := range g.QAs {
			b.WriteString("<li><strong>" + esc(q.Question) + "</strong><br>" + line(q.Answer) + "</li>\n")
		}
		b.WriteString("</ol>\n")
	}
	if len(g.Models) > 0 {
		b.WriteString("<p class=\"footer\">Models used: " + esc(strings.Join(g.Models, ", ")) + "</p>\n")
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// outlineTitle is an outline row's title, or its pages when it has none.
func outlineTitle(it study.OutlineItem) string {
	if it.Title != "" {
		return it.Title
	}
	return fmt.Sprintf("Pages %d-%d", it.From, it.To)
}

func guideMarkdown(w io.Writer, g study.Guide) error {
	var b strings.Builder
	md := func(s string) string { return oneLineMD(metrics.Redact(s)) }
	line := func(l study.Line) string {
		s := md(l.Text)
		if n := unverifiedNote(l.Check); n != "" {
			s += " *(" + n + ")*"
		}
		return s
	}
	fmt.Fprintf(&b, "# %s\n\n%s.\n", md(guideTitle(g)), md(guidePages(g)))
	if len(g.Outline) > 0 {
		b.WriteString("\n*Extractive outline: no language model was available.*\n\n## Outline\n\n")
		for _, it := range g.Outline {
			fmt.Fprintf(&b, "- **%s**: %s %s\n", md(outlineTitle(it)), md(it.Quote), md(it.Label))
		}
	}
	if len(g.Summary) > 0 {
		b.WriteString("\n## Summary\n\n")
		for _, l := range g.Summary {
			b.WriteString("- " + line(l) + "\n")
		}
	}
	if len(g.Terms) > 0 {
		b.WriteString("\n## Key terms\n\n")
		for _, t := range g.Terms {
			b.WriteString("- **" + md(t.Term) + "**: " + line(t.Definition) + "\n")
		}
	}
	if len(g.QAs) > 0 {
		b.WriteString("\n## Likely exam questions\n\n")
		for i, q := range g.QAs {
			fmt.Fprintf(&b, "%d. **%s**  \n   %s\n", i+1, md(q.Question), line(q.Answer))
		}
	}
	if len(g.Models) > 0 {
		b.WriteString("\nModels used: " + md(strings.Join(g.Models, ", ")) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
