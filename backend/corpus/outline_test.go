package corpus

import "testing"

// TestSectionAt: a page belongs to the top-level section starting last
// at or before it; a lone top entry lets the level below decide.
func TestSectionAt(t *testing.T) {
	d := Document{Pages: 9, Outline: []OutlineEntry{
		{Title: "Introduction", Page: 2}, {Title: "Motivation", Depth: 1, Page: 3},
		{Title: "Methods", Page: 5}, {Title: "Nowhere", Page: 0}, {Title: "Results", Page: 7},
	}}
	for page, want := range map[int]string{1: "", 2: "Introduction", 4: "Introduction", 5: "Methods", 6: "Methods", 9: "Results"} {
		if got := d.SectionAt(page); got != want {
			t.Errorf("page %d: %q, want %q", page, got, want)
		}
	}
	book := Document{Pages: 9, Outline: []OutlineEntry{{Title: "Book", Page: 1}, {Title: "One", Depth: 1, Page: 2}, {Title: "Two", Depth: 1, Page: 6}}}
	if got := book.SectionAt(7); got != "Two" {
		t.Errorf("under a lone top entry: %q, want Two", got)
	}
	if got := (Document{}).SectionAt(3); got != "" {
		t.Errorf("no outline: %q", got)
	}
}
