package export

import (
	"bufio"
	"bytes"
	stdhtml "html"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"vika/backend/mathml"
)

// safeMarkdown rewrites an answer's Markdown for the Markdown export from
// the same parse tree and link rules as the HTML export and the window
// (md with safeLinks): it parses the text, then writes the tree back as
// Markdown. Links survive only as safeLinks kept them (absolute http(s)),
// written inline; images become "Image: alt"; reference definitions are
// resolved by the parser and never written; raw HTML (inline or a block)
// is written as the text the HTML export shows; every text is written as
// the reader saw it (mdLiteral, noLinks), so nothing in it can form a
// link, an image, an autolink, a code span or HTML when a viewer reads
// the file again. Formulas keep their LaTeX ($...$, mdFormula's rules).
func safeMarkdown(s string) string {
	plain := noMarkers.Replace(writerMarks.Replace(s))
	marked, formulas := markMath(plain)
	src := []byte(marked)
	doc := md.Parser().Parse(text.NewReader(src))
	w := &mdWriter{src: src, plain: plain, formulas: formulas}
	return strings.TrimRight(w.blocks(doc, "\n\n"), "\n")
}

type mdWriter struct {
	src      []byte
	plain    string        // the text markMath was given
	formulas []mathml.Span // of plain, written after noLinks (mathMarker)
	codes    []string      // code spans, written after noLinks (codeMarker)
	inLink   bool          // writing a kept link's text: its brackets are escaped
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
	case *ast.HTMLBlock: // shown as the text it is, as the window and the HTML export do
		lines := w.lines(n)
		if b.HasClosure() {
			lines += string(b.ClosureLine.Value(w.src))
		}
		return w.fill(noLinks(mdLiteral(strings.TrimRight(lines, "\n"))))
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
	return w.fill(linkMarks.Replace(noLinks(w.inlines(n))))
}

// fill writes the code spans and formulas in place of their markers.
func (w *mdWriter) fill(s string) string {
	s = codeMarker.ReplaceAllStringFunc(s, func(m string) string {
		i, _ := strconv.Atoi(m[len("\uE013") : len(m)-len("\uE014")])
		return w.codes[i]
	})
	return mathMarker.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.Atoi(m[len(mathOpen) : len(m)-len(mathClose)])
		if n >= len(w.formulas) {
			return ""
		}
		return mdFormula(w.formulas[n], w.plain)
	})
}

// noLinks escapes each "]" followed by "(", "[", ":" or a kept link's
// middle, and each "!" followed by "[" or a kept link: without them, no
// inline link, full reference or definition can form from the text, nor
// any image (and the writer writes no definitions, so shortcut references
// resolve to nothing). A character already escaped (after an odd run of
// backslashes: mdLiteral doubles the text's own) stays.
func noLinks(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		rest := s[i+1:]
		closes := s[i] == ']' && (rest != "" && strings.IndexByte("([:", rest[0]) >= 0 || strings.HasPrefix(rest, linkMid))
		bang := s[i] == '!' && (strings.HasPrefix(rest, "[") || strings.HasPrefix(rest, linkOpen))
		if closes || bang {
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
		if v.IsRaw() {
			b.WriteString(w.literal(string(v.Segment.Value(w.src))))
		} else {
			b.WriteString(w.literal(shown(v.Segment.Value(w.src))))
		}
		switch {
		case v.HardLineBreak():
			b.WriteString("\\\n")
		case v.SoftLineBreak():
			b.WriteString("\n")
		}
	case *ast.String:
		if v.IsRaw() || v.IsCode() {
			b.WriteString(w.literal(string(v.Value)))
		} else {
			b.WriteString(w.literal(shown(v.Value)))
		}
	case *ast.CodeSpan:
		b.WriteString("\uE013" + strconv.Itoa(len(w.codes)) + "\uE014")
		w.codes = append(w.codes, codeSpan(w.codeText(v)))
	case *ast.Emphasis:
		mark := strings.Repeat("*", v.Level)
		b.WriteString(mark + w.inlines(v) + mark)
	case *east.Strikethrough:
		b.WriteString("~~" + w.inlines(v) + "~~")
	case *ast.Link: // kept by safeLinks: an absolute http(s) URL
		w.inLink = true
		label := w.inlines(v)
		w.inLink = false
		b.WriteString(linkOpen + label + linkMid + mdDest(string(v.Destination)) + linkClose)
	case *ast.AutoLink:
		b.WriteString("<" + mdDest(string(v.URL(w.src))) + ">")
	case *ast.RawHTML:
		segs := v.Segments
		for i := 0; i < segs.Len(); i++ {
			s := segs.At(i)
			b.WriteString(w.literal(string(s.Value(w.src))))
		}
	default:
		b.WriteString(w.inlines(n))
	}
}

// codeSpan writes code as a code span: backticks enough that none of
// code's closes it.
func codeSpan(code string) string {
	ticks := strings.Repeat("`", longestRun(code, '`')+1)
	if strings.HasPrefix(code, "`") || strings.HasSuffix(code, "`") {
		code = " " + code + " "
	}
	return ticks + code + ticks
}

// codeText is the text of a code span, as written.
func (w *mdWriter) codeText(n ast.Node) string {
	var b bytes.Buffer
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(w.src))
		}
	}
	return b.String()
}

// literal is mdLiteral, with the brackets escaped too inside a kept
// link's text (its text reads back whole, whatever brackets it holds).
func (w *mdWriter) literal(s string) string {
	s = mdLiteral(s)
	if w.inLink {
		s = strings.NewReplacer("[", `\[`, "]", `\]`).Replace(s)
	}
	return s
}

// shown is the text a reader sees for the Markdown source s of a text:
// backslash escapes and character references resolved, as goldmark's
// HTML writer (the HTML export's) resolves them.
func shown(s []byte) string {
	var b bytes.Buffer
	bw := bufio.NewWriter(&b)
	html.DefaultWriter.Write(bw, s)
	_ = bw.Flush()
	return stdhtml.UnescapeString(b.String())
}

// entityLike matches what a Markdown reader would read as a character
// reference ("&#58;", "&colon;").
var entityLike = regexp.MustCompile(`^&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]*);`)

// mdLiteral escapes text (what the reader saw, shown) so that a Markdown
// reader shows it as it is: no "<" to open HTML or an autolink, no
// emphasis, strikethrough or code from a stray "*", "_", "~" or "`", no
// character reference from a "&", no e-mail autolink (a mailto: link)
// from an "@" (links and images: noLinks, on the whole line, since a link
// can span several texts).
func mdLiteral(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<':
			b.WriteString("&lt;")
		case c == '>':
			b.WriteString("&gt;")
		case strings.IndexByte("\\*_`~", c) >= 0,
			c == '&' && entityLike.MatchString(s[i:]),
			c == '@' && i > 0 && emailChar(s[i-1]):
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// emailChar says whether c may end an e-mail address's local part, which
// GFM's autolinks make a mailto: link.
func emailChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(".-_+", c) >= 0
}

// mdDest writes a kept link's destination so that it reads back as one.
func mdDest(u string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E", `\`, "%5C", "\n", "", "\r", "").Replace(u)
}

func fenced(lang, code string) string {
	fence := strings.Repeat("`", max(3, longestRun(code, '`')+1))
	return fence + strings.TrimSpace(mdLiteral(lang)) + "\n" + code + fence
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
