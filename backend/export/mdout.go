package export

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// safeMarkdown rewrites an answer's Markdown for the Markdown export from
// the same parse tree and link rules as the HTML export and the window
// (md with safeLinks): it parses the text, then writes the tree back as
// Markdown. Links survive only as safeLinks kept them (absolute http(s)),
// written inline; images become "Image: alt"; reference definitions are
// resolved by the parser and never written; every literal "<", ">" and
// backslash of the text is escaped (and each "]" that would close one), so nothing in it can form a link,
// an image, an autolink or HTML when a viewer reads the file again.
// Formulas keep their LaTeX ($...$, texForMarkdown's rules).
func safeMarkdown(s string) string {
	marked, formulas := markMath(noMarkers.Replace(writerMarks.Replace(s)))
	src := []byte(marked)
	doc := md.Parser().Parse(text.NewReader(src))
	w := &mdWriter{src: src}
	out := strings.TrimRight(w.blocks(doc, "\n\n"), "\n")
	return mathMarker.ReplaceAllStringFunc(out, func(m string) string {
		n, _ := strconv.Atoi(m[len(mathOpen) : len(m)-len(mathClose)])
		if n >= len(formulas) {
			return ""
		}
		d := "$"
		if formulas[n].Display {
			d = "$$"
		}
		return d + texNoHTML.Replace(formulas[n].TeX) + d
	})
}

type mdWriter struct {
	src   []byte
	codes []string // code spans, written after noLinks (codeMarker)
}

// blocks writes n's block children, separated by sep.
func (w *mdWriter) blocks(n ast.Node, sep string) string {
	var parts []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if s := w.block(c); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, sep)
}

func (w *mdWriter) block(n ast.Node) string {
	switch b := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return w.inlineBlock(n)
	case *ast.Heading:
		return strings.Repeat("#", b.Level) + " " + w.inlineBlock(n)
	case *ast.ThematicBreak:
		return "---"
	case *ast.Blockquote:
		return prefixLines(w.blocks(n, "\n\n"), "> ", "> ")
	case *ast.List:
		return w.list(b)
	case *ast.FencedCodeBlock:
		return fenced(string(b.Language(w.src)), w.lines(n))
	case *ast.CodeBlock:
		return fenced("", w.lines(n))
	case *ast.HTMLBlock: // shown as the text it is, as the window does
		return mdText(strings.TrimRight(w.lines(n), "\n"))
	case *east.Table:
		return w.table(b)
	}
	return w.blocks(n, "\n\n")
}

func (w *mdWriter) lines(n ast.Node) string {
	var b strings.Builder
	l := n.Lines()
	for i := 0; i < l.Len(); i++ {
		seg := l.At(i)
		b.Write(seg.Value(w.src))
	}
	return b.String()
}

func (w *mdWriter) list(l *ast.List) string {
	sep := "\n\n"
	if l.IsTight {
		sep = "\n"
	}
	var items []string
	num := l.Start
	for c := l.FirstChild(); c != nil; c = c.NextSibling() {
		marker := "- "
		if l.IsOrdered() {
			marker = strconv.Itoa(num) + ". "
			num++
		}
		body := w.blocks(c, sep)
		items = append(items, prefixLines(body, marker, strings.Repeat(" ", len(marker))))
	}
	return strings.Join(items, sep)
}

func (w *mdWriter) table(t *east.Table) string {
	var rows []string
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, strings.ReplaceAll(w.inlineBlock(c), "|", `\|`))
		}
		rows = append(rows, "| "+strings.Join(cells, " | ")+" |")
		if _, header := r.(*east.TableHeader); header {
			var align []string
			for _, a := range t.Alignments {
				align = append(align, map[east.Alignment]string{east.AlignLeft: ":--", east.AlignRight: "--:", east.AlignCenter: ":-:"}[a]+"---")
			}
			rows = append(rows, "| "+strings.Join(align, " | ")+" |")
		}
	}
	return strings.Join(rows, "\n")
}

// Private-use characters stand for the brackets of the links the writer
// keeps until noLinks has escaped those of the text.
const (
	linkOpen  = "\uE010"
	linkMid   = "\uE011"
	linkClose = "\uE012"
)

