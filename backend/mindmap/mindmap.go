// Package mindmap builds the mind map of a document or of several (a
// course): a tree whose nodes are the documents, their sections and, when
// a study guide was made, the guide's key terms, each node citing its
// document and an existing page so that a click opens the viewer there.
// It is built offline from what the session holds: the outline
// (bookmarks) when a document has one, else the section titles its
// passages were cut under, else runs of pages; the key terms hang under
// the deepest section holding the page their definition cites. Labels
// are the documents' own text: cleaned of control characters and cut,
// never markup (the window and the exports escape them). The map is
// bounded (MaxNodes, MaxTerms) whatever the documents hold.
package mindmap

import "vika/backend/corpus"

// Kinds of nodes.
const (
	KindCourse   = "course"   // the root of a map of several documents: no document, no page
	KindDocument = "document" // Page 1
	KindSection  = "section"  // an outline entry or a section title
	KindPages    = "pages"    // a run of pages (Page to To) of a document without sections; no label
	KindTerm     = "term"     // a study guide's key term, at the page its definition cites
)

// Bounds of a map.
const (
	// MaxNodes is the most document, section and page nodes of a map;
	// MaxTerms the most term nodes, MaxSectionTerms under one node.
	MaxNodes        = 1500
	MaxTerms        = 400
	MaxSectionTerms = 12
	// MaxDepth is the deepest outline level shown (0 is the top).
	MaxDepth = 2
	// MaxLabel is the most characters of a label.
	MaxLabel = 120
	// pagesPerRun is the pages of a KindPages node.
	pagesPerRun = 10
	// minDocNodes is a document's share of MaxNodes when many share it.
	minDocNodes = 20
)

// Node is one node of a map.
type Node struct {
	Label string `json:"label"` // "" for the course root and a run of pages (the window says them)
	Kind  string `json:"kind"`
	DocID string `json:"doc_id"` // "" for the course root only
	File  string `json:"file"`   // the document's name, for citations
	Page  int    `json:"page"`   // 1-based, a page of DocID; 0 for the course root
	// To is the last page of a section or a run of pages (Page when it
	// holds one page); 0 for a term.
	To       int    `json:"to,omitempty"`
	Children []Node `json:"children,omitempty"`
}

// Map is a mind map: its root (a document, or the course of several),
// how many nodes and terms it holds, and whether bounds dropped some.
type Map struct {
	Root      Node `json:"root"`
	Nodes     int  `json:"nodes"`
	Terms     int  `json:"terms"`
	Truncated bool `json:"truncated"`
}

// Heading is a section title of a document's passages and the first page
// it heads.
type Heading struct {
	Title string
	Page  int
}

// Term is a key term of a study guide and the document and page its
// definition cites.
type Term struct {
	Term  string
	DocID string
	Page  int
}

// Source is what a document's part of a map is made from: the document
// (its outline and page count), its passages' section titles in reading
// order (used when it has no outline) and key terms (any document's:
// those citing another document or a page it does not have are left out).
type Source struct {
	Doc      corpus.Document
	Headings []Heading
	Terms    []Term
}

// Build makes the map of srcs: one document's map has that document as
// its root; several hang under a course root, in the order given.
func Build(srcs []Source) Map {
	var m Map
	budget := MaxNodes
	if len(srcs) > 1 {
		budget = max(MaxNodes/len(srcs), minDocNodes)
		m.Root = Node{Kind: KindCourse}
	}
	var terms []Term
	for _, s := range srcs {
		terms = append(terms, s.Terms...)
	}
	for _, s := range srcs {
		if m.Nodes >= MaxNodes {
			m.Truncated = true
			break
		}
		doc, cut := document(s, min(budget, MaxNodes-m.Nodes))
		m.Truncated = m.Truncated || cut
		m.Nodes += count(doc)
		if len(srcs) == 1 {
			m.Root = doc
		} else {
			m.Root.Children = append(m.Root.Children, doc)
		}
	}
	m.Terms, m.Truncated = hang(&m.Root, terms, m.Truncated)
	return m
}

