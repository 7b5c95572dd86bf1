package prompt

import (
	"strconv"
	"strings"
	"unicode"

	"vika/backend/corpus"
)

// Label returns the citation label of a hit: its own, or one made from its
// file and page.
func Label(h corpus.Hit) string {
	if h.Label != "" {
		return h.Label
	}
	return corpus.CitationLabel(h.File, h.Unit, h.Page)
}

// writeSources writes the numbered sources:
//
//	<sources>
//	<source n="1" cite="[lecture_sat.pdf p.42]">
//	text
//	</source>
//	</sources>
//
// Text and attributes are escaped, so no document can close a source
// element or the list and speak outside it.
func writeSources(b *strings.Builder, hits []corpus.Hit) {
	b.WriteString("<sources>\n")
	for i, h := range hits {
		b.WriteString(`<source n="`)
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(`" cite="`)
		b.WriteString(escapeAttr(Label(h)))
		b.WriteString("\">\n")
		b.WriteString(escape(strings.TrimSpace(h.Text)))
		b.WriteString("\n</source>\n")
	}
	b.WriteString("</sources>\n")
}

// escape writes text as element content: &, < and > become entities, line
// ends are normalised and other control characters dropped.
func escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range strings.ReplaceAll(s, "\r\n", "\n") {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '\r':
			b.WriteByte('\n')
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case unicode.IsControl(r) || r == unicode.ReplacementChar:
			// dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsEscape(s string) bool {
	for _, r := range s {
		if r == '&' || r == '<' || r == '>' || (r != '\n' && r != '\t' && unicode.IsControl(r)) || r == unicode.ReplacementChar {
			return true
		}
	}
	return false
}

// escapeAttr escapes an attribute value (quotes too, and no line breaks).
func escapeAttr(s string) string {
	s = escape(s)
	s = strings.ReplaceAll(s, `"`, "&quot;")
	return strings.Join(strings.Fields(s), " ")
}
