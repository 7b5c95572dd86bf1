package cite

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// number is a number as written in a text, with the values it can stand
// for: "9,999" is nine thousand nine hundred and ninety-nine in English and
// 9.999 in French, so it has both; "2 500", "3.57" and "3,57" have one.
// A scale written after it (800M, 800 million, 2 milliards) multiplies
// every value; a percent sign or other unit does not change it. A number
// whose separators fit no reading ("3.2.1") has no value and is compared
// as written.
type number struct {
	raw    string
	values []float64
}

// containsNumber reports whether have holds n: a common value, or the
// same writing when either has no value.
func containsNumber(have []number, n number) bool {
	for _, h := range have {
		if len(n.values) == 0 || len(h.values) == 0 {
			if h.raw == n.raw {
				return true
			}
			continue
		}
		for _, a := range n.values {
			for _, b := range h.values {
				if a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) {
					return true
				}
			}
		}
	}
	return false
}

// numbersIn returns the numbers written with digits in text. A digit
// right after a letter belongs to a name (F1, L12, v2) and starts none.
// With claim set, years, references to parts of a document and list
// markers are left out.
func numbersIn(text string, claim bool) []number {
	var out []number
	prev := rune(0)
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isASCIIDigit(r) || unicode.IsLetter(prev) || isASCIIDigit(prev) {
			prev = r
			i += size
			continue
		}
		raw, end := scanNumber(text, i)
		n := number{raw: raw, values: readings(raw)}
		scale, after := scaleAfter(text, end)
		for k := range n.values {
			n.values[k] *= scale
		}
		if !claim || !(isYear(raw) || refersToPart(text[:i]) || isMarker(text, i, end)) {
			out = append(out, n)
		}
		prev, _ = utf8.DecodeLastRuneInString(text[:after])
		i = after
	}
	return out
}

// scanNumber returns the number starting at text[i] as written and the
// offset after it: digits, with '.' or ',' between digits, and spaces
// (also no-break and thin ones) before groups of exactly three digits.
func scanNumber(text string, i int) (string, int) {
	j := i
	for j < len(text) {
		r, size := utf8.DecodeRuneInString(text[j:])
		switch {
		case isASCIIDigit(r):
			j += size
		case (r == '.' || r == ',') && j+size < len(text) && isASCIIDigit(rune(text[j+size])):
			j += size
		case isGroupSpace(r) && threeDigitGroup(text[j+size:]):
			j += size
		default:
			return text[i:j], j
		}
	}
	return text[i:], len(text)
}

func isASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }

func isGroupSpace(r rune) bool { return r == ' ' || r == '\u00a0' || r == '\u202f' || r == '\u2009' }

// threeDigitGroup reports whether s starts with exactly three digits.
func threeDigitGroup(s string) bool {
	if len(s) < 3 || !isASCIIDigit(rune(s[0])) || !isASCIIDigit(rune(s[1])) || !isASCIIDigit(rune(s[2])) {
		return false
	}
	return len(s) == 3 || !isASCIIDigit(rune(s[3]))
}

// readings returns the values raw can stand for. Spaces separate
// thousands. With both '.' and ',', the last one is the decimal mark. With
// one kind used once, it is a decimal mark, or a thousands separator too
// when three digits follow it (1,000 / 1.000). Used several times, it
// separates thousands when every group after the first has three digits.
func readings(raw string) []float64 {
	s := strings.Map(func(r rune) rune {
		if isGroupSpace(r) {
			return -1
		}
		return r
	}, raw)
	dots, commas := strings.Count(s, "."), strings.Count(s, ",")
	parse := func(s string) []float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil
		}
		return []float64{v}
	}
	switch {
	case dots == 0 && commas == 0:
		return parse(s)
	case dots > 0 && commas > 0:
		last := max(strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ','))
		intPart := strings.NewReplacer(".", "", ",", "").Replace(s[:last])
		return parse(intPart + "." + s[last+1:])
	}
	sep := "."
	if commas > 0 {
		sep = ","
	}
	groups := strings.Split(s, sep)
	thousands := len(groups[0]) <= 3 && groups[0] != "0"
	for _, g := range groups[1:] {
		thousands = thousands && len(g) == 3
	}
	var out []float64
	if len(groups) == 2 {
		out = parse(groups[0] + "." + groups[1])
	}
	if thousands {
		out = append(out, parse(strings.Join(groups, ""))...)
	}
	return out
}

