package export

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"vika/backend/notes"
)

// TestNotesExportHostile: every hostile Markdown string as a note's text,
// its highlighted quote and its document's name leaves, in the Markdown
// export read by CommonMark and GFM, no image, no HTML and no link but
// the notes' own page links (relative, to the PDF at its page) and the
// http(s) ones the export rules keep; in the
// HTML export, no tag but the page's own.
func TestNotesExportHostile(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	var docs []NotesOf
	links := 0
	for name, in := range hostileMarkdown {
		d := NotesOf{File: in + ".pdf", Label: in, Notes: []notes.Note{
			{Page: 3, Kind: notes.Highlight, Color: "yellow", Quote: in, Text: in + "\n" + name},
			{Page: 1, Kind: notes.PageNote, Color: "blue", Text: in},
		}}
		links += len(d.Notes)
		docs = append(docs, d)
	}
	var md bytes.Buffer
	if err := Notes(&md, FormatMarkdown, docs, now); err != nil {
		t.Fatal(err)
	}
	src := md.Bytes()
	for name, v := range viewers {
		found := 0
		_ = ast.Walk(v.Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch x := n.(type) {
			case *ast.Image, *ast.RawHTML, *ast.HTMLBlock:
				t.Errorf("%s: the notes' Markdown holds %T", name, n)
			case *ast.Link:
				d := string(x.Destination)
				switch {
				case strings.HasPrefix(d, "./") && strings.Count(d, "/") == 1 && !strings.Contains(d, ":") && strings.Contains(d, ".pdf#page="):
					found++
				case !isSafeURL(d): // the export rules keep http(s) links only
					t.Errorf("%s: a link to %q", name, d)
				}
			case *ast.AutoLink:
				if !isSafeURL(string(x.URL(src))) {
					t.Errorf("%s: an autolink %q", name, x.URL(src))
				}
			}
			return ast.WalkContinue, nil
		})
		if found != links {
			t.Errorf("%s: %d page links, want %d (one per note)", name, found, links)
		}
	}
	var page bytes.Buffer
	if err := Notes(&page, FormatHTML, docs, now); err != nil {
		t.Fatal(err)
	}
	h := page.String()
	allowed := map[string]bool{"html": true, "head": true, "meta": true, "title": true, "style": true, "body": true, "h1": true, "h2": true,
		"p": true, "ol": true, "li": true, "a": true, "span": true, "blockquote": true, "br": true}
	for _, m := range tag.FindAllString(h, -1) {
		name := strings.TrimLeft(strings.Fields(strings.Trim(m, "<>/"))[0], "/")
		if !allowed[strings.ToLower(name)] && !strings.HasPrefix(m, "<!DOCTYPE") {
			t.Errorf("the notes' HTML holds a tag %q", m)
		}
	}
	if strings.Contains(h, "href=\"javascript") || strings.Contains(h, "<script") || strings.Contains(h, "<img") {
		t.Error("the notes' HTML holds live markup")
	}
	if !strings.Contains(h, `href="./`) {
		t.Error("no page link in the HTML")
	}
}

// TestNotesExportReads: an ordinary export names each document, each
// note's page with its link, the quote and the note's lines.
func TestNotesExportReads(t *testing.T) {
	docs := []NotesOf{{File: "lecture sat.pdf", Label: "lecture sat.pdf", Notes: []notes.Note{
		{Page: 12, Kind: notes.Highlight, Color: "green", Quote: "Cook proved SAT NP-complete in 1971.", Text: "exam: know the year\nand the reduction"},
	}}}
	var md bytes.Buffer
	if err := Notes(&md, FormatMarkdown, docs, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## lecture sat.pdf", "[lecture sat.pdf p.12](<./lecture%20sat.pdf#page=12>) Highlight (green)",
		"> Cook proved SAT NP-complete in 1971.", "exam: know the year  \n  and the reduction"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
}
