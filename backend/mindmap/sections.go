package mindmap

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"vika/backend/corpus"
)

// fromHeadings returns the section titles of a document without an
// outline, in reading order: each title once (its first page), nested by
// their numbers ("3.2 Results" under "3 Method"; unnumbered titles at the
// top), at most budget of them (the deepest dropped first). nil when its
// passages have none.
func fromHeadings(d corpus.Document, hs []Heading, budget int) ([]Node, bool) {
	seen := map[string]bool{}
	var es []entry
	for _, h := range hs {
		title := Clean(h.Title)
		key := strings.ToLower(title)
		if title == "" || seen[key] || h.Page < 1 || h.Page > d.Pages {
			continue
		}
		seen[key] = true
		es = append(es, entry{title, h.Page, min(numberDepth(title), MaxDepth)})
	}
	if len(es) == 0 {
		return nil, false
	}
	cut := false
	depth := MaxDepth
	for ; depth > 0 && shallower(es, depth) > budget; depth-- {
	}
	if n := shallower(es, depth); n < len(es) {
		kept := make([]entry, 0, n)
		for _, e := range es {
			if e.depth <= depth {
				kept = append(kept, e)
			}
		}
		es, cut = kept, true
	}
	if len(es) > budget {
		es, cut = es[:max(budget, 0)], true
	}
	return nest(es, d), cut
}

// numbered reads a section number opening a title: "3", "3.2", "3.2.1",
// "A.1", "IV" are followed by a space or a dot and a space.
var numbered = regexp.MustCompile(`^((?:\d+|[A-Z]|[IVX]+)(?:\.\d+)*)\.?\s`)

// numberDepth is a title's depth by its number: 0 for "3 Method" or an
// unnumbered title, 1 for "3.2 Results", 2 for "3.2.1 ...".
func numberDepth(title string) int {
	m := numbered.FindStringSubmatch(title)
	if m == nil {
		return 0
	}
	return strings.Count(m[1], ".")
}

// runs cuts a document with neither outline nor section titles into runs
// of pagesPerRun pages (more a run when budget is short).
func runs(d corpus.Document, budget int) ([]Node, bool) {
	if budget < 1 {
		return nil, true
	}
	per := max(pagesPerRun, (d.Pages+budget-1)/budget)
	var out []Node
	for from := 1; from <= d.Pages; from += per {
		out = append(out, Node{Kind: KindPages, DocID: d.ID, File: d.File, Page: from, To: min(from+per-1, d.Pages)})
	}
	if len(out) == 1 { // a short document: its own node says it all
		return nil, false
	}
	return out, false
}

// hang puts each term under the deepest node of its document whose pages
// hold the term's page (the document itself when no section does), each
// term once a document, at most MaxSectionTerms a node and MaxTerms in
// all. It returns the terms hung and whether bounds dropped any (or
// truncated already).
func hang(root *Node, terms []Term, truncated bool) (int, bool) {
	docs := map[string]*Node{}
	var index func(n *Node)
	index = func(n *Node) {
		if n.Kind == KindDocument {
			docs[n.DocID] = n
			return
		}
		for i := range n.Children {
			index(&n.Children[i])
		}
	}
	index(root)
	seen := map[[2]string]bool{}
	hung := 0
	for _, t := range terms {
		label := Clean(t.Term)
		doc := docs[t.DocID]
		key := [2]string{t.DocID, strings.ToLower(label)}
		if label == "" || doc == nil || t.Page < 1 || t.Page > doc.To || seen[key] {
			continue
		}
		if hung == MaxTerms {
			return hung, true
		}
		seen[key] = true
		n := deepest(doc, t.Page)
		if termsUnder(n) == MaxSectionTerms {
			truncated = true
			continue
		}
		n.Children = append(n.Children, Node{Label: label, Kind: KindTerm, DocID: t.DocID, File: doc.File, Page: t.Page})
		hung++
	}
	return hung, truncated
}

// deepest returns the last, deepest section or run of n holding page.
func deepest(n *Node, page int) *Node {
	for i := len(n.Children) - 1; i >= 0; i-- {
		c := &n.Children[i]
		if c.Kind != KindTerm && c.Page <= page && page <= c.To {
			return deepest(c, page)
		}
	}
	return n
}

func termsUnder(n *Node) int {
	k := 0
	for _, c := range n.Children {
		if c.Kind == KindTerm {
			k++
		}
	}
	return k
}

// count returns the nodes of n's tree, n included.
func count(n Node) int {
	k := 1
	for _, c := range n.Children {
		k += count(c)
	}
	return k
}

// Clean makes a label of s: valid UTF-8, control and format characters
// dropped, white space collapsed, cut to MaxLabel characters.
func Clean(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > MaxLabel {
		r := []rune(s)
		s = strings.TrimSpace(string(r[:MaxLabel-1])) + "…"
	}
	return s
}
