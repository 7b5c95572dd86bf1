package export

import "strings"

// safeMarkdown applies the window's rules to an answer's Markdown for the
// export: an image becomes its alt text ("Image: alt"), never a reference
// to a remote picture; a link keeps its target only when it is an absolute
// http(s) URL, any other (javascript:, data:, file:, relative) becomes its
// plain text. Inline links and images ([text](url), ![alt](url "title"),
// with <url> destinations too) and reference definitions ([id]: url) are
// handled; text in code spans is left as it is, since no viewer makes
// links of it.
func safeMarkdown(s string) string {
	var b strings.Builder
	lines := strings.SplitAfter(s, "\n")
	fence := ""
	for _, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			b.WriteString(line)
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			b.WriteString(line)
		default:
			b.WriteString(safeLine(line))
		}
	}
	return b.String()
}

// safeLine rewrites the links and images of one line outside code.
func safeLine(line string) string {
	if id, dest, ok := refDefinition(line); ok {
		if isSafeURL(dest) {
			return line
		}
		return "[" + id + "]: (link removed)" + lineEnd(line)
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		c := line[i]
		if c == '`' { // a code span: copy it up to its closing run
			n := run(line[i:], '`')
			end := strings.Index(line[i+n:], strings.Repeat("`", n))
			if end < 0 {
				b.WriteString(line[i:])
				break
			}
			b.WriteString(line[i : i+n+end+n])
			i += n + end + n
			continue
		}
		if c == '\\' && i+1 < len(line) {
			b.WriteString(line[i : i+2])
			i += 2
			continue
		}
		image := c == '!' && i+1 < len(line) && line[i+1] == '['
		if c == '[' || image {
			open := i
			if image {
				open++
			}
			if text, dest, n, ok := inlineLink(line[open:]); ok {
				switch {
				case image:
					b.WriteString("Image: " + safeLine(text))
				case isSafeURL(dest):
					b.WriteString(line[open : open+n])
				default:
					b.WriteString(safeLine(text))
				}
				i = open + n
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// inlineLink parses "[text](dest ...)" at the start of s: the text, the
// destination and the length consumed.
func inlineLink(s string) (text, dest string, n int, ok bool) {
	depth, i := 0, 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
			continue
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if i >= len(s) || i+1 >= len(s) || s[i+1] != '(' {
		return "", "", 0, false
	}
	text = s[1:i]
	rest := s[i+2:]
	close, paren := -1, 0
	inAngle := strings.HasPrefix(strings.TrimLeft(rest, " "), "<")
	for j := 0; j < len(rest); j++ {
		c := rest[j]
		if c == '\\' {
			j++
			continue
		}
		if inAngle {
			if c == '>' {
				inAngle = false
			}
			continue
		}
		if c == '(' {
			paren++
		} else if c == ')' {
			if paren == 0 {
				close = j
				break
			}
			paren--
		}
	}
	if close < 0 {
		return "", "", 0, false
	}
	inside := strings.TrimSpace(rest[:close])
	if strings.HasPrefix(inside, "<") {
		if end := strings.IndexByte(inside, '>'); end > 0 {
			dest = inside[1:end]
		}
	} else if f := strings.Fields(inside); len(f) > 0 {
		dest = f[0]
	}
	return text, dest, i + 2 + close + 1, true
}

// refDefinition parses a link reference definition, "[id]: dest ...".
func refDefinition(line string) (id, dest string, ok bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || !strings.HasPrefix(t, "[") {
		return "", "", false
	}
	end := strings.Index(t, "]:")
	if end < 1 {
		return "", "", false
	}
	f := strings.Fields(t[end+2:])
	if len(f) == 0 {
		return "", "", false
	}
	return t[1:end], strings.Trim(f[0], "<>"), true
}

// isSafeURL is the window's rule (frontend/src/lib/markdown.ts): only
// absolute http(s) URLs stay links.
func isSafeURL(u string) bool {
	u = strings.ToLower(strings.TrimSpace(u))
	for _, p := range []string{"http://", "https://"} {
		if strings.HasPrefix(u, p) && len(u) > len(p) && !strings.ContainsAny(u[len(p):len(p)+1], " \t") {
			return true
		}
	}
	return false
}

func run(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

func lineEnd(line string) string {
	if strings.HasSuffix(line, "\n") {
		return "\n"
	}
	return ""
}
