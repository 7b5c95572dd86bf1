package rag

import (
	"context"
	"slices"
	"strings"

	"vika/backend/corpus"
	"vika/backend/prompt"
	"vika/backend/retrieve"
)

// selectionPages is how far around the selection's page the first search
// looks (pages before and after).
const selectionPages = 1

// selectionHit is the selection as a source: a hit on its page, labelled
// like any citation of that page, or false when its document is no longer
// in the session.
func (s *Assistant) selectionHit(ctx context.Context, sel *corpus.Selection) (corpus.Hit, bool) {
	docs, err := s.eng.Documents(ctx)
	if err != nil {
		return corpus.Hit{}, false
	}
	for _, d := range docs {
		if d.ID == sel.DocID {
			text := strings.Join(strings.Fields(sel.Text), " ")
			return corpus.Hit{ChunkID: corpus.SelectionID, DocID: d.ID, File: d.File, Page: sel.Page, Text: text,
				Label: corpus.CitationLabel(d.Label, d.Unit, sel.Page), Unit: d.Unit, FoundBy: "selection"}, true
		}
	}
	return corpus.Hit{}, false
}

// aroundSelection is the scope of the first search of a question about a
// selection: its document, a page either side, within the question's own
// scope (a page range outside it leaves the scope as it was).
func aroundSelection(sel *corpus.Selection, sc corpus.Scope) corpus.Scope {
	near := corpus.Scope{Docs: []string{sel.DocID}, From: max(1, sel.Page-selectionPages), To: sel.Page + selectionPages}
	if len(sc.Docs) > 0 && !slices.Contains(sc.Docs, sel.DocID) {
		return sc
	}
	if sc.From > 0 {
		near.From = max(near.From, sc.From)
	}
	if sc.To > 0 {
		near.To = min(near.To, sc.To)
	}
	if near.From > near.To {
		return sc
	}
	return near
}

// withSelection puts the selection first among the hits and the passages
// found around its page before the others, each chunk once, k at most
// (the selection included).
func withSelection(sel corpus.Hit, near, rest []corpus.Hit, k int) []corpus.Hit {
	out := []corpus.Hit{sel}
	seen := map[string]bool{}
	for _, list := range [][]corpus.Hit{near, rest} {
		for _, h := range list {
			if len(out) >= k {
				return out
			}
			if seen[h.ChunkID] {
				continue
			}
			seen[h.ChunkID] = true
			out = append(out, h)
		}
	}
	return out
}

// selectionQuery is what a question about a selection searches: the
// question and the selected text (a "Define" or "Explain" names no term).
func selectionQuery(q retrieve.Query, sel *corpus.Selection) retrieve.Query {
	q.Question = strings.TrimSpace(q.Question + "\n" + sel.Text)
	return q
}

// promptQuestion is the question as the model reads it: about a
// selection, it says which source the selection is (source 1, with its
// page), in the question's language.
func (t *turn) promptQuestion() string {
	if len(t.r.hits) == 0 || t.r.hits[0].ChunkID != corpus.SelectionID {
		return t.a.Question
	}
	label := t.r.hits[0].Label
	if prompt.GuessLang(t.a.Question) == "fr" {
		return t.a.Question + "\n\n(Le passage que j’ai sélectionné est la source [1], " + label + ".)"
	}
	return t.a.Question + "\n\n(The passage I selected is source [1], " + label + ".)"
}
