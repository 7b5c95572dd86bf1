package corpus

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// Label is a table's, figure's or formula's kind and number as printed,
// lower case ("3", "ii", "2.1"): what a question names it by and what its
// caption opens with. Search (backend/retrieve) brings the region a
// question names first; the answer (backend/rag) sends its crop.
type Label struct {
	Kind   ChunkKind
	Number string
}

// captionNumberRe reads the number opening a table's or figure's caption
// as printed (OCR may read "III" as "Ill").
var captionNumberRe = regexp.MustCompile(`^(?i:table|tableau|tab\.|figure|fig\.|fig)\s*(\d+(?:\.\d+)*|[IVXLC][IVXLCl]*)\b`)

// CaptionNumber returns the number text's first line opens with as a
// caption does ("Table 3. Error rates" "3", "TABLE Ill" "iii", "Fig. 2"
// "2"), "" when it opens with none ("The figure 2 below").
func CaptionNumber(text string) string {
	m := captionNumberRe.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return ""
	}
	return labelNumber(m[1])
}

// labelNumber is a caption's number as a label holds it: lower case, and
// OCR's lower-case l in a Roman number read as an I ("Ill" is III); a
// capital L stays fifty.
func labelNumber(printed string) string {
	return strings.ToLower(strings.ReplaceAll(printed, "l", "I"))
}

// namedRe finds the tables, figures and equations a question names; a
// Roman number counts in capitals only ("Table II", not "figure i").
var namedRe = regexp.MustCompile(`(?:^|[^\p{L}])((?i:tables?|tableaux?|tab\.|figures?|figs?\.?|équations?|equations?|eqn?s?\.|éq\.|formules?|formulas?))\s*\(?\s*(\d+(?:\.\d+)*[a-z]?|[IVXLC]+)\b`)

// ordinalRe finds a table, figure or equation a question names by its
// place ("the first figure", "le deuxième tableau"): the one numbered so.
var ordinalRe = regexp.MustCompile(`(?:^|[^\p{L}])((?i:first|second|third|fourth|fifth|premier|première|deuxième|seconde?|troisième|quatrième|cinquième))\s+((?i:tables?|tableaux?|figures?|fig\.|équations?|equations?|formules?|formulas?))(?:[^\p{L}]|$)`)

// ordinals holds the numbers ordinalRe's words stand for, in Arabic and
// Roman numbers (IEEE's "TABLE I").
var ordinals = map[string][2]string{
	"first": {"1", "i"}, "premier": {"1", "i"}, "première": {"1", "i"},
	"second": {"2", "ii"}, "seconde": {"2", "ii"}, "deuxième": {"2", "ii"},
	"third": {"3", "iii"}, "troisième": {"3", "iii"},
	"fourth": {"4", "iv"}, "quatrième": {"4", "iv"},
	"fifth": {"5", "v"}, "cinquième": {"5", "v"},
}

// namedKind is the kind of region a question's word names.
func namedKind(word string) ChunkKind {
	switch word = strings.ToLower(word); {
	case strings.HasPrefix(word, "tab"):
		return ChunkTable
	case strings.HasPrefix(word, "fig"):
		return ChunkFigure
	}
	return ChunkFormula
}

// NamedLabels returns the tables, figures and equations question names,
// by number ("Table 3", "Fig. 2a" for Figure 2, "eq. (3)", "TABLE II") or
// by place ("the first figure", "le deuxième tableau"), in the order named.
func NamedLabels(question string) []Label {
	type at struct {
		pos   int
		label Label
	}
	var found []at
	for _, m := range namedRe.FindAllStringSubmatchIndex(question, -1) {
		kind := namedKind(question[m[2]:m[3]])
		number := strings.ToLower(question[m[4]:m[5]])
		if d := len(number) - 1; kind != ChunkFormula && number[0] >= '0' && number[0] <= '9' && number[d] >= 'a' {
			// "Fig. 2a" is a panel of Figure 2: captions carry the
			// figure's number; an equation's letter is its own (5a).
			number = number[:d]
		}
		found = append(found, at{m[2], Label{Kind: kind, Number: number}})
	}
	for _, m := range ordinalRe.FindAllStringSubmatchIndex(question, -1) {
		kind := namedKind(question[m[4]:m[5]])
		for _, number := range ordinals[strings.ToLower(question[m[2]:m[3]])] {
			found = append(found, at{m[2], Label{Kind: kind, Number: number}})
		}
	}
	slices.SortStableFunc(found, func(x, y at) int { return cmp.Compare(x.pos, y.pos) })
	var out []Label
	for _, f := range found {
		if !slices.Contains(out, f.label) {
			out = append(out, f.label)
		}
	}
	return out
}
