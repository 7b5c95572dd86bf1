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

// unmarkMath puts each formula back as MathML, or as its source in a
// <code class="math-error"> when it does not parse. source is the text
// markMath was given.
func unmarkMath(html, source string, spans []mathml.Span) string {
	return mathMarker.ReplaceAllStringFunc(html, func(m string) string {
		n, _ := strconv.Atoi(m[len(mathOpen) : len(m)-len(mathClose)])
		if n >= len(spans) {
			return ""
		}
		s := spans[n]
		ml, err := mathml.Render(s.TeX, s.Display)
		if err != nil {
			return `<code class="math-error" title="This formula could not be read: shown as written">` + esc(source[s.Start:s.End]) + `</code>`
		}
		if s.Display {
			return `<span class="math-display">` + ml + `</span>`
		}
		return ml
	})
}

// texNoHTML writes < and > of a formula's LaTeX as \lt and \gt in the
// Markdown export ($...$ and $$...$$, the delimiters GitHub, Pandoc,
// Obsidian and Typora read), so that no Markdown viewer reads them as HTML.
var texNoHTML = strings.NewReplacer("<", `\lt `, ">", `\gt `)
