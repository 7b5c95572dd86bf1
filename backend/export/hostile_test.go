package export

import (
	"bytes"
	stdhtml "html"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"vika/backend/cite"
	"vika/backend/corpus"
)

// hostileMarkdown is Markdown an answer could hold (a model steered by a
// course file writes what the file asks), each trying to leave something
// live in the Markdown export once a viewer reads it again (issue 43).
var hostileMarkdown = map[string]string{
	"escaped bang before a link":     `\![chart](https://tracker.example/p.png)`,
	"escaped backslash, then image":  `\\![chart](https://tracker.example/p.png)`,
	"entity bang before a link":      `&#33;[chart](https://tracker.example/p.png)`,
	"entity backslash before a link": `&#92;[x](javascript:alert(1))`,
	"div block":                      "<div>\n[x](javascript:alert(1)) ![i](https://tracker.example/p.png) [f](file:///etc/passwd)\n</div>",
	"details block":                  "<details>\n<summary>[s](javascript:alert(1))</summary>\n![i](https://tracker.example/p.png)\n</details>",
	"p block":                        "<p>[x](javascript:alert(1)) <img src=https://tracker.example/p.png></p>",
	"comment block":                  "<!--\n[x](javascript:alert(1))\n-->",
	"script block":                   "<script>\n[x](javascript:alert(1))\n</script>\n\nafter",
	"block with a definition":        "<div>\n[x]: javascript:alert(1)\n</div>\n\n[click][x]",
	"block with a tilde fence":       "<div>\n~~~\n</div>\n\n[x](javascript:alert(1))",
	"reference link":                 "[click][x]\n\n[x]: javascript:alert(1)",
	"reference image":                "![pic][x]\n\n[x]: https://tracker.example/p.png",
	"shortcut image":                 "![x]\n\n[x]: https://tracker.example/p.png",
	"autolink javascript":            "<javascript:alert(1)> <file:///etc/passwd>",
	"entity-encoded scheme":          "[x](javascript&#58;alert(1)) [y](&#106;avascript:alert(1))",
	"entity brackets":                "&#91;x&#93;(javascript:alert(1)) &#33;&#91;i&#93;(https://tracker.example/p.png)",
	"nested emphasis":                "***[x](javascript:alert(1))*** _*[y](https://ok.example)*_ **a*b**c*",
	"code spans":                     "`[x](javascript:y)` ``a`b`` `<img src=https://tracker.example/p.png>`",
	"formula with a link":            "$[x](javascript:alert(1))$ and $$![i](https://tracker.example/p.png)$$",
	"formula with a definition":      "$$\n[x]: javascript:alert(1)\n$$\n\n[click][x]",
	"formula with a backtick":        "$a`b$ then `[x](javascript:alert(1))`",
	"formula Vika cannot read":       `$\href{javascript:alert(1)}{x}$ and $\includegraphics{https://tracker.example/p.png}$`,
	"MathML as text":                 `<math><mi href="javascript:alert(1)">x</mi></math>`,
	"e-mail address":                 "mail a@b.example, or mailto:c@d.example",
	"bracket in a kept link":         `[a\]](https://ok.example) [b\[](https://ok.example)`,
	"link over an unsafe one":        "[a [b](javascript:alert(1)) c](https://ok.example)",
	"citation and link":              "[lecture.pdf p.42](javascript:alert(1)) [lecture.pdf p.42]",
}

// viewers read Markdown as a viewer would: plain CommonMark, and with
// the GitHub extensions (tables, strikethrough, autolinks of www. and
// e-mail addresses).
var viewers = map[string]goldmark.Markdown{
	"CommonMark": goldmark.New(),
	"GFM":        goldmark.New(goldmark.WithExtensions(extension.GFM)),
}

