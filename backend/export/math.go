package export

import (
	"regexp"
	"strconv"
	"strings"

	"vika/backend/mathml"
)

// Private-use characters mark where a formula sits while goldmark renders
// the rest of the Markdown, as citeOpen and citeClose do for citations.
const (
	mathOpen  = "\uE002"
	mathClose = "\uE003"
)

var mathMarker = regexp.MustCompile("\uE002([0-9]+)\uE003")

// markMath replaces the formulas of text (mathml.Find) by markers and
// returns them; a formula holding a citation marker stays text, so the
// citation survives. text holds no formula marker (noMarkers).
func markMath(text string) (string, []mathml.Span) {
	var b strings.Builder
	var kept []mathml.Span
	pos := 0
	for _, s := range mathml.Find(text) {
		if strings.Contains(text[s.Start:s.End], citeOpen) {
			continue
		}
		b.WriteString(text[pos:s.Start])
		b.WriteString(mathOpen + strconv.Itoa(len(kept)) + mathClose)
		kept = append(kept, s)
		pos = s.End
	}
	b.WriteString(text[pos:])
	return b.String(), kept
}

// formulaHTML is a formula of source (the text markMath was given) as
// MathML, or as its source in a <code class="math-error"> when it does not
// parse.
func formulaHTML(s mathml.Span, source string) string {
	ml, err := mathml.Render(s.TeX, s.Display)
	if err != nil {
		return `<code class="math-error" title="This formula could not be read: shown as written">` + esc(source[s.Start:s.End]) + `</code>`
	}
	if s.Display {
		return `<span class="math-display">` + ml + `</span>`
	}
	return ml
}

// mdFormula writes a formula of text for the Markdown export as LaTeX
// between $...$ or $$...$$ (the delimiters GitHub, Pandoc, Obsidian and
// Typora read), neutralised for a viewer that does not read them (plain
// Markdown, where the LaTeX is text): "<" and ">" become \lt and \gt, so
// that nothing reads them as HTML; an empty group {} splits "](", "][",
// "]:" and "![", so that no link, definition or image forms, and wraps
// "@", so that no e-mail autolink does (TeX reads them all as before). A
// formula Vika cannot read (mathml.Render: the HTML export shows it as
// code; a viewer's MathJax might read \href), or holding a backtick (which
// could pair with a code span's and take the text around it out of the
// span), is written as its source in a code span on one line instead.
func mdFormula(s mathml.Span, text string) string {
	if _, err := mathml.Render(s.TeX, s.Display); err != nil || strings.Contains(s.TeX, "`") {
		return codeSpan(strings.Join(strings.Fields(text[s.Start:s.End]), " "))
	}
	d := "$"
	if s.Display {
		d = "$$"
	}
	return d + texForMarkdown.Replace(s.TeX) + d
}

var texForMarkdown = strings.NewReplacer("<", `\lt `, ">", `\gt `, "](", "]{}(", "][", "]{}[", "]:", "]{}:", "![", "!{}[", "@", "{@}")
