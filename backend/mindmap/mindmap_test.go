package mindmap

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
)

// checkCites fails t unless every node but a course root names a
// document of docs and a page that document has, and a section's last
// page is within it.
func checkCites(t *testing.T, m Map, docs ...corpus.Document) {
	t.Helper()
	pages := map[string]int{}
	for _, d := range docs {
		pages[d.ID] = d.Pages
	}
	var walk func(n Node, path string)
	walk = func(n Node, path string) {
		path += "/" + n.Label
		if n.Kind != KindCourse {
			p, ok := pages[n.DocID]
			if !ok || n.Page < 1 || n.Page > p || n.To > p || (n.To != 0 && n.To < n.Page) {
				t.Errorf("%s (%s): doc %q page %d to %d, not a page of the documents", path, n.Kind, n.DocID, n.Page, n.To)
			}
		}
		for _, c := range n.Children {
			walk(c, path)
		}
	}
	walk(m.Root, "")
}

// shape is a tree as "label@page[children]" for comparisons.
func shape(n Node) string {
	s := fmt.Sprintf("%s@%d", n.Label, n.Page)
	if n.Kind == KindTerm {
		s = "#" + s
	}
	if n.Kind == KindPages {
		s = fmt.Sprintf("pp%d-%d", n.Page, n.To)
	}
	if len(n.Children) > 0 {
		var parts []string
		for _, c := range n.Children {
			parts = append(parts, shape(c))
		}
		s += "[" + strings.Join(parts, " ") + "]"
	}
	return s
}

var thesis = corpus.Document{ID: "t", File: "thesis.pdf", Label: "thesis.pdf", Pages: 40, Outline: []corpus.OutlineEntry{
	{Title: "1 Introduction", Page: 3, Depth: 0},
	{Title: "1.1 Motivation", Page: 3, Depth: 1},
	{Title: "1.2 Plan", Page: 5, Depth: 1},
	{Title: "Deep detail", Page: 5, Depth: 3}, // below MaxDepth: dropped
	{Title: "2 Methods", Page: 0, Depth: 0},   // points nowhere: takes its first child's page
	{Title: "2.1 Data", Page: 10, Depth: 1},
	{Title: "  2.2\tModels\n", Page: 14, Depth: 1},
	{Title: "Broken", Page: 99, Depth: 0}, // nowhere, no child: dropped
	{Title: "3 Results", Page: 20, Depth: 0},
	{Title: "3.0.1 Jump", Page: 22, Depth: 2}, // a jump of two levels: a child of 3
}}

func TestOutline(t *testing.T) {
	m := Build([]Source{{Doc: thesis, Terms: []Term{
		{Term: "entropy", DocID: "t", Page: 11},        // under 2.1 Data (pages 10-13)
		{Term: "Entropy", DocID: "t", Page: 12},        // the same term again: once
		{Term: "baseline", DocID: "t", Page: 2},        // before any section: under the document
		{Term: "elsewhere", DocID: "other", Page: 2},   // another document: left out
		{Term: "past the end", DocID: "t", Page: 41},   // no such page: left out
		{Term: "  \x00 ", DocID: "t", Page: 3},         // no label: left out
		{Term: "jump term", DocID: "t", Page: 30},      // under 3.0.1 Jump (22-40)
		{Term: "motivation term", DocID: "t", Page: 4}, // under 1.1 (3-4)
	}}})
	want := "thesis.pdf@1[1 Introduction@3[1.1 Motivation@3[#motivation term@4] 1.2 Plan@5] 2 Methods@10[2.1 Data@10[#entropy@11] 2.2 Models@14] 3 Results@20[3.0.1 Jump@22[#jump term@30]] #baseline@2]"
	if diff := cmp.Diff(want, shape(m.Root)); diff != "" {
		t.Errorf("map (-want +got):\n%s", diff)
	}
	checkCites(t, m, thesis)
	if m.Terms != 4 || m.Truncated {
		t.Errorf("terms %d truncated %v, want 4 and false", m.Terms, m.Truncated)
	}
	var plan Node
	for _, c := range m.Root.Children[0].Children {
		if c.Label == "1.2 Plan" {
			plan = c
		}
	}
	if plan.To != 9 {
		t.Errorf("1.2 Plan ends at page %d, want 9 (2 Methods starts at 10)", plan.To)
	}
}

