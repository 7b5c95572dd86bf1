package study

import (
	"context"
	"fmt"
	"strings"

	"vika/backend/corpus"
	"vika/backend/message"
)

// material is a resolved scope: the document, its pages kept and the
// passages read, in reading order.
type material struct {
	doc      corpus.Document
	from, to int // pages kept, inclusive
	section  string
	hits     []corpus.Hit
}

// resolve finds the scope's document and passages. A section is the
// pages from its outline entry to the next entry at its depth or above.
func (s *Studier) resolve(ctx context.Context, sc Scope) (material, error) {
	doc, err := s.document(ctx, sc.DocID)
	if err != nil {
		return material{}, err
	}
	m := material{doc: doc, from: 1, to: doc.Pages}
	if sc.Section != "" {
		if m.from, m.to, m.section, err = sectionPages(doc, sc.Section); err != nil {
			return material{}, err
		}
	}
	if strings.TrimSpace(sc.Text) != "" {
		if sc.Page < 1 || sc.Page > doc.Pages {
			return material{}, cardNoPage(doc, sc.Page)
		}
		// A selection is the chat's (corpus.Selection): the same bounds, the same source id.
		sel := corpus.Selection{DocID: doc.ID, Page: sc.Page, Text: sc.Text}
		if err := sel.Validate(); err != nil {
			return material{}, err
		}
		m.from, m.to = sc.Page, sc.Page
		text := strings.Join(strings.Fields(sel.Text), " ")
		m.hits = []corpus.Hit{hitOf(doc, corpus.Chunk{ID: corpus.SelectionID, DocID: doc.ID, Page: sc.Page, Text: text, Kind: corpus.ChunkBody})}
		return m, nil
	}
	chunks, err := s.docs.Chunks(ctx, doc.ID)
	if err != nil {
		return material{}, err
	}
	for _, c := range chunks {
		if c.Page < m.from || c.Page > m.to || strings.TrimSpace(c.Text) == "" {
			continue
		}
		if c.Kind == corpus.ChunkReferences || c.Kind == corpus.ChunkFront {
			continue // a bibliography or a table of contents teaches nothing
		}
		m.hits = append(m.hits, hitOf(doc, c))
	}
	if len(m.hits) == 0 {
		return material{}, message.Wrap(fmt.Errorf("study: %s has no text to study", doc.File), message.StudyNoPassages)
	}
	return m, nil
}

func (s *Studier) document(ctx context.Context, id string) (corpus.Document, error) {
	docs, err := s.docs.Documents(ctx)
	if err != nil {
		return corpus.Document{}, err
	}
	for _, d := range docs {
		if d.ID == id {
			return d, nil
		}
	}
	return corpus.Document{}, fmt.Errorf("%w: %s", corpus.ErrNotFound, id)
}

func hitOf(doc corpus.Document, c corpus.Chunk) corpus.Hit {
	return corpus.Hit{File: doc.File, Page: c.Page, ChunkID: c.ID, Text: c.Text, Kind: c.Kind,
		Label: corpus.CitationLabel(doc.Label, c.Page), DocID: doc.ID, PageType: c.PageType, BBox: c.BBox}
}

// sectionPages returns the pages of the outline entry titled title.
func sectionPages(doc corpus.Document, title string) (from, to int, name string, err error) {
	if from, to, name, ok := doc.SectionPages(title); ok {
		return from, to, name, nil
	}
	return 0, 0, "", message.Wrap(fmt.Errorf("study: %s has no section titled %q in its outline", doc.File, title),
		message.StudyUnknownSection, "section", title)
}

func normTitle(s string) string { return corpus.NormTitle(s) }

// Sections lists the outline entries of a document that have a page.
func (s *Studier) Sections(ctx context.Context, docID string) ([]corpus.OutlineEntry, error) {
	doc, err := s.document(ctx, docID)
	if err != nil {
		return nil, err
	}
	var out []corpus.OutlineEntry
	for _, e := range doc.Outline {
		if e.Page >= 1 && e.Page <= doc.Pages {
			out = append(out, e)
		}
	}
	return out, nil
}

// lang is the language to write in: the chosen one, else the document's.
func (m material) lang(o Options) string {
	if o.Lang != "" {
		return o.Lang
	}
	return m.doc.Lang
}
