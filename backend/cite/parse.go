package cite

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ref is one citation as written in an answer, before it is checked. A
// bracket citing several pages ("[a.pdf p.3, p.5]") or documents
// ("[a.pdf p.3; b.pdf p.7]") gives one Ref per page, sharing Start and End.
type Ref struct {
	Raw   string `json:"raw"`   // the whole bracket, e.g. "[lecture_sat.pdf p.42]"
	Start int    `json:"start"` // byte offsets of the bracket in the answer
	End   int    `json:"end"`
	// File is the document name as written ("" for a [Source N] reference).
	File string `json:"file,omitempty"`
	// Page is the 1-based page as written; 0 when none was given.
	Page int `json:"page,omitempty"`
	// Source is N of a "[Source N]" reference, else 0.
	Source int `json:"source,omitempty"`
}

// Longest bracket read as a citation, and most pages one range may stand for.
const (
	maxBracket = 300
	maxRange   = 20
)

// Parse returns the citations of answer in order. It reads the label
// Vika asks for, "[file p.N]", and the forms models drift into:
// "[file, p. N]", "[file p.N, p.M]", "[file pp. 3-5]", "[file page N]",
// "[a.pdf p.3; b.pdf p.7]", "[Source 2]", "[Source 2, p.5]", "[S2]",
// full-width 【】 brackets, and a page-less "[file.pdf]". Brackets without
// a page or source number ("[MASK]", "[12]", a Markdown link's text) are
// not citations: a bare number is a reference marker copied from the
// documents far more often than a source number.
func Parse(answer string) []Ref {
	var refs []Ref
	for i := 0; i < len(answer); {
		open, size := utf8.DecodeRuneInString(answer[i:])
		closeR := closing(open)
		if closeR == 0 {
			i += size
			continue
		}
		body := answer[i+size:]
		// Look for the closing bracket within maxBracket only: a search
		// to the end for each unclosed bracket is quadratic.
		end := strings.IndexRune(body[:min(len(body), maxBracket+utf8.UTFMax)], closeR)
		if end < 0 || end > maxBracket || strings.ContainsAny(body[:end], "[]【】\n") {
			i += size
			continue
		}
		_, closeSize := utf8.DecodeRuneInString(body[end:])
		stop := i + size + end + closeSize
		raw := answer[i:stop]
		for _, r := range parseBody(body[:end]) {
			r.Raw, r.Start, r.End = raw, i, stop
			refs = append(refs, r)
		}
		i = stop
	}
	return refs
}

func closing(open rune) rune {
	switch open {
	case '[':
		return ']'
	case '【':
		return '】'
	}
	return 0
}

// parseBody reads the text between brackets.
func parseBody(s string) []Ref {
	var refs []Ref
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if r, ok := parseSources(part); ok {
			refs = append(refs, r...)
			continue
		}
		refs = append(refs, parseFile(part)...)
	}
	return refs
}

// parseSources reads "Source 2", "Sources 2, 3", "Source 2, p.5", "S2".
func parseSources(s string) ([]Ref, bool) {
	lower := strings.ToLower(s)
	var rest string
	switch {
	case strings.HasPrefix(lower, "sources"):
		rest = s[len("sources"):]
	case strings.HasPrefix(lower, "source"):
		rest = s[len("source"):]
	case len(s) > 1 && (s[0] == 'S' || s[0] == 's') && isDigit(s[1]):
		rest = s[1:]
	default:
		return nil, false
	}
	rest = strings.TrimLeft(rest, " #n°")
	if rest == "" || !isDigit(rest[0]) {
		return nil, false
	}
	var refs []Ref
	for rest != "" {
		n, tail := readInt(rest)
		if n == 0 {
			break
		}
		r := Ref{Source: n}
		tail = strings.TrimLeft(tail, " ,:")
		if m, ok := pageMarker(tail, 0); ok {
			p, t := readInt(tail[m:])
			r.Page, tail = p, t
		}
		refs = append(refs, r)
		rest = skipSeparators(tail)
		if strings.HasPrefix(strings.ToLower(rest), "source") {
			rest = strings.TrimLeft(rest[len("source"):], " #")
		}
	}
	return refs, len(refs) > 0
}

// parseFile reads "file p.N", "file, p. N, M", "file pp. 3-5", "file page
// N", "a.pdf p.3, b.pdf p.7", and a page-less "file.pdf".
func parseFile(s string) []Ref {
	at, ok := firstMarker(s)
	if !ok {
		name := strings.TrimSpace(s)
		if strings.HasSuffix(strings.ToLower(name), ".pdf") && !strings.ContainsAny(name, "()") {
			return []Ref{{File: name}}
		}
		return nil
	}
	file := strings.TrimRight(s[:at], " ,:;-–—(")
	if file == "" {
		return nil
	}
	var refs []Ref
	rest := s[at:]
	for {
		rest = skipSeparators(rest)
		if m, ok := pageMarker(rest, 0); ok {
			rest = rest[m:]
		}
		n, tail := readInt(rest)
		if n == 0 {
			break
		}
		last := n
		if t := strings.TrimLeft(tail, " "); t != "" && strings.ContainsRune("-–—", firstRune(t)) {
			t = strings.TrimLeft(t[len(string(firstRune(t))):], " ")
			if m, ok := pageMarker(t, 0); ok {
				t = t[m:]
			}
			if m, t2 := readInt(t); m > n && m-n < maxRange {
				last, tail = m, t2
			}
		}
		for p := n; p <= last; p++ {
			refs = append(refs, Ref{File: file, Page: p})
		}
		rest = tail
	}
	if rest = strings.TrimSpace(rest); rest != "" {
		refs = append(refs, parseFile(rest)...)
	}
	return refs
}

// firstMarker finds the first page marker ("p.", "pp.", "p ", "page", "slide",
// "pages") that starts a word and is followed by a number.
func firstMarker(s string) (int, bool) {
	for i := 0; i < len(s); i++ {
		if i > 0 && !strings.ContainsRune(" ,:(", rune(s[i-1])) {
			continue
		}
		if _, ok := pageMarker(s, i); ok {
			return i, true
		}
	}
	return 0, false
}

// pageMarker reports whether a page marker starts at s[i] and is followed
// by a number, and where that number starts.
func pageMarker(s string, i int) (int, bool) {
	lower := strings.ToLower(s[i:])
	for _, m := range []string{"slides", "slide", "pages", "page", "pp.", "pp", "p.", "p"} {
		if !strings.HasPrefix(lower, m) {
			continue
		}
		j := len(m)
		for j < len(lower) && lower[j] == ' ' {
			j++
		}
		if j < len(lower) && isDigit(lower[j]) && (j > len(m) || strings.HasSuffix(m, ".")) {
			return i + j, true
		}
	}
	return 0, false
}

// skipSeparators drops the commas, spaces and "and"/"et"/"&" between pages.
func skipSeparators(s string) string {
	for {
		t := strings.TrimLeft(s, " ,&")
		lower := strings.ToLower(t)
		switch {
		case strings.HasPrefix(lower, "and "):
			t = t[4:]
		case strings.HasPrefix(lower, "et "):
			t = t[3:]
		}
		if t == s {
			return s
		}
		s = t
	}
}

// readInt reads a positive decimal number at the start of s.
func readInt(s string) (int, string) {
	j := 0
	for j < len(s) && isDigit(s[j]) && j < 6 {
		j++
	}
	if j == 0 || (j < len(s) && unicode.IsLetter(firstRune(s[j:]))) {
		return 0, s
	}
	n, _ := strconv.Atoi(s[:j])
	return n, s[j:]
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}