// scales are the multipliers written after a number, directly (800M) or
// as the next word (800 million, 2 milliards).
var (
	attachedScales = map[string]float64{"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "bn": 1e9}
	wordScales     = map[string]float64{
		"thousand": 1e3, "thousands": 1e3, "million": 1e6, "millions": 1e6, "billion": 1e9, "billions": 1e9,
		"milliard": 1e9, "milliards": 1e9, "trillion": 1e12, "trillions": 1e12,
	}
)

// scaleAfter returns the multiplier written right after a number ending at
// end (1 when none) and the offset after it.
func scaleAfter(text string, end int) (float64, int) {
	word := func(from int) (string, int) {
		j := from
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsLetter(r) {
				break
			}
			j += size
		}
		return text[from:j], j
	}
	if w, after := word(end); w != "" {
		if s, ok := attachedScales[w]; ok {
			return s, after
		}
		return 1, after // a unit (ms, GB, x): the value stands as written
	}
	j := end
	for j < len(text) {
		r, size := utf8.DecodeRuneInString(text[j:])
		if !isGroupSpace(r) {
			break
		}
		j += size
	}
	if j > end {
		if w, after := word(j); w != "" {
			if s, ok := wordScales[strings.ToLower(w)]; ok {
				return s, after
			}
		}
	}
	return 1, end
}

// isMarker reports whether the number text[i:end] is a list or equation
// marker: one or two digits closed by a parenthesis ("(2)", "1)").
func isMarker(text string, i, end int) bool {
	if end-i > 2 || end >= len(text) || text[end] != ')' {
		return false
	}
	for _, c := range text[i:end] {
		if !isASCIIDigit(c) {
			return false
		}
	}
	return i == 0 || text[i-1] == '(' || text[i-1] == ' ' || text[i-1] == '\n'
}

func isYear(raw string) bool {
	v, err := strconv.Atoi(raw)
	return err == nil && v >= 1900 && v <= 2099
}

// partWords name parts of a document; a number after one of them says
// where, not what.
var partWords = map[string]bool{
	"table": true, "tables": true, "tableau": true, "tableaux": true, "figure": true, "figures": true, "fig": true,
	"section": true, "sections": true, "sec": true, "chapter": true, "chapitre": true, "eq": true, "equation": true,
	"equations": true, "page": true, "pages": true, "p": true, "pp": true, "appendix": true, "annexe": true,
	"algorithm": true, "algorithme": true, "theorem": true, "theoreme": true, "lemma": true, "lemme": true,
	"definition": true, "step": true, "etape": true, "line": true, "ligne": true,
}

// refersToPart reports whether the text before a number ends with a word
// of partWords ("Table 2", "Fig. 3", "équation (4)").
func refersToPart(before string) bool {
	s := strings.TrimRightFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == '.' || r == '(' || r == '~' })
	i := len(s)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if !unicode.IsLetter(r) {
			break
		}
		i -= size
	}
	var w []byte
	for _, r := range strings.ToLower(s[i:]) {
		w = fold(w, r)
	}
	return partWords[string(w)]
}

// digitWords spell the numbers below eleven in English and French.
var digitWords = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7,
	"huit": 8, "neuf": 9, "dix": 10, "single": 1, "double": 2, "twice": 2, "triple": 3,
}

// numberWords returns the small numbers text spells out.
func numberWords(text string) []number {
	var out []number
	seen := map[float64]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if v, ok := digitWords[w]; ok && !seen[v] {
			seen[v] = true
			out = append(out, number{raw: w, values: []float64{v}})
		}
	}
	return out
}