// document builds a document's node and its sections within budget nodes
// (the document's own included); cut says whether some were left out.
func document(s Source, budget int) (Node, bool) {
	d := s.Doc
	root := Node{Label: Clean(d.Label), Kind: KindDocument, DocID: d.ID, File: d.File, Page: 1, To: d.Pages}
	if root.Label == "" {
		root.Label = Clean(d.File)
	}
	if d.Pages < 1 {
		return root, false
	}
	secs, cut := fromOutline(d, budget-1)
	if secs == nil {
		secs, cut = fromHeadings(d, s.Headings, budget-1)
	}
	if secs == nil {
		secs, cut = runs(d, budget-1)
	}
	root.Children = secs
	return root, cut
}

// entry is an outline entry with a page of the document.
type entry struct {
	title string
	page  int
	depth int
}

// fromOutline returns the document's outline as nested sections: the
// deepest levels are dropped first to fit budget, then the last entries.
// An entry pointing nowhere takes the page of its first entry below that
// has one, or is dropped. nil when the document has no usable outline.
func fromOutline(d corpus.Document, budget int) ([]Node, bool) {
	var es []entry
	for i, e := range d.Outline {
		page := e.Page
		if page < 1 || page > d.Pages {
			page = 0
			for _, next := range d.Outline[i+1:] {
				if next.Depth <= e.Depth {
					break
				}
				if next.Page >= 1 && next.Page <= d.Pages {
					page = next.Page
					break
				}
			}
		}
		title := Clean(e.Title)
		if page == 0 || title == "" {
			continue
		}
		es = append(es, entry{title, page, max(e.Depth, 0)})
	}
	if len(es) == 0 {
		return nil, false
	}
	cut := false
	depth := MaxDepth
	for ; depth > 0 && shallower(es, depth) > budget; depth-- {
	}
	var kept []entry
	for _, e := range es {
		if e.depth <= depth {
			kept = append(kept, e)
		}
	}
	if len(kept) < len(es) {
		cut = slicesAny(es, func(e entry) bool { return e.depth <= MaxDepth && e.depth > depth })
	}
	if len(kept) > budget {
		kept, cut = kept[:max(budget, 0)], true
	}
	return nest(kept, d), cut
}

func shallower(es []entry, depth int) int {
	n := 0
	for _, e := range es {
		if e.depth <= depth {
			n++
		}
	}
	return n
}

func slicesAny(es []entry, f func(entry) bool) bool {
	for _, e := range es {
		if f(e) {
			return true
		}
	}
	return false
}

// nest turns entries in document order into a tree: an entry is a child
// of the last entry before it that is shallower. Each section ends where
// the next entry at its depth or above begins.
func nest(es []entry, d corpus.Document) []Node {
	children := make([][]int, len(es)+1) // children[i+1]: entry i's; children[0]: the top's
	var open []int                       // the entries whose sections are open, shallowest first
	for i, e := range es {
		for len(open) > 0 && es[open[len(open)-1]].depth >= e.depth {
			open = open[:len(open)-1]
		}
		parent := 0
		if len(open) > 0 {
			parent = open[len(open)-1] + 1
		}
		children[parent] = append(children[parent], i)
		open = append(open, i)
	}
	end := func(i int) int {
		for _, next := range es[i+1:] {
			if next.depth <= es[i].depth {
				return min(max(next.page-1, es[i].page), d.Pages)
			}
		}
		return d.Pages
	}
	var build func(p int) []Node
	build = func(p int) []Node {
		var out []Node
		for _, i := range children[p] {
			e := es[i]
			out = append(out, Node{Label: e.title, Kind: KindSection, DocID: d.ID, File: d.File, Page: e.page, To: end(i), Children: build(i + 1)})
		}
		return out
	}
	return build(0)
}
