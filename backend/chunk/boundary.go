package chunk

import (
	"strings"
	"unicode"
)

// breakPoint returns where a chunk starting at s should end, looking back
// from hi (exclusive) to the middle of the window: the last paragraph
// break, else the last sentence end, else the last line break, else the
// last space, else hi itself (a very long word).
func breakPoint(r []rune, s, hi int) int {
	if hi > len(r) {
		hi = len(r)
	}
	lo := s + (hi-s)/2
	for _, found := range []func([]rune, int) bool{isParagraphBreak, isSentenceEnd, isLineBreak, isSpace} {
		for i := hi; i > lo; i-- {
			if found(r, i) {
				return i
			}
		}
	}
	return hi
}

// restart returns where the next chunk starts, at or after lo and before
// e: the first sentence start in that range, else the first word start,
// else e.
func restart(r []rune, lo, e int) int {
	if lo < 0 {
		lo = 0
	}
	if lo >= e {
		return e
	}
	for i := lo; i < e; i++ {
		if isSentenceEnd(r, i) {
			return i
		}
	}
	for i := lo; i < e; i++ {
		if isSpace(r, i) {
			return i
		}
	}
	return e
}

// The predicates below tell whether a chunk may end right before r[i]:
// r[i] is white space and the text before it closes a paragraph, a
// sentence, a line or a word.

func isSpace(r []rune, i int) bool {
	return i > 0 && i < len(r) && unicode.IsSpace(r[i]) && !unicode.IsSpace(r[i-1])
}

func isLineBreak(r []rune, i int) bool {
	return isSpace(r, i) && r[i] == '\n'
}

func isParagraphBreak(r []rune, i int) bool {
	return isLineBreak(r, i) && i+1 < len(r) && r[i+1] == '\n'
}

func isSentenceEnd(r []rune, i int) bool {
	if !isSpace(r, i) {
		return false
	}
	j := i - 1
	for j > 0 && strings.ContainsRune(`"')]»”’`, r[j]) {
		j--
	}
	if !strings.ContainsRune(".!?…", r[j]) {
		return false
	}
	return r[j] != '.' || !abbreviation(r, j)
}

// abbreviations that usually do not end a sentence (lower case, no dot).
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "al": true, "cf": true, "vs": true, "fig": true, "figs": true,
	"eq": true, "eqs": true, "sec": true, "no": true, "vol": true, "pp": true, "resp": true,
	"dr": true, "mr": true, "mrs": true, "prof": true, "approx": true, "p": true, "ex": true,
}

// abbreviation reports whether the dot at r[dot] ends an abbreviation or
// an initial ("J. Smith").
func abbreviation(r []rune, dot int) bool {
	k := dot
	for k > 0 && !unicode.IsSpace(r[k-1]) && r[k-1] != '(' {
		k--
	}
	word := strings.ToLower(string(r[k:dot]))
	if abbreviations[word] {
		return true
	}
	w := []rune(word)
	return len(w) == 1 && unicode.IsLetter(w[0]) && unicode.IsUpper(r[k])
}
