package pdf

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"vika/backend/corpus"
)

// Display formulas: a block of at most maxFormulaLines lines, set apart
// from running text, each line mostly in math fonts (TeX's CMMI, CMSY,
// CMEX, AMS's MSBM, any "Math" or "Symbol" font) or made of short
// expressions with operators; the text keeps its Unicode math. An
// equation number such as "(3)" becomes the caption.

const maxFormulaLines = 4

var eqNumber = regexp.MustCompile(`\(\s*(\d+(\.\d+)*[a-z]?)\s*\)\s*$`)

// mathFont reports whether a font sets mathematics.
func mathFont(name string) bool {
	n := strings.ToLower(stripSubset(name))
	for _, p := range []string{"cmmi", "cmsy", "cmex", "msbm", "msam", "eufm", "rsfs", "lmmath", "stix"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return strings.Contains(n, "math") || strings.Contains(n, "symbol")
}

// mathShare is the share of the runes of the fragments centred in r that
// are set in a math font or are math symbols.
func mathShare(frags []fragment, r Rect) float64 {
	all, math := 0, 0
	for _, f := range frags {
		if !centredIn(f.Box, r) {
			continue
		}
		isMath := mathFont(f.Font.Name)
		for _, c := range f.Text {
			if unicode.IsSpace(c) {
				continue
			}
			all++
			if isMath || unicode.Is(unicode.Sm, c) || unicode.In(c, unicode.Greek) {
				math++
			}
		}
	}
	if all == 0 {
		return 0
	}
	return float64(math) / float64(all)
}

// operators a display equation holds.
const operators = "=<>≤≥≈≠∑∏∫∈∝→←⇒∀∃∂√"

func formulas(p *Page, taken []region) []region {
	var out []region
	for _, b := range p.Blocks {
		if len(b.Lines) > maxFormulaLines || b.BBox.Dx() > 0.8*p.Width {
			continue
		}
		if slices.ContainsFunc(taken, func(t region) bool { return centredIn(b.BBox, t.box) }) {
			continue
		}
		var texts []string
		ok, marked := true, false
		for _, l := range b.Lines {
			t := strings.TrimSpace(l.Text)
			if l.Rotated {
				ok = false
				break
			}
			share := mathShare(p.frags, l.BBox)
			hasOp := strings.ContainsAny(t, operators)
			words := len(strings.Fields(t))
			numbered := eqNumber.MatchString(t)
			if !(share >= 0.4 && hasOp || share >= 0.6 && words <= 12 || hasOp && share >= 0.2 && numbered) {
				ok = false
				break
			}
			marked = marked || hasOp || numbered
			texts = append(texts, t)
		}
		if !ok || !marked || len(texts) == 0 || utf8.RuneCountInString(strings.Join(texts, "")) < 5 {
			continue
		}
		text := strings.Join(texts, "\n")
		r := region{kind: corpus.ChunkFormula, box: b.BBox, text: text}
		if m := eqNumber.FindStringSubmatch(text); m != nil {
			r.caption = "(" + m[1] + ")"
		}
		out = append(out, r)
	}
	return out
}
