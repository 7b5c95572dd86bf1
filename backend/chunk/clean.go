package chunk

import (
	"strings"
	"unicode"
)

// Clean flattens the white space of a passage for indexing: a run of
// white space containing a blank line (a paragraph break) becomes one
// newline, any other run one space, and the ends are trimmed. Page text
// comes cleaned from package pdf (ligatures, hyphenation, control
// characters), so this is all a chunk needs.
func Clean(r []rune) string {
	var b strings.Builder
	b.Grow(len(r))
	i := 0
	for i < len(r) && unicode.IsSpace(r[i]) {
		i++
	}
	for i < len(r) {
		if !unicode.IsSpace(r[i]) {
			b.WriteRune(r[i])
			i++
			continue
		}
		newlines, j := 0, i
		for j < len(r) && unicode.IsSpace(r[j]) {
			if r[j] == '\n' {
				newlines++
			}
			j++
		}
		if j < len(r) { // no trailing white space
			if newlines >= 2 {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
		i = j
	}
	return b.String()
}
