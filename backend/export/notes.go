package export

import (
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"vika/backend/corpus"
	"vika/backend/metrics"
	"vika/backend/notes"
)

// NotesOf is one document's notes as an export shows them.
type NotesOf struct {
	File  string // the PDF's original name: its page links point to it
	Label string // its name in the session (a twin's "x.pdf (2)")
	Unit  string // the document's unit (corpus.UnitSlide: its pages are slides)
	Notes []notes.Note
}

// Notes writes the student's highlights and notes, document by document
// in reading order, as a self-contained HTML page (the CSP and style of
// Page, no script, every text escaped: a note is plain text, never
// markup) or as Markdown (every text escaped as mdLiteral and noLinks
// do). Each note's page is a link to the PDF beside the export at that
// page ("sat.pdf#page=12", relative: it opens when the export is saved
// next to the PDF; no other link is written). Key-shaped strings are
// redacted, as in every export.
func Notes(w io.Writer, format string, docs []NotesOf, now time.Time) error {
	switch format {
	case FormatHTML:
		return notesHTML(w, docs, now)
	case FormatMarkdown:
		return notesMarkdown(w, docs)
	}
	return fmt.Errorf("unknown export format %q (want html or md)", format)
}

// pageLink is the relative link to page of the PDF named file: every
// character of its name but letters, digits and "-_.~" percent-escaped,
// so that no scheme, folder, query or markup can come of it.
func pageLink(file string, page int) string {
	return "./" + strings.ReplaceAll(url.QueryEscape(file), "+", "%20") + fmt.Sprintf("#page=%d", page)
}

func noteKind(n notes.Note) string {
	if n.Kind == notes.PageNote {
		return "Page note"
	}
	return "Highlight (" + string(n.Color) + ")"
}

func notesHTML(w io.Writer, docs []NotesOf, now time.Time) error {
	var b strings.Builder
	writeHead(&b, "", "My notes")
	fmt.Fprintf(&b, "<h1>My notes</h1>\n<p class=\"meta\">Exported %s.</p>\n", now.UTC().Format("2006-01-02 15:04 UTC"))
	for _, d := range docs {
		fmt.Fprintf(&b, "<h2>%s</h2>\n<ol>\n", esc(d.Label))
		for _, n := range d.Notes {
			label := corpus.CitationLabel(d.File, d.Unit, n.Page)
			fmt.Fprintf(&b, "<li><a href=\"%s\">%s</a> <span class=\"kind\">%s</span>", esc(pageLink(d.File, n.Page)), esc(label), esc(noteKind(n)))
			if n.Quote != "" {
				b.WriteString("<blockquote class=\"passage\">" + esc(n.Quote) + "</blockquote>")
			}
			if n.Text != "" {
				b.WriteString("<p>" + strings.ReplaceAll(esc(n.Text), "\n", "<br>") + "</p>")
			}
			b.WriteString("</li>\n")
		}
		b.WriteString("</ol>\n")
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func notesMarkdown(w io.Writer, docs []NotesOf) error {
	var b strings.Builder
	md := func(s string) string { return oneLineMD(s) }
	lines := func(s string) []string {
		var out []string
		for _, l := range strings.Split(metrics.Redact(s), "\n") {
			out = append(out, oneLineMD(l))
		}
		return out
	}
	b.WriteString("# My notes\n")
	for _, d := range docs {
		fmt.Fprintf(&b, "\n## %s\n\n", md(d.Label))
		for _, n := range d.Notes {
			label := strings.Trim(corpus.CitationLabel(d.File, d.Unit, n.Page), "[]")
			fmt.Fprintf(&b, "- [%s](<%s>) %s\n", md(label), pageLink(d.File, n.Page), md(noteKind(n)))
			if n.Quote != "" {
				b.WriteString("\n  > " + md(n.Quote) + "\n")
			}
			if n.Text != "" {
				b.WriteString("\n  " + strings.Join(lines(n.Text), "  \n  ") + "\n")
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
