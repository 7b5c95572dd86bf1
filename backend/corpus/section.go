package corpus

import (
	"fmt"
	"slices"

	"vika/backend/message"
)

// Resolve turns s's section into pages: the one document among docs (the
// session's documents, limited to s.Docs when it names some) whose
// outline holds a section of that title, and the section's pages within
// s's own page range. A scope without a section is returned as it is.
// The error is coded: no such section (scope.unknown_section), several
// documents have one (scope.section_ambiguous), or the section lies
// outside the page range (scope.section_outside).
func (s Scope) Resolve(docs []Document) (Scope, error) {
	if NormTitle(s.Section) == "" {
		s.Section = ""
		return s, nil
	}
	var found []Document
	var from, to int
	var name string
	for _, d := range docs {
		if len(s.Docs) > 0 && !slices.Contains(s.Docs, d.ID) {
			continue
		}
		if f, t, n, ok := d.SectionPages(s.Section); ok {
			if len(found) == 0 {
				from, to, name = f, t, n
			}
			found = append(found, d)
		}
	}
	switch len(found) {
	case 0:
		return s, message.Wrap(fmt.Errorf("no document searched has a section titled %q in its outline", s.Section),
			message.ScopeUnknownSection, "section", s.Section)
	case 1:
	default:
		var names []string
		for _, d := range found {
			names = append(names, d.Label)
		}
		return s, message.Wrap(fmt.Errorf("%d documents have a section titled %q (%v): choose one", len(found), s.Section, names),
			message.ScopeSectionAmbiguous, "section", s.Section, "docs", names)
	}
	out := Scope{Docs: []string{found[0].ID}, From: from, To: to, Section: name}
	if s.From > 0 {
		out.From = max(out.From, s.From)
	}
	if s.To > 0 {
		out.To = min(out.To, s.To)
	}
	if out.From > out.To {
		return s, message.Wrap(fmt.Errorf("the section %q (p.%d-%d) lies outside the pages searched", name, from, to),
			message.ScopeSectionOutside, "section", name, "from", from, "to", to)
	}
	return out, nil
}
