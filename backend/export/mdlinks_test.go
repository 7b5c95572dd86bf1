package export

import (
	"bytes"
	"strings"
	"testing"

	"vika/backend/rag"
)

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
		{"[paper](https://arxiv.org/abs/1234.5678) and [doc](http://example.org/a_(b))", "[paper](https://arxiv.org/abs/1234.5678) and [doc](http://example.org/a_(b))"},
		{"[nested ![img](https://t.example/i.png)](javascript:x)", "nested Image: img"},
		{"[ok]: https://example.org\n[bad]: javascript:alert(1) \"t\"\n", "[ok]: https://example.org\n[bad]: (link removed)\n"},
		{"Code `[x](javascript:y)` stays.", "Code `[x](javascript:y)` stays."},
		{"```\n![a](https://t.example/p.png)\n```\n![b](https://t.example/p.png)", "```\n![a](https://t.example/p.png)\n```\nImage: b"},
		{"Citations [sat.pdf p.1] and [a] [b] stay.", "Citations [sat.pdf p.1] and [a] [b] stay."},
		{`Escaped \[x](javascript:y)`, `Escaped \[x](javascript:y)`},
		{"Unclosed [x](javascript:y", "Unclosed [x](javascript:y"},
	} {
		if got := safeMarkdown(tc.in); got != tc.want {
			t.Errorf("safeMarkdown(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestExportMarkdownWindowRules: the exported Markdown holds no remote
// image and no link other than http(s).
func TestExportMarkdownWindowRules(t *testing.T) {
	a := rag.Answer{Question: "q", Kind: rag.KindLLM, Footer: "Model used: x",
		Answer: "Look ![chart](https://tracker.example/p.png?u=1) and [run](javascript:alert(1)), [local](file:///home/u/.ssh/id_rsa), [ok](https://example.org)."}
	var b bytes.Buffer
	if err := Conversation(&b, FormatMarkdown, []rag.Answer{a}, exportTime); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"tracker.example", "javascript:", "file:", "!["} {
		if strings.Contains(out, bad) {
			t.Errorf("export holds %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "Look Image: chart and run, local, [ok](https://example.org).") {
		t.Errorf("export:\n%s", out)
	}
}
