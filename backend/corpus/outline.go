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
