package corpus

import "strings"

// SectionPages returns the pages of d's outline entry titled title (any
// case and spacing): from its page to the page before the next entry at
// its depth or above (the last page when none follows), with the entry's
// own title; ok is false when no entry with a page has that title.
func (d Document) SectionPages(title string) (from, to int, name string, ok bool) {
	want := NormTitle(title)
	if want == "" {
		return 0, 0, "", false
	}
	for i, e := range d.Outline {
		if NormTitle(e.Title) != want || e.Page < 1 {
			continue
		}
		to = max(d.Pages, e.Page)
		for _, next := range d.Outline[i+1:] {
			if next.Depth <= e.Depth && next.Page >= e.Page {
				to = max(next.Page-1, e.Page)
				break
			}
		}
		return e.Page, to, e.Title, true
	}
	return 0, 0, "", false
}

// NormTitle is how outline titles are compared: lower case, spaces folded.
func NormTitle(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// SectionAt is the title of the outline section that page belongs to: of
// the entries at the outline's top level (or of all of them, when fewer
// than two are at the top), the one starting last at or before page; ""
// when page comes before them all or there is no outline.
func (d Document) SectionAt(page int) string {
	top := -1
	for _, e := range d.Outline {
		if e.Page >= 1 && (top < 0 || e.Depth < top) {
			top = e.Depth
		}
	}
	n := 0
	for _, e := range d.Outline {
		if e.Page >= 1 && e.Depth == top {
			n++
		}
	}
	best, title := 0, ""
	for _, e := range d.Outline {
		if e.Page < 1 || e.Page > page || (n >= 2 && e.Depth != top) {
			continue
		}
		if e.Page >= best {
			best, title = e.Page, e.Title
		}
	}
	return title
}
