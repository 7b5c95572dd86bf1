package ocr

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// CER returns the character error rate of hypothesis against reference:
// the Levenshtein distance between the two (insertions, deletions and
// substitutions of Unicode code points) divided by the length of the
// reference, after CollapseSpace on both. It is 0 for identical texts
// and may exceed 1 when the hypothesis is much longer than the
// reference. An empty reference gives 0 against an empty hypothesis and 1
// against anything else.
func CER(reference, hypothesis string) float64 {
	ref, hyp := CollapseSpace(reference), CollapseSpace(hypothesis)
	n := utf8.RuneCountInString(ref)
	if n == 0 {
		if hyp == "" {
			return 0
		}
		return 1
	}
	return float64(Levenshtein(ref, hyp)) / float64(n)
}

// CollapseSpace replaces every run of white space (including newlines
// and form feeds) by one space and trims both ends.
func CollapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Levenshtein returns the edit distance between a and b counted in
// Unicode code points. It takes O(len(a)*len(b)) time and O(len(b))
// memory.
func Levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra // keep the row short
	}
	row := make([]int, len(rb)+1)
	for j := range row {
		row[j] = j
	}
	for i, ca := range ra {
		diag := row[0] // row[i][j-1] of the previous row
		row[0] = i + 1
		for j, cb := range rb {
			cost := 1
			if ca == cb {
				cost = 0
			}
			up := row[j+1]
			row[j+1] = min(up+1, row[j]+1, diag+cost)
			diag = up
		}
	}
	return row[len(rb)]
}

// Normalize folds differences between two renderings of the same text
// that are not recognition errors, for a fair CER. It keeps case and
// every word; it
//   - applies Unicode NFKC (ligatures such as "ﬁ" become "fi",
//     superscript digits become digits, non-breaking spaces become spaces);
//   - maps typographic apostrophes to ' and hyphen and minus variants
//     (‐ ‑ ‒ – — −) to -;
//   - joins words hyphenated across a line break ("échan-\ntillons"
//     becomes "échantillons"), as text extractors such as pdftotext do;
//   - collapses white space like CollapseSpace.
func Normalize(s string) string {
	s = norm.NFKC.String(s)
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\u2018', '\u2019', '\u02bc', '\u2032':
			return '\''
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212':
			return '-'
		}
		return r
	}, s)
	return CollapseSpace(dehyphenate(s))
}

// lineHyphen is a hyphen ending a line, with the white space after it.
var lineHyphen = regexp.MustCompile(`-[ \t]*\n\s*`)

// dehyphenate removes a hyphen that ends a line, and the white space
// after it, when a letter precedes it and a lower-case letter follows
// (blank lines in between are allowed: OCR sometimes splits a paragraph
// at a hyphen).
func dehyphenate(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, m := range lineHyphen.FindAllStringIndex(s, -1) {
		before, _ := utf8.DecodeLastRuneInString(s[:m[0]])
		after, _ := utf8.DecodeRuneInString(s[m[1]:])
		if unicode.IsLetter(before) && unicode.IsLower(after) {
			b.WriteString(s[last:m[0]])
			last = m[1]
		}
	}
	b.WriteString(s[last:])
	return b.String()
}