var (
	// writerMarks removes the writer's marker characters from the text.
	writerMarks = strings.NewReplacer(linkOpen, "", linkMid, "", linkClose, "", "\uE013", "", "\uE014", "")
	linkMarks   = strings.NewReplacer(linkOpen, "[", linkMid, "](", linkClose, ")")
	codeMarker  = regexp.MustCompile("\uE013([0-9]+)\uE014")
)

// inlineBlock writes n's inline children: the text's brackets escaped
// where they would close a link (noLinks), then the kept links.
func (w *mdWriter) inlineBlock(n ast.Node) string {
	s := linkMarks.Replace(noLinks(w.inlines(n)))
	return codeMarker.ReplaceAllStringFunc(s, func(m string) string {
		i, _ := strconv.Atoi(m[len("\uE013") : len(m)-len("\uE014")])
		return w.codes[i]
	})
}

// noLinks escapes each "]" followed by "(", "[" or ":": without one, no
// inline link or image, full reference or definition can form (and the
// writer writes no definitions, so shortcut references resolve to
// nothing). "]" already escaped (after an odd run of backslashes) stays.
func noLinks(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == ']' && i+1 < len(s) && strings.IndexByte("([:", s[i+1]) >= 0 {
			n := 0
			for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
				n++
			}
			if n%2 == 0 {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// inlines writes n's inline children.
func (w *mdWriter) inlines(n ast.Node) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.inline(&b, c)
	}
	return b.String()
}

func (w *mdWriter) inline(b *strings.Builder, n ast.Node) {
	switch v := n.(type) {
	case *ast.Text:
		b.WriteString(mdText(string(util.UnescapePunctuations(v.Segment.Value(w.src)))))
		switch {
		case v.HardLineBreak():
			b.WriteString("\\\n")
		case v.SoftLineBreak():
			b.WriteString("\n")
		}
	case *ast.String:
		b.WriteString(mdText(string(v.Value)))
	case *ast.CodeSpan:
		code := w.plain(v)
		ticks := strings.Repeat("`", longestRun(code, '`')+1)
		if strings.HasPrefix(code, "`") || strings.HasSuffix(code, "`") {
			code = " " + code + " "
		}
		b.WriteString("\uE013" + strconv.Itoa(len(w.codes)) + "\uE014")
		w.codes = append(w.codes, ticks+code+ticks)
	case *ast.Emphasis:
		mark := strings.Repeat("*", v.Level)
		b.WriteString(mark + w.inlines(v) + mark)
	case *east.Strikethrough:
		b.WriteString("~~" + w.inlines(v) + "~~")
	case *ast.Link: // kept by safeLinks: an absolute http(s) URL
		b.WriteString(linkOpen + w.inlines(v) + linkMid + mdDest(string(v.Destination)) + linkClose)
	case *ast.AutoLink:
		b.WriteString("<" + mdDest(string(v.URL(w.src))) + ">")
	case *ast.RawHTML:
		segs := v.Segments
		for i := 0; i < segs.Len(); i++ {
			s := segs.At(i)
			b.WriteString(mdText(string(s.Value(w.src))))
		}
	default:
		b.WriteString(w.inlines(n))
	}
}

// plain is the text of a code span, as written.
func (w *mdWriter) plain(n ast.Node) string {
	var b bytes.Buffer
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(w.src))
		}
	}
	return b.String()
}

// mdText escapes text so that a Markdown reader shows it as it is: no
// "<" to open HTML or an autolink, no emphasis or code from a stray "*",
// "_" or "`" (links: noLinks, on the whole line).
var mdText = strings.NewReplacer(`\`, `\\`, "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`").Replace

// mdDest writes a kept link's destination so that it reads back as one.
func mdDest(u string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E", "\n", "", "\r", "").Replace(u)
}

func fenced(lang, code string) string {
	fence := strings.Repeat("`", max(3, longestRun(code, '`')+1))
	return fence + strings.TrimSpace(mdText(lang)) + "\n" + code + fence
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// prefixLines puts first before the first line of s and rest before the
// others (blank lines stay blank).
func prefixLines(s, first, rest string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if l == "" && i > 0 {
			p = strings.TrimRight(p, " ")
		}
		lines[i] = p + l
	}
	return strings.Join(lines, "\n")
}