func TestHeadingsAndRuns(t *testing.T) {
	notes := corpus.Document{ID: "n", File: "notes.pdf", Label: "notes.pdf", Pages: 6}
	m := Build([]Source{{Doc: notes, Headings: []Heading{
		{"", 1}, {"Sampling", 1}, {"Sampling", 2}, {"Estimators", 3}, {"sampling", 5}, {"Off the end", 9}, {"Tests", 6},
	}}})
	if got, want := shape(m.Root), "notes.pdf@1[Sampling@1 Estimators@3 Tests@6]"; got != want {
		t.Errorf("headings: %s, want %s", got, want)
	}
	checkCites(t, m, notes)
	// Numbered titles nest by their numbers.
	m = Build([]Source{{Doc: notes, Headings: []Heading{
		{"Abstract", 1}, {"1 Introduction", 1}, {"2 Method", 2}, {"2.1 Data", 2}, {"2.1.1 Cleaning", 3}, {"2.2 Model", 4},
		{"3. Results", 5}, {"A.1 Proofs", 6}, {"1984 was a year", 6},
	}}})
	if got, want := shape(m.Root), "notes.pdf@1[Abstract@1 1 Introduction@1 2 Method@2[2.1 Data@2[2.1.1 Cleaning@3] 2.2 Model@4] 3. Results@5[A.1 Proofs@6] 1984 was a year@6]"; got != want {
		t.Errorf("numbered headings:\n got %s\nwant %s", got, want)
	}

	scan := corpus.Document{ID: "s", File: "scan.pdf", Label: "scan.pdf", Pages: 25}
	m = Build([]Source{{Doc: scan, Terms: []Term{{Term: "martingale", DocID: "s", Page: 12}}}})
	if got, want := shape(m.Root), "scan.pdf@1[pp1-10 pp11-20[#martingale@12] pp21-25]"; got != want {
		t.Errorf("runs: %s, want %s", got, want)
	}
	checkCites(t, m, scan)
	one := corpus.Document{ID: "o", File: "one.pdf", Label: "one.pdf", Pages: 1}
	if got := shape(Build([]Source{{Doc: one}}).Root); got != "one.pdf@1" {
		t.Errorf("a one-page document: %s", got)
	}
}

func TestCourse(t *testing.T) {
	notes := corpus.Document{ID: "n", File: "notes.pdf", Label: "notes.pdf", Pages: 6}
	m := Build([]Source{
		{Doc: thesis},
		{Doc: notes, Headings: []Heading{{"Sampling", 1}}, Terms: []Term{{Term: "mean", DocID: "t", Page: 21}, {Term: "variance", DocID: "n", Page: 2}}},
	})
	if m.Root.Kind != KindCourse || m.Root.DocID != "" || len(m.Root.Children) != 2 {
		t.Fatalf("course root %+v", m.Root)
	}
	// A course-wide guide's terms cite any document: each goes to its own.
	got := shape(m.Root.Children[1])
	if got != "notes.pdf@1[Sampling@1[#variance@2]]" || !strings.Contains(shape(m.Root.Children[0]), "3 Results@20[#mean@21 3.0.1 Jump@22]") && !strings.Contains(shape(m.Root.Children[0]), "3 Results@20[3.0.1 Jump@22 #mean@21]") {
		t.Errorf("course: %s", shape(m.Root))
	}
	checkCites(t, m, thesis, notes)
}

// TestBounds: a hostile outline (10,000 entries, 30 levels deep) and
// hundreds of terms give a map within the bounds, marked truncated, every
// node still citing a page; a label of markup and controls is kept as
// cleaned text.
func TestBounds(t *testing.T) {
	big := corpus.Document{ID: "b", File: "big.pdf", Label: "big.pdf", Pages: 3000}
	for i := range 10000 {
		big.Outline = append(big.Outline, corpus.OutlineEntry{Title: fmt.Sprintf("Section %d", i), Page: 1 + i%3000, Depth: i % 30})
	}
	var terms []Term
	for i := range 2000 {
		terms = append(terms, Term{Term: fmt.Sprintf("term %d", i), DocID: "b", Page: 1 + i%3000})
	}
	start := time.Now()
	m := Build([]Source{{Doc: big, Terms: terms}})
	t.Logf("a 10,000-entry outline and 2,000 terms: %d nodes and %d terms kept in %v", m.Nodes, m.Terms, time.Since(start).Round(time.Microsecond))
	if m.Nodes > MaxNodes || m.Terms > MaxTerms || !m.Truncated {
		t.Errorf("nodes %d terms %d truncated %v", m.Nodes, m.Terms, m.Truncated)
	}
	if got := count(m.Root); got != m.Nodes+m.Terms {
		t.Errorf("counted %d nodes, the map says %d + %d", got, m.Nodes, m.Terms)
	}
	checkCites(t, m, big)

	var docs []corpus.Document
	var srcs []Source
	for i := range 100 {
		d := big
		d.ID, d.Label = fmt.Sprint("d", i), fmt.Sprintf("doc%d.pdf", i)
		docs = append(docs, d)
		srcs = append(srcs, Source{Doc: d})
	}
	m = Build(srcs)
	if m.Nodes > MaxNodes || !m.Truncated {
		t.Errorf("100 documents: nodes %d truncated %v", m.Nodes, m.Truncated)
	}
	checkCites(t, m, docs...)

	hostile := corpus.Document{ID: "h", File: "h.pdf", Label: "<script>alert(1)</script>\u202e\x07.pdf", Pages: 2,
		Outline: []corpus.OutlineEntry{{Title: "<img src=x onerror=alert(1)>" + strings.Repeat("é", 500), Page: 2}}}
	m = Build([]Source{{Doc: hostile}})
	if m.Root.Label != "<script>alert(1)</script>.pdf" {
		t.Errorf("label %q", m.Root.Label)
	}
	if l := m.Root.Children[0].Label; len([]rune(l)) != MaxLabel || !strings.HasPrefix(l, "<img src=x") || !strings.HasSuffix(l, "…") {
		t.Errorf("long label %q", l)
	}
}
