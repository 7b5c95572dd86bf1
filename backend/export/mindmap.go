package export

import (
	"fmt"
	"html"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"vika/backend/metrics"
	"vika/backend/mindmap"
)

// Mind map exports: an SVG drawn here (a tree laid out left to right, no
// script, no foreignObject: any SVG viewer shows it), and a self-contained
// HTML page holding that SVG and the same map as nested lists with each
// node's citation (the page's CSP, no script). Labels are the documents'
// text, escaped.

// Mind map export formats.
const (
	FormatSVG = "svg"
)

// mapWords are the few words of the exports, in the window's language.
var mapWords = map[string]map[string]string{
	"en": {"title": "Mind map", "course": "Course", "pages": "pages %d–%d", "exported": "Exported %s.", "terms": "Documents: %d, sections: %d, key terms: %d."},
	"fr": {"title": "Carte mentale", "course": "Cours", "pages": "pages %d à %d", "exported": "Exportée le %s.", "terms": "Documents : %d, sections : %d, termes clés : %d."},
}

func mapWord(lang, key string) string {
	if w, ok := mapWords[lang]; ok {
		return w[key]
	}
	return mapWords["en"][key]
}

// MindMap writes m as an SVG image or an HTML page (FormatHTML), its
// chrome in lang ("en" or "fr"; others take English); now is the export
// time the page shows.
func MindMap(w io.Writer, format string, m mindmap.Map, lang string, now time.Time) error {
	switch format {
	case FormatSVG:
		_, err := io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+mapSVG(m, lang))
		return err
	case FormatHTML:
		return mapHTML(w, m, lang, now)
	}
	return fmt.Errorf("unknown export format %q (want svg or html)", format)
}

// nodeLabel is what a node shows: its label, a run of pages said in
// lang, the course's name.
func nodeLabel(n mindmap.Node, lang string) string {
	switch n.Kind {
	case mindmap.KindCourse:
		return mapWord(lang, "course")
	case mindmap.KindPages:
		return fmt.Sprintf(mapWord(lang, "pages"), n.Page, n.To)
	}
	return n.Label
}

// citation is a node's citation as the chat writes it: "[file.pdf p.4]".
func citation(n mindmap.Node) string {
	if n.DocID == "" {
		return ""
	}
	return fmt.Sprintf("[%s p.%d]", n.File, n.Page)
}

// Layout of the SVG: one row a leaf, a column a depth as wide as its
// widest label (estimated from its characters).
const (
	mapRow      = 26.0
	mapCharW    = 7.4
	mapPad      = 12.0
	mapGap      = 36.0
	mapMargin   = 20.0
	mapMaxLabel = 60 // characters drawn of a label; the rest in its tooltip
)

// placed is a node with its place: x of its label's left end, y of its
// baseline, its label's width.
type placed struct {
	node     mindmap.Node
	label    string
	depth    int
	x, y, w  float64
	children []*placed
}

var branchColors = []string{"#3b82f6", "#16a34a", "#d97706", "#db2777", "#7c3aed", "#0891b2", "#dc2626", "#65a30d"}

