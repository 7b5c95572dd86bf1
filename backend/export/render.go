package export

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"vika/backend/cite"
	"vika/backend/message"
	"vika/backend/metrics"
)

// Private-use characters mark where a citation sits in the Markdown
// source, as the window's renderer does; Markdown leaves them alone.
const (
	citeOpen  = "\uE000"
	citeClose = "\uE001"
)

// marker matches a citation's marker (group 1) or a formula's (group 2,
// markMath) in the rendered HTML.
var marker = regexp.MustCompile("\uE000([0-9]+)\uE001|\uE002([0-9]+)\uE003")

// never matches anything: linkify makes links of absolute http(s) URLs
// only, not of "www." or e-mail addresses (as the window).
var never = regexp.MustCompile(`[^\s\S]`)

// md renders Markdown under the window's rules: raw HTML is escaped (the
// renderer is not "unsafe"), links only to absolute http(s) URLs (the
// others become their text), images never load (their alt text is shown),
// and links carry rel="noopener noreferrer".
var md = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough,
		extension.NewLinkify(
			extension.WithLinkifyAllowedProtocols([]string{"http:", "https:"}),
			extension.WithLinkifyWWWRegexp(never),
			extension.WithLinkifyEmailRegexp(never))),
	goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(safeLinks{}, 999))),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(rawAsText{}, 0))),
)

// rawAsText shows raw HTML as the text it is (the window's markdown-it
// with html: false does the same), instead of dropping it.
type rawAsText struct{}

func (rawAsText) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			segs := n.(*ast.RawHTML).Segments
			for i := 0; i < segs.Len(); i++ {
				s := segs.At(i)
				_, _ = w.WriteString(html.EscapeString(string(s.Value(source))))
			}
		}
		return ast.WalkSkipChildren, nil
	})
	reg.Register(ast.KindHTMLBlock, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		b := n.(*ast.HTMLBlock)
		_, _ = w.WriteString("<p>")
		lines := b.Lines()
		for i := 0; i < lines.Len(); i++ {
			s := lines.At(i)
			_, _ = w.WriteString(html.EscapeString(string(s.Value(source))))
		}
		if b.HasClosure() {
			_, _ = w.WriteString(html.EscapeString(string(b.ClosureLine.Value(source))))
		}
		_, _ = w.WriteString("</p>\n")
		return ast.WalkSkipChildren, nil
	})
}

// noMarkers removes the marker characters (citations', formulas') from an
// answer's own text.
var noMarkers = strings.NewReplacer(citeOpen, "", citeClose, "", mathOpen, "", mathClose, "")

// Markdown renders an answer's Markdown as safe HTML, each citation of
// cits (byte offsets into answer) as a span saying whether it was
// verified, each formula as MathML (mathml.Render). Key-shaped strings are redacted (metrics.Redact).
func Markdown(answer string, cits []cite.Citation) string {
	cits = append([]cite.Citation(nil), cits...)
	sort.Slice(cits, func(i, j int) bool { return cits[i].Start < cits[j].Start })
	var src strings.Builder
	var kept []cite.Citation
	pos := 0
	for _, c := range cits {
		if c.Start < pos || c.End > len(answer) || c.Start >= c.End {
			continue // overlapping or stale offsets: left as text
		}
		src.WriteString(noMarkers.Replace(answer[pos:c.Start]))
		src.WriteString(citeOpen + strconv.Itoa(len(kept)) + citeClose)
		kept = append(kept, c)
		pos = c.End
	}
	src.WriteString(noMarkers.Replace(answer[pos:]))
	text := metrics.Redact(src.String()) // links, images and HTML: safeLinks and rawAsText, on the tree
	marked, formulas := markMath(text)
	var out bytes.Buffer
	if err := md.Convert([]byte(marked), &out); err != nil {
		return "<p>" + esc(answer) + "</p>"
	}
	return fillMarkers(out.String(), func(n int, inTag bool) string {
		switch {
		case n >= len(kept):
			return ""
		case inTag:
			return esc(kept[n].Raw)
		}
		return citeSpan(kept[n])
	}, func(n int, inTag bool) string {
		switch {
		case n >= len(formulas):
			return ""
		case inTag:
			return esc(text[formulas[n].Start:formulas[n].End])
		}
		return formulaHTML(formulas[n], text)
	})
}

// fillMarkers replaces each marker of the rendered HTML h in one pass:
// citations' by cite(n), formulas' by math(n). inTag says the marker sits
// inside a tag (a value of an attribute: a link's title, a code block's
// language), where the replacement must be escaped text, never markup:
// markup there would close the attribute. The renderer escapes "<" and
// ">" in text and attributes (raw HTML: rawAsText), so the last of them
// before a marker says whether it is inside a tag.
func fillMarkers(h string, cite, math func(n int, inTag bool) string) string {
	var b strings.Builder
	inTag, pos := false, 0
	for _, m := range marker.FindAllStringSubmatchIndex(h, -1) {
		if i := strings.LastIndexAny(h[pos:m[0]], "<>"); i >= 0 {
			inTag = h[pos+i] == '<'
		}
		b.WriteString(h[pos:m[0]])
		if m[2] >= 0 {
			n, _ := strconv.Atoi(h[m[2]:m[3]])
			b.WriteString(cite(n, inTag))
		} else {
			n, _ := strconv.Atoi(h[m[4]:m[5]])
			b.WriteString(math(n, inTag))
		}
		pos = m[1]
	}
	b.WriteString(h[pos:])
	return b.String()
}

// citeSpan is a citation as the export shows it.
func citeSpan(c cite.Citation) string {
	class, title := "cite", "verified against "+c.Label
	if !c.Verified {
		class, title = "cite unverified", "not verified: "+message.New(c.Reason).English()
	}
	return fmt.Sprintf(`<span class="%s" title="%s">%s</span>`, class, esc(title), esc(c.Raw))
}

// safeLinks turns links to anything but absolute http(s) URLs into their
// text, images into "Image: alt", and marks the links it keeps
// rel="noopener noreferrer".
type safeLinks struct{}

func (safeLinks) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	var replace []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.Link:
			if !isSafeURL(string(l.Destination)) {
				replace = append(replace, n)
				return ast.WalkSkipChildren, nil
			}
			l.SetAttributeString("rel", []byte("noopener noreferrer"))
		case *ast.AutoLink:
			if !isSafeURL(string(l.URL(source))) {
				replace = append(replace, n)
				return ast.WalkSkipChildren, nil
			}
			l.SetAttributeString("rel", []byte("noopener noreferrer"))
		case *ast.Image:
			replace = append(replace, n)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	for _, n := range replace {
		label := plainText(n, source)
		if _, ok := n.(*ast.Image); ok {
			label = "Image: " + label
		}
		n.Parent().ReplaceChild(n.Parent(), n, ast.NewString([]byte(label)))
	}
}

// plainText is the text of n's inline children (an autolink's URL).
func plainText(n ast.Node, source []byte) string {
	if a, ok := n.(*ast.AutoLink); ok {
		return string(a.Label(source))
	}
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Segment.Value(source))
			}
			if s, ok := c.(*ast.String); ok {
				b.Write(s.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

func esc(s string) string { return html.EscapeString(metrics.Redact(s)) }
