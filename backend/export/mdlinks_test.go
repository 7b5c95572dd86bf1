package export

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"vika/backend/rag"
)

// liveParts parses out as Markdown viewers would (viewers: CommonMark,
// and with GFM's tables and autolinks; no filter) and lists what they
// would load or let the reader follow that the window's rules forbid: an
// image, raw HTML, a link or autolink to anything but an absolute http(s)
// URL.
func liveParts(out string) []string {
	src := []byte(out)
	var bad []string
	for _, v := range viewers {
		bad = append(bad, liveIn(v.Parser().Parse(text.NewReader(src)), src)...)
	}
	return bad
}

func liveIn(doc ast.Node, src []byte) []string {
	var bad []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *ast.Image:
			bad = append(bad, "image "+string(v.Destination))
		case *ast.RawHTML, *ast.HTMLBlock:
			bad = append(bad, "html")
		case *ast.Link:
			if !isSafeURL(string(v.Destination)) {
				bad = append(bad, "link "+string(v.Destination))
			}
		case *ast.AutoLink:
			if !isSafeURL(string(v.URL(src))) {
				bad = append(bad, "autolink "+string(v.URL(src)))
			}
		}
		return ast.WalkContinue, nil
	})
	return bad
}

func TestSafeMarkdown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"See ![the tracker](https://evil.example/pixel.png) here.", "See Image: the tracker here."},
		{"![](https://evil.example/p.png)", "Image: "},
		{`![chart](<https://x.example/a b.png> "title")`, "Image: chart"},
		{"[click](javascript:alert(document.cookie))", "click"},
		{"[x](JavaScript:alert(1))", "x"},
		{"[data](data:text/html;base64,PHNjcmlwdD4=)", "data"},
		{"[file](file:///etc/passwd)", "file"},
		{"[rel](../secrets.txt)", "rel"},
		{"[angle](<javascript:alert(1)>)", "angle"},
		{"[paper](https://arxiv.org/abs/1234.5678) and [doc](http://example.org/a_(b))", "[paper](https://arxiv.org/abs/1234.5678) and [doc](http://example.org/a_%28b%29)"},
		{"[nested ![img](https://t.example/i.png)](javascript:x)", "nested img"},
		{"[a][ok] [b][bad]\n\n[ok]: https://example.org\n[bad]: javascript:alert(1) \"t\"\n", "[a](https://example.org) b"},
		{"Code `[x](javascript:y)` stays.", "Code `[x](javascript:y)` stays."},
		{"```\n![a](https://t.example/p.png)\n```\n![b](https://t.example/p.png)", "```\n![a](https://t.example/p.png)\n```\n\nImage: b"},
		{"Citations [sat.pdf p.1] and [a] [b] stay.", "Citations [sat.pdf p.1] and [a] [b] stay."},
		{`Escaped \[x](javascript:y)`, `Escaped [x\](javascript:y)`},
		{"Unclosed [x](javascript:y", `Unclosed [x\](javascript:y`},
		{"- one\n- **two** with *stress*\n\n1. first\n2. second", "- one\n- **two** with *stress*\n\n1. first\n2. second"},
		{"| a | b |\n| --- | --: |\n| [x](javascript:y) | 2 |", "| a | b |\n| --- | --:--- |\n| x | 2 |"},
		{"# Title\n\n> quoted [x](https://ok.example)", "# Title\n\n> quoted [x](https://ok.example)"},
		{"Energy $E = mc^2$ and $a<b$.", "Energy $E = mc^2$ and $a\\lt b$."},
	} {
		got := safeMarkdown(tc.in)
		if got != tc.want {
			t.Errorf("safeMarkdown(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
		if bad := liveParts(got); len(bad) > 0 {
			t.Errorf("safeMarkdown(%q) = %q: a viewer would load or follow %v", tc.in, got, bad)
		}
	}
}

// TestSafeMarkdownVectors: the ways around a line filter (issue 28) leave
// nothing live once a viewer reads the export.
func TestSafeMarkdownVectors(t *testing.T) {
	for name, in := range map[string]string{
		"image inside a link":        "[![x](https://tracker.example/p.png)](https://ok.example)",
		"unsafe link in a safe one":  "[a [b](javascript:alert(1)) c](https://ok.example)",
		"safe link in an unsafe one": "[a [b](https://ok.example) c](javascript:alert(1))",
		"reference-style image":      "![x][img]\n\n[img]: https://tracker.example/p.png",
		"collapsed reference image":  "![img][]\n\n[img]: https://tracker.example/p.png",
		"definition in a list item":  "- [x]: javascript:alert(1)\n\n[click][x]",
		"definition in a quote":      "> [x]: javascript:alert(1)\n\n[click][x]",
		"target on the next line":    "[click][x]\n\n[x]:\n  javascript:alert(1)",
		"title on the next line":     "[x]: javascript:alert(1)\n  \"title\"\n\n[x]",
		"link split over two lines":  "[cl\nick](javascript:alert(1))",
		"image split over two lines": "![tra\ncker](https://tracker.example/p.png)",
		"destination on a new line":  "[click](\njavascript:alert(1))",
		"autolink":                   "<javascript:alert(1)> and <https://ok.example>",
		"raw html":                   "<img src=https://tracker.example/p.png> <a href=javascript:x>x</a>",
		"html block":                 "<div>\n<img src=https://tracker.example/p.png>\n</div>",
		"entity brackets":            "&#91;x&#93;(javascript:alert(1)) &lt;img src=x&gt;",
		"escaped closing bracket":    `[x\\](javascript:alert(1))`,
		"marker injection":           "\uE010x\uE011javascript:alert(1)\uE012",
	} {
		got := safeMarkdown(in)
		if bad := liveParts(got); len(bad) > 0 {
			t.Errorf("%s: %q -> %q: a viewer would load or follow %v", name, in, got, bad)
		}
	}
}

// TestExportMarkdownWindowRules: the exported Markdown holds no remote
// image and no link other than http(s), in the answer, the question or
// the footer.
func TestExportMarkdownWindowRules(t *testing.T) {
	a := rag.Answer{Question: "Why [click](javascript:alert(1)) ![t](https://tracker.example/q.png)?", Kind: rag.KindLLM,
		Footer: "Model used: [x](javascript:alert(2)) <https://ok.example>",
		Answer: "Look ![chart](https://tracker.example/p.png?u=1) and [run](javascript:alert(1)), [local](file:///home/u/.ssh/id_rsa), [ok](https://example.org)."}
	var b bytes.Buffer
	if err := Conversation(&b, FormatMarkdown, []rag.Answer{a}, exportTime); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if bad := liveParts(out); len(bad) > 0 {
		t.Errorf("a viewer would load or follow %v in:\n%s", bad, out)
	}
	if !strings.Contains(out, "Look Image: chart and run, local, [ok](https://example.org).") {
		t.Errorf("export:\n%s", out)
	}
}
