package pdf

import (
	"math"
	"strings"
	"unicode/utf8"
)

// Font describes the dominant font of a line: the one that sets most of
// its characters.
type Font struct {
	Name   string  // PostScript name without the subset prefix ("ABCDEF+")
	Family string  // serif, sans-serif or monospace, as MuPDF guesses it
	Size   float64 // points
	Bold   bool
	Italic bool
}

// Line is one line of text: MuPDF fragments on a common baseline joined
// left to right. Text is the cleaned text of the line exactly as it
// appears in Page.Text at rune offsets [Start, End).
type Line struct {
	BBox    Rect
	Font    Font
	Text    string
	Start   int
	End     int
	Rotated bool // vertical text (margin stamps, axis labels)

	raw string // text before cleaning
}

// fontSize returns the size of f, estimated from its box when MuPDF's
// value is implausible (Type 3 fonts report 0.1 or 0.2 pt).
func fontSize(f fragment) float64 {
	if f.Font.Size >= 2 {
		return f.Font.Size
	}
	return f.Box.Dy() / 1.3
}

// buildLines joins the fragments of a block into lines. A fragment
// continues the current line when it sits on the same baseline (or
// overlaps it vertically, as sub- and superscripts do) and starts to its
// right; a space is inserted when the horizontal gap is wider than a thin
// space. Rotated fragments become lines of their own.
func buildLines(b rawBlock) []Line {
	var out []Line
	var cur *lineBuilder
	for _, f := range b.Frags {
		f.Font.Name = stripSubset(f.Font.Name)
		f.Font.Bold = f.Font.Bold || boldName(f.Font.Name)
		f.Font.Size = fontSize(f)
		rotated := f.Font.Size > 0 && f.Box.Dy() > 2.5*f.Font.Size && f.Box.Dy() > f.Box.Dx()
		if cur != nil && !rotated && !cur.rotated && cur.continues(f) {
			cur.add(f)
			continue
		}
		if cur != nil {
			out = append(out, cur.line())
		}
		cur = newLineBuilder(f, rotated)
	}
	if cur != nil {
		out = append(out, cur.line())
	}
	return out
}

type lineBuilder struct {
	box     Rect
	base    float64
	text    strings.Builder
	fonts   []fontRunes // runes set in each font, in order of appearance
	rotated bool
}

type fontRunes struct {
	font  Font
	runes int
}

func (lb *lineBuilder) count(f Font, text string) {
	n := utf8.RuneCountInString(text)
	for i := range lb.fonts {
		if lb.fonts[i].font == f {
			lb.fonts[i].runes += n
			return
		}
	}
	lb.fonts = append(lb.fonts, fontRunes{f, n})
}

func newLineBuilder(f fragment, rotated bool) *lineBuilder {
	lb := &lineBuilder{box: f.Box, base: f.Base, rotated: rotated}
	lb.text.WriteString(f.Text)
	lb.count(f.Font, f.Text)
	return lb
}

func (lb *lineBuilder) continues(f fragment) bool {
	size := math.Max(f.Font.Size, 1)
	h := math.Min(lb.box.Dy(), f.Box.Dy())
	sameRow := lb.box.overlapY(f.Box) >= 0.5*h || math.Abs(f.Base-lb.base) <= 0.25*size
	return sameRow && f.Box.X0 >= lb.box.X1-0.5*size
}

func (lb *lineBuilder) add(f fragment) {
	gap := f.Box.X0 - lb.box.X1
	s := lb.text.String()
	if gap > 0.15*f.Font.Size && !strings.HasSuffix(s, " ") && !strings.HasPrefix(f.Text, " ") {
		lb.text.WriteByte(' ')
	}
	lb.text.WriteString(f.Text)
	lb.count(f.Font, f.Text)
	lb.box = lb.box.Union(f.Box)
}

func (lb *lineBuilder) line() Line {
	var best Font
	n := -1
	for _, fr := range lb.fonts {
		if fr.runes > n {
			best, n = fr.font, fr.runes
		}
	}
	return Line{BBox: lb.box, Font: best, raw: lb.text.String(), Rotated: lb.rotated}
}

// stripSubset removes the "ABCDEF+" prefix of an embedded font subset.
func stripSubset(name string) string {
	if len(name) > 7 && name[6] == '+' && strings.ToUpper(name[:6]) == name[:6] {
		return name[7:]
	}
	return name
}

// boldName recognises bold fonts that MuPDF reports as normal weight,
// such as TeX's Computer Modern bold extended (CMBX10, SFBX1200).
func boldName(name string) bool {
	n := strings.ToLower(name)
	for _, k := range []string{"bold", "-bd", "black", "heavy", "semibold", "demi", "-medi"} {
		if strings.Contains(n, k) {
			return true
		}
	}
	for _, p := range []string{"cmbx", "cmb1", "cmssbx", "sfbx", "sfsx", "lmroman10-bold"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}
