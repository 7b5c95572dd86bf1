package chunk

import (
	"regexp"
	"strings"
	"unicode"

	"vika/backend/corpus"
)

type heading struct {
	at    int // rune offset of the heading in the page text
	title string
}

// lineHeadings finds the section titles of a page with a layout: blocks
// of at most three lines that stand out from the body style (larger, or
// bold) and read like a title ("2.1 Pre-training"), one-line blocks that
// name a known section in the body face ("Abstract") or set a numbered
// title in capitals.
func lineHeadings(v *view, rs []role, body style) []heading {
	var out []heading
	ls := v.page.Lines
	for i := 0; i < len(ls); {
		j := i + 1
		for j < len(ls) && ls[j].Block == ls[i].Block {
			j++
		}
		if ls[i].Size <= 0 {
			// OCR lines: their text is read for headings as plain text.
		} else if t, ok := blockHeading(v, ls[i:j], rs[i:j], body); ok {
			out = append(out, heading{at: ls[i].Start, title: t})
		}
		i = j
	}
	return out
}

// blockHeading returns the title a block of lines sets, if it is one.
func blockHeading(v *view, ls []corpus.Line, rs []role, body style) (string, bool) {
	if len(ls) > 3 {
		return "", false
	}
	styled := true
	var parts []string
	for k, l := range ls {
		if rs[k] != roleBody {
			return "", false
		}
		styled = styled && body.standsOut(l.Size, l.Bold)
		parts = append(parts, v.lineText(l))
	}
	title := strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
	if len(ls) == 1 && (unnumbered[strings.ToLower(strings.TrimSuffix(title, ":"))] || appendix.MatchString(title)) {
		return title, true // "Abstract" or "APPENDIX 5" in the body face
	}
	if _, ok := headingTitle(title); ok && len(ls) == 1 && strings.IndexFunc(title, unicode.IsLower) < 0 {
		return title, true // "6. CHOICE, UNCERTAINTY AND ENTROPY" in capitals
	}
	return title, styled && looksLikeTitle(title)
}

// listed removes the runs of minListed or more visible headings with
// (almost) nothing between them: the items of an outline or a table of
// contents, not section starts (a chapter, section and subsection title
// may stack up to three). It reports whether it removed any.
func listed(v *view) bool {
	const minListed = 4
	var keep []heading
	found := false
	for i := 0; i < len(v.heads); {
		j := i + 1
		for j < len(v.heads) &&
			nonSpace(v.runes[v.heads[j-1].at:v.heads[j].at]) < nonSpace([]rune(v.heads[j-1].title))+bare {
			j++
		}
		if j-i >= minListed {
			found = true
		} else {
			keep = append(keep, v.heads[i:j]...)
		}
		i = j
	}
	v.heads = keep
	return found
}

var appendix = regexp.MustCompile(`(?i)^(appendix|annexe?)(\s+[0-9A-Z]{1,3})?[.:]?$`)

var caption = regexp.MustCompile(`(?i)^(fig\.|figure|table|tableau|algorithm|algorithme|listing|source|note)\b`)

// looksLikeTitle accepts short text that starts like a title (a capital,
// or a section number then a capital), is mostly letters and does not
// read like a caption, a formula or code.
func looksLikeTitle(t string) bool {
	r := []rune(t)
	words := len(strings.Fields(t))
	if len(r) < 2 || len(r) > 120 || words > 20 || caption.MatchString(t) || strings.ContainsAny(t[len(t)-1:], ",;=") ||
		strings.HasSuffix(t, ".") && words > 6 { // a sentence set in bold
		return false
	}
	letters, other := 0, 0
	for _, c := range r {
		switch {
		case unicode.IsLetter(c):
			letters++
		case unicode.Is(unicode.Sm, c) && c != '-': // =, +, ∑: a formula
			return false
		case !unicode.IsSpace(c):
			other++
		}
	}
	if letters < 3 || letters < other {
		return false
	}
	single := 0 // words of at most one letter: "C W log" is a formula
	for _, w := range strings.Fields(t) {
		if strings.IndexFunc(w, unicode.IsLetter) == strings.LastIndexFunc(w, unicode.IsLetter) {
			single++
		}
	}
	if 2*single > words {
		return false
	}
	f := strings.Fields(t)
	lead := f[0]
	if unicode.IsDigit([]rune(lead)[0]) { // "2.1 Pre-training"
		if !sectionNumber(lead) || len(f) < 2 {
			return false
		}
		lead = f[1]
	}
	return unicode.IsUpper([]rune(lead)[0])
}

// unnumbered lists section names recognised without a number (lower case).
var unnumbered = map[string]bool{
	"abstract": true, "introduction": true, "conclusion": true, "conclusions": true,
	"references": true, "bibliography": true, "acknowledgments": true, "acknowledgements": true,
	"related work": true, "discussion": true, "appendix": true, "résumé": true,
	"bibliographie": true, "remerciements": true, "sommaire": true, "table des matières": true,
	"contents": true, "table of contents": true, "summary": true, "methods": true, "results": true,
	"références": true, "références bibliographiques": true,
}

// headings finds section titles in a page without layout (OCR text):
// short blocks (text between blank lines) of one or two lines that are
// either a known section name or a section number ("3", "2.1", "IV.")
// followed by a capitalised title. The rule is deliberately
// conservative: a missed heading only leaves the previous section title
// in force.
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
