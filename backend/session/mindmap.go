package session

import (
	"context"

	"vika/backend/corpus"
	"vika/backend/mindmap"
	"vika/backend/study"
)

// MindMap builds the mind map of sc's documents (one, several or all;
// a section or a selection of the scope is not narrowed to): each
// document's outline, else its passages' section titles, else runs of its
// pages, and the key terms of the study guides kept this session (the
// documents' own, and the guide of sc when it covers several), each
// verified term under the section of the page its definition cites.
// Offline: no model is asked.
func (s *Session) MindMap(ctx context.Context, sc study.Scope) (mindmap.Map, error) {
	sc = study.Scope{DocID: sc.DocID, Docs: sc.Docs, All: sc.All}
	docs, err := s.study.Studier().ScopeDocuments(ctx, sc)
	if err != nil {
		return mindmap.Map{}, err
	}
	srcs := make([]mindmap.Source, len(docs))
	for i, d := range docs {
		srcs[i].Doc = d
		if g, ok := s.study.Kept(ctx, study.Scope{DocID: d.ID}); ok {
			srcs[i].Terms = guideTerms(g)
		}
		if !hasOutline(d) {
			if srcs[i].Headings, err = s.headings(ctx, d.ID); err != nil {
				return mindmap.Map{}, err
			}
		}
	}
	if len(docs) > 1 {
		if g, ok := s.study.Kept(ctx, sc); ok {
			srcs[0].Terms = append(srcs[0].Terms, guideTerms(g)...) // each hangs under its own document
		}
	}
	return mindmap.Build(srcs), nil
}

// guideTerms are a guide's key terms whose definition's citation the
// checker verified, at the document and page it cites.
func guideTerms(g study.Guide) []mindmap.Term {
	var out []mindmap.Term
	for _, t := range g.Terms {
		if c := t.Definition.Check; c.Verified && c.DocID != "" && c.Page > 0 {
			out = append(out, mindmap.Term{Term: t.Term, DocID: c.DocID, Page: c.Page})
		}
	}
	return out
}

func hasOutline(d corpus.Document) bool {
	for _, e := range d.Outline {
		if e.Page >= 1 && e.Page <= d.Pages {
			return true
		}
	}
	return false
}

// headings are the section titles of a document's passages, in reading
// order, each with its passage's page.
func (s *Session) headings(ctx context.Context, docID string) ([]mindmap.Heading, error) {
	chunks, err := s.eng.Chunks(ctx, docID)
	if err != nil {
		return nil, err
	}
	var out []mindmap.Heading
	last := ""
	for _, c := range chunks {
		if c.SectionTitle != "" && c.SectionTitle != last && !c.Kind.IsRegion() {
			out = append(out, mindmap.Heading{Title: c.SectionTitle, Page: c.Page})
			last = c.SectionTitle
		}
	}
	return out, nil
}
