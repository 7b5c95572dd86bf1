package chunk

import (
	"strings"
	"unicode"
)

// Clean normalises the white space of a passage, using the passage itself
// to decide hyphenation (see cleaner). Split uses the whole page instead.
func Clean(r []rune) string { return newCleaner(r).clean(r) }

// cleaner normalises the white space of passages of one page: a run of
// white space containing a blank line becomes one newline, any other run
// one space. A word hyphenated across a line break is joined when the
// next line starts in lower case: "representa-\ntion" -> "representation",
// but the hyphen is kept when the page also writes the word as a compound
// on one line ("fine-\ntuning" -> "fine-tuning" if "fine-tuning" occurs)
// or when the first part is already a compound ("state-of-the-\nart").
type cleaner struct {
	compounds map[string]bool // lower-case hyphenated words written on one line
}

func newCleaner(page []rune) cleaner {
	c := cleaner{compounds: map[string]bool{}}
	for _, w := range strings.Fields(string(page)) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if i := strings.IndexByte(w, '-'); i > 0 && i < len(w)-1 {
			c.compounds[strings.ToLower(w)] = true
		}
	}
	return c
}

func (c cleaner) clean(r []rune) string {
	var b strings.Builder
	b.Grow(len(r))
	i := 0
	for i < len(r) && unicode.IsSpace(r[i]) {
		i++
	}
	for i < len(r) {
		ch := r[i]
		if ch == '-' && i > 0 && unicode.IsLetter(r[i-1]) {
			if j := hyphenBreak(r, i); j > 0 {
				if c.keepHyphen(r, i, j) {
					b.WriteRune('-')
				}
				i = j // continue with the next line's letter
				continue
			}
		}
		if !unicode.IsSpace(ch) {
			b.WriteRune(ch)
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

// keepHyphen decides for the line-end hyphen at r[h] whose word continues
// at r[next].
func (c cleaner) keepHyphen(r []rune, h, next int) bool {
	s := h
	for s > 0 && (unicode.IsLetter(r[s-1]) || unicode.IsDigit(r[s-1]) || r[s-1] == '-') {
		s--
	}
	e := next
	for e < len(r) && (unicode.IsLetter(r[e]) || unicode.IsDigit(r[e]) || r[e] == '-') {
		e++
	}
	left := string(r[s:h])
	if strings.ContainsRune(left, '-') {
		return true
	}
	return c.compounds[strings.ToLower(left+"-"+string(r[next:e]))]
}

// hyphenBreak returns the index of the lower-case letter that continues
// the word hyphenated at r[i], or 0 if r[i] is not a line-end hyphen.
func hyphenBreak(r []rune, i int) int {
	j := i + 1
	for j < len(r) && (r[j] == ' ' || r[j] == '\t') {
		j++
	}
	if j >= len(r) || r[j] != '\n' {
		return 0
	}
	j++
	for j < len(r) && (r[j] == ' ' || r[j] == '\t') {
		j++
	}
	if j < len(r) && unicode.IsLower(r[j]) {
		return j
	}
	return 0
}