func mapSVG(m mindmap.Map, lang string) string {
	var widths []float64
	row := 0
	var place func(n mindmap.Node, depth int) *placed
	place = func(n mindmap.Node, depth int) *placed {
		label := nodeLabel(n, lang)
		shown := label
		if utf8.RuneCountInString(shown) > mapMaxLabel {
			shown = string([]rune(shown)[:mapMaxLabel-1]) + "…"
		}
		p := &placed{node: n, label: shown, depth: depth, w: float64(utf8.RuneCountInString(shown))*mapCharW + mapPad}
		for len(widths) <= depth {
			widths = append(widths, 0)
		}
		widths[depth] = max(widths[depth], p.w)
		for _, c := range n.Children {
			p.children = append(p.children, place(c, depth+1))
		}
		if len(p.children) == 0 {
			p.y = mapMargin + mapRow*float64(row) + mapRow/2
			row++
		} else {
			p.y = (p.children[0].y + p.children[len(p.children)-1].y) / 2
		}
		return p
	}
	root := place(m.Root, 0)
	xs := make([]float64, len(widths)+1)
	xs[0] = mapMargin
	for d, w := range widths {
		xs[d+1] = xs[d] + w + mapGap
	}
	width, height := xs[len(widths)]-mapGap+mapMargin, mapMargin*2+mapRow*float64(max(row, 1))
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="system-ui, sans-serif" font-size="13">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, "<title>%s</title>\n", xmlEsc(mapWord(lang, "title")+": "+nodeLabel(m.Root, lang)))
	b.WriteString(`<rect width="100%" height="100%" fill="#ffffff"/>` + "\n")
	var draw func(p *placed, color string)
	draw = func(p *placed, color string) {
		p.x = xs[p.depth]
		for i, c := range p.children {
			cc := color
			if p.depth == 0 {
				cc = branchColors[i%len(branchColors)]
			}
			c.x = xs[c.depth]
			x0, y0, x1, y1 := p.x+p.w, p.y+4, c.x, c.y+4
			mx := (x0 + x1) / 2
			fmt.Fprintf(&b, `<path d="M%.1f %.1fC%.1f %.1f %.1f %.1f %.1f %.1f" fill="none" stroke="%s" stroke-width="1.5"/>`+"\n", x0, y0, mx, y0, mx, y1, x1, y1, cc)
			draw(c, cc)
		}
		weight, fill := "400", "#1d1d1f"
		switch p.node.Kind {
		case mindmap.KindCourse, mindmap.KindDocument:
			weight = "700"
		case mindmap.KindTerm:
			fill = "#57606a"
		}
		tip := p.node.Label
		if p.node.Kind == mindmap.KindCourse || p.node.Kind == mindmap.KindPages {
			tip = nodeLabel(p.node, lang)
		}
		fmt.Fprintf(&b, `<g><title>%s</title><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5"/>`,
			xmlEsc(strings.TrimSpace(tip+" "+citation(p.node))), p.x, p.y+4, p.x+p.w, p.y+4, color)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-weight="%s" fill="%s">%s`, p.x+4, p.y, weight, fill, xmlEsc(p.label))
		if p.node.DocID != "" && p.node.Kind != mindmap.KindDocument && p.node.Kind != mindmap.KindPages {
			fmt.Fprintf(&b, ` <tspan fill="#8c959f" font-size="10">p.%d</tspan>`, p.node.Page)
		}
		b.WriteString("</text></g>\n")
	}
	draw(root, "#57606a")
	b.WriteString("</svg>\n")
	return b.String()
}

// xmlEsc escapes text for XML (the SVG) and HTML alike, after dropping
// the characters XML forbids; key-shaped strings are redacted, as in
// every export.
func xmlEsc(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r != 0xFFFE && r != 0xFFFF && !(r >= 0xD800 && r <= 0xDFFF) {
			return r
		}
		return -1
	}, s)
	return html.EscapeString(metrics.Redact(s))
}

func mapHTML(w io.Writer, m mindmap.Map, lang string, now time.Time) error {
	if _, ok := mapWords[lang]; !ok {
		lang = "en"
	}
	title := mapWord(lang, "title") + ": " + nodeLabel(m.Root, lang)
	var b strings.Builder
	writeHead(&b, lang, title)
	docs, sections := 0, 0
	var tally func(n mindmap.Node)
	tally = func(n mindmap.Node) {
		switch n.Kind {
		case mindmap.KindDocument:
			docs++
		case mindmap.KindSection, mindmap.KindPages:
			sections++
		}
		for _, c := range n.Children {
			tally(c)
		}
	}
	tally(m.Root)
	fmt.Fprintf(&b, "<h1>%s</h1>\n<p class=\"meta\">%s %s</p>\n", xmlEsc(title),
		xmlEsc(fmt.Sprintf(mapWord(lang, "terms"), docs, sections, m.Terms)), xmlEsc(fmt.Sprintf(mapWord(lang, "exported"), now.UTC().Format("2006-01-02 15:04 UTC"))))
	b.WriteString("<div class=\"mindmap\" style=\"overflow:auto\">\n" + mapSVG(m, lang) + "</div>\n")
	var list func(n mindmap.Node)
	list = func(n mindmap.Node) {
		cls := ""
		if n.Kind == mindmap.KindTerm {
			cls = ` class="kind"`
		}
		fmt.Fprintf(&b, "<li><span%s>%s</span>", cls, xmlEsc(nodeLabel(n, lang)))
		if c := citation(n); c != "" {
			fmt.Fprintf(&b, " <span class=\"cite\">%s</span>", xmlEsc(c))
		}
		if len(n.Children) > 0 {
			b.WriteString("\n<ul>\n")
			for _, c := range n.Children {
				list(c)
			}
			b.WriteString("</ul>\n")
		}
		b.WriteString("</li>\n")
	}
	b.WriteString("<ul>\n")
	list(m.Root)
	b.WriteString("</ul>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