// TestMarkdownExportHostile: nothing in hostileMarkdown leaves an image,
// raw HTML or a link other than http(s) in the Markdown export, read
// again by goldmark as CommonMark or GFM. Fails on main (checked by
// stashing the fix) for the escaped bang, the HTML blocks (div, details,
// p, comment, script), the formulas holding link syntax or a backtick and
// the e-mail address (a mailto: link under GFM).
func TestMarkdownExportHostile(t *testing.T) {
	for name, in := range hostileMarkdown {
		got := safeMarkdown(in)
		if bad := liveParts(got); len(bad) > 0 {
			t.Errorf("%s: %q -> %q: a viewer would load or follow %v", name, in, got, bad)
		}
		// The same text as a question, a footer or a study guide's line
		// (text, not Markdown: oneLineMD). Fails on main for the e-mail
		// address only (checked).
		if line := oneLineMD(in); len(liveParts(line)) > 0 {
			t.Errorf("%s as text: %q -> %q: a viewer would load or follow %v", name, in, line, liveParts(line))
		}
	}
}

// TestMarkdownExportShowsWhatHTMLShows: a viewer reading the Markdown
// export as GFM (the HTML export has tables too) shows the text the HTML export shows (the same parse tree, the
// same link rules): the hostile inputs (without formulas, which the HTML
// shows as MathML) and ordinary Markdown. Fails on main (checked by
// stashing the fix): the escaped bang, the HTML blocks (their closing
// line was dropped), brackets inside a kept link's text.
func TestMarkdownExportShowsWhatHTMLShows(t *testing.T) {
	cases := map[string]string{
		"ordinary": "# Title\n\nSome **bold**, *stress*, `code` and [a link](https://example.org/a_(b)) [lecture.pdf p.42].\n\n" +
			"- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n```go\nx := 1\n```\n\n| a | b |\n| --- | --- |\n| 1 | 2 |",
		"characters": `A & B, a&amp;b, \*not emphasis\*, 1 < 2 > 0, ~5 ms, C:\path, 100% [a] [b]`,
	}
	for name, in := range hostileMarkdown {
		if !strings.Contains(in, "$") {
			cases[name] = in
		}
	}
	for name, in := range cases {
		got := safeMarkdown(in)
		want := shownText(Markdown(in, nil))
		var out bytes.Buffer
		if err := viewers["GFM"].Convert([]byte(got), &out); err != nil {
			t.Fatal(err)
		}
		if read := shownText(out.String()); read != want {
			t.Errorf("%s: %q -> %q\nreads %q\nHTML  %q", name, in, got, read, want)
		}
	}
}

var tag = regexp.MustCompile(`<[^>]*>`)

// shownText is the text an HTML fragment shows, its white space folded.
func shownText(h string) string {
	return strings.Join(strings.Fields(stdhtml.UnescapeString(tag.ReplaceAllString(h, " "))), " ")
}

// TestHTMLAttributesHoldText: a citation or a formula inside a link's
// title or a code block's language is written there as escaped text: no
// attribute value of the page holds markup. Fails on main (checked by
// stashing the fix): the citation span and the MathML closed the title
// and class attributes.
func TestHTMLAttributesHoldText(t *testing.T) {
	hits := []corpus.Hit{{File: "sat.pdf", Page: 1, Text: satPage, Label: "[sat.pdf p.1]", DocID: "d1"}}
	answer := "Unit propagation [x](https://ok.example \"see [sat.pdf p.1] and $a<b$\") assigns literals.\n\n" +
		"```$x$[sat.pdf p.1]\ncode\n```\n\n[y](https://ok.example '\" onmouseover=alert(1) $x$')"
	out := Markdown(answer, cite.Check(answer, hits))
	for _, m := range regexp.MustCompile(`="([^"]*)"`).FindAllStringSubmatch(out, -1) {
		if strings.ContainsAny(m[1], "<>") {
			t.Errorf("attribute value %q holds markup in:\n%s", m[1], out)
		}
	}
	for _, want := range []string{`title="see [sat.pdf p.1] and $a&lt;b$"`, `title="&quot; onmouseover=alert(1) $x$"`} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %s:\n%s", want, out)
		}
	}
}
