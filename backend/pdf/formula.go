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

// proseWords counts the words of at least four letters in s.
func proseWords(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
		if utf8.RuneCountInString(w) >= 4 && !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) {
			n++
		}
	}
	return n
}

// operators a display equation holds.
const operators = "=<>≤≥≈≠∑∏∫∈∝→←⇒∀∃∂√"

func formulas(p *Page, taken []region) []region {
	var out []region
	for i, b := range p.Blocks {
		if slices.ContainsFunc(taken, func(t region) bool { return centredIn(b.BBox, t.box) }) {
			continue
		}
		var run []Line
		first := false // run starts the block
		flush := func() {
			if first && i > 0 && len(run) > 0 {
				run = continued(p, p.Blocks[i-1], run)
			}
			if r, ok := formulaOf(run); ok {
				out = append(out, r)
			}
			run = nil
		}
		for j, l := range b.Lines {
			if !displayLine(p, b, l) || len(run) == maxFormulaLines {
				flush()
				if !displayLine(p, b, l) {
					continue
				}
			}
			if len(run) == 0 {
				first = j == 0
			}
			run = append(run, l)
		}
		flush()
	}
	return out
}

// displayLine reports whether l reads like a line of a display equation:
// not prose, mostly math or an expression with operators (numbered when
// it is not mostly math), and set apart: indented in its block, or its
// block holds nothing else.
func displayLine(p *Page, b Block, l Line) bool {
	t := strings.TrimSpace(l.Text)
	if l.Rotated || proseWords(t) > 2 || l.BBox.Dx() > 0.8*p.Width {
		return false
	}
	share := mathShare(p.frags, l.BBox)
	hasOp := strings.ContainsAny(t, operators)
	numbered := eqNumber.MatchString(t)
	words := len(strings.Fields(t))
	if !(share >= 0.4 && hasOp || share >= 0.6 && words <= 12 || hasOp && share >= 0.15 && numbered) {
		return false
	}
	apart := l.BBox.X0-b.BBox.X0 >= 2*l.Font.Size || len(b.Lines) <= maxFormulaLines
	return apart && (hasOp || numbered)
}

// continued prepends to run, the display lines that open a block, the
// last line of the block above when it begins the same expression: MuPDF
// starts a new block where a fraction's denominator drops below the line
// (Vaswani et al.'s equation (1) comes as "Attention(Q, K, V ) =
// softmax(QKT" and then "√dk )V (1)"), and the first half, unnumbered and
// half in roman ("Attention", "softmax"), fails displayLine alone. The
// line above must hold an operator, read as no prose, leave a parenthesis
// open that run closes, and sit just above it.
func continued(p *Page, above Block, run []Line) []Line {
	if len(above.Lines) == 0 || len(run) == 0 || len(run) >= maxFormulaLines {
		return run
	}
	l := above.Lines[len(above.Lines)-1]
	t := strings.TrimSpace(l.Text)
	var rest strings.Builder
	for _, r := range run {
		rest.WriteString(r.Text)
	}
	open := strings.Count(t, "(") - strings.Count(t, ")")
	closes := strings.Count(rest.String(), ")") - strings.Count(rest.String(), "(")
	gap := run[0].BBox.Y0 - l.BBox.Y1
	if l.Rotated || proseWords(t) > 2 || l.BBox.Dx() > 0.8*p.Width || !strings.ContainsAny(t, operators) ||
		open < 1 || closes < 1 || gap > 1.5*max(l.Font.Size, run[0].Font.Size) {
		return run
	}
	return append([]Line{l}, run...)
}

// formulaOf makes a region of consecutive display lines.
func formulaOf(run []Line) (region, bool) {
	if len(run) == 0 {
		return region{}, false
	}
	var texts []string
	var box Rect
	for _, l := range run {
		texts = append(texts, strings.TrimSpace(l.Text))
		box = box.Union(l.BBox)
	}
	text := strings.Join(texts, "\n")
	if utf8.RuneCountInString(text) < 5 {
		return region{}, false
	}
	r := region{kind: corpus.ChunkFormula, box: box, text: text}
	if m := eqNumber.FindStringSubmatch(text); m != nil {
		r.caption = "(" + m[1] + ")"
	}
	return r, true
}
