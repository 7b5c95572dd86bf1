package chunk

import (
	"strings"
	"unicode"
)

type heading struct {
	at    int // rune offset of the heading in the page text
	title string
}

// unnumbered lists section names recognised without a number (lower case).
var unnumbered = map[string]bool{
	"abstract": true, "introduction": true, "conclusion": true, "conclusions": true,
	"references": true, "bibliography": true, "acknowledgments": true, "acknowledgements": true,
	"related work": true, "discussion": true, "appendix": true, "résumé": true,
	"bibliographie": true, "remerciements": true, "sommaire": true, "table des matières": true,
	"contents": true, "table of contents": true, "summary": true, "methods": true, "results": true,
}

// headings finds section titles on a page: short blocks (text between
// blank lines) of one or two lines that are either a known section name or
// a section number ("3", "2.1", "IV.") followed by a capitalised title.
// The rule is deliberately conservative: a missed heading only leaves the
// previous section title in force.
func headings(r []rune) []heading {
	var out []heading
	i := 0
	for i < len(r) {
		for i < len(r) && unicode.IsSpace(r[i]) {
			i++
		}
		start := i
		for i < len(r) && !(r[i] == '\n' && i+1 < len(r) && r[i+1] == '\n') {
			i++
		}
		if title, ok := headingTitle(string(r[start:i])); ok {
			out = append(out, heading{at: start, title: title})
		}
	}
	return out
}

func headingTitle(block string) (string, bool) {
	block = strings.TrimSpace(block)
	if block == "" || strings.Count(block, "\n") > 1 || len([]rune(block)) > 80 {
		return "", false
	}
	title := strings.Join(strings.Fields(block), " ")
	if unnumbered[strings.ToLower(strings.TrimSuffix(title, ":"))] {
		return title, true
	}
	fields := strings.Fields(title)
	if len(fields) < 2 || len(fields) > 12 || !sectionNumber(fields[0]) {
		return "", false
	}
	first := []rune(fields[1])
	if !unicode.IsUpper(first[0]) || strings.ContainsAny(title[len(title)-1:], ".,;") {
		return "", false
	}
	letters := 0
	for _, c := range title {
		if unicode.IsLetter(c) {
			letters++
		}
	}
	return title, letters*2 >= len([]rune(title))
}

// sectionNumber accepts "3", "3.", "2.1", "2.1.4", "A.1" and roman "IV.".
func sectionNumber(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" {
		return false
	}
	if strings.Trim(s, "IVX") == "" && len(s) <= 4 {
		return true
	}
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return false
	}
	for k, p := range parts {
		if len(p) == 0 || len(p) > 2 {
			return false
		}
		if k == 0 && len(p) == 1 && p[0] >= 'A' && p[0] <= 'Z' && len(parts) > 1 {
			continue // appendix "A.1"
		}
		for _, c := range p {
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}
