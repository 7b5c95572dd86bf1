package mathml

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a formula in a text: text[Start:End] is the formula with its
// delimiters, TeX its LaTeX, Display true for $$...$$ and \[...\].
type Span struct {
	Start, End int
	TeX        string
	Display    bool
}

// maxTeX bounds one formula (bytes): a longer run between dollars is not one.
const maxTeX = 4000

// Find returns the formulas of a Markdown text in order, under the
// window's rules (frontend/src/lib/math.ts): $...$, $$...$$, \(...\) and
// \[...\]; an opening $ must touch the formula and a closing one too, not
// followed by a digit, so "costs $5 and $10" holds none, nor does text
// between two prices that starts with a digit and holds a word; code spans and
// fenced code blocks are left alone.
func Find(text string) []Span {
	var out []Span
	fence := ""
	for i := 0; i < len(text); i++ {
		if i == 0 || text[i-1] == '\n' {
			if f, skip := fenceLine(text[i:], fence); skip > 0 {
				fence = f
				i += skip - 1
				continue
			}
		}
		switch text[i] {
		case '`':
			i = skipCode(text, i) - 1
		case '\\':
			if s, ok := At(text, i); ok {
				out = append(out, s)
				i = s.End - 1
			} else {
				i++ // an escaped character: \$ is a dollar
			}
		case '$':
			if s, ok := At(text, i); ok {
				out = append(out, s)
				i = s.End - 1
			}
		}
	}
	return out
}

// fenceLine reports how many bytes of the line at the start of s to skip
// as code (0 for none), and the fence open after it.
func fenceLine(s, fence string) (string, int) {
	line := s
	if n := strings.IndexByte(s, '\n'); n >= 0 {
		line = s[:n+1]
	}
	trimmed := strings.TrimLeft(line, " ")
	switch {
	case fence != "":
		if strings.HasPrefix(trimmed, fence) {
			return "", len(line)
		}
		return fence, len(line)
	case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
		return trimmed[:3], len(line)
	}
	return "", 0
}

// skipCode returns the end of the code span opened by the run of
// backticks at i (CommonMark: closed by a run of the same length), or the
// end of that run when nothing closes it.
func skipCode(text string, i int) int {
	n := 0
	for i+n < len(text) && text[i+n] == '`' {
		n++
	}
	run := strings.Repeat("`", n)
	for j := i + n; j < len(text); {
		k := strings.Index(text[j:], run)
		if k < 0 {
			break
		}
		end := j + k + n
		if end >= len(text) || text[end] != '`' {
			return end
		}
		for end < len(text) && text[end] == '`' {
			end++
		}
		j = end
	}
	return i + n
}

// At returns the formula that starts at byte i of text, if one does.
func At(text string, i int) (Span, bool) {
	rest := text[i:]
	switch {
	case strings.HasPrefix(rest, `\(`):
		return closed(text, i, `\(`, `\)`, false)
	case strings.HasPrefix(rest, `\[`):
		return closed(text, i, `\[`, `\]`, true)
	case !strings.HasPrefix(rest, "$") || (i > 0 && text[i-1] == '\\'):
		return Span{}, false
	case strings.HasPrefix(rest, "$$"):
		return closed(text, i, "$$", "$$", true)
	}
	return dollar(text, i)
}

func closed(text string, i int, open, close string, display bool) (Span, bool) {
	from := i + len(open)
	k := strings.Index(text[from:], close)
	if k < 0 || k > maxTeX {
		return Span{}, false
	}
	tex := strings.TrimSpace(text[from : from+k])
	if tex == "" {
		return Span{}, false
	}
	return Span{Start: i, End: from + k + len(close), TeX: tex, Display: display}, true
}

// dollar finds the closing $ of an inline formula opened at i.
func dollar(text string, i int) (Span, bool) {
	first, _ := utf8.DecodeRuneInString(text[i+1:])
	if i+1 >= len(text) || unicode.IsSpace(first) {
		return Span{}, false
	}
	for j := i + 1; j < len(text) && j-i <= maxTeX; j++ {
		switch text[j] {
		case '\\':
			j++
			continue
		case '\n':
			if j+1 < len(text) && text[j+1] == '\n' {
				return Span{}, false
			}
			continue
		case '$':
		default:
			continue
		}
		before, _ := utf8.DecodeLastRuneInString(text[:j])
		if unicode.IsSpace(before) || (j+1 < len(text) && text[j+1] >= '0' && text[j+1] <= '9') {
			return Span{}, false
		}
		if prose(text[i+1 : j]) {
			return Span{}, false
		}
		return Span{Start: i, End: j + 1, TeX: text[i+1 : j]}, true
	}
	return Span{}, false
}

var (
	controlWord = regexp.MustCompile(`\\[A-Za-z]+`)
	spacedWord  = regexp.MustCompile(`(?:^|\s)[A-Za-z]{2,}`)
)

// prose is text between two prices ("$10 a month, or US$"): it starts
// with a digit and holds a word outside LaTeX commands.
func prose(tex string) bool {
	return tex[0] >= '0' && tex[0] <= '9' && spacedWord.MatchString(controlWord.ReplaceAllString(tex, ""))
}
