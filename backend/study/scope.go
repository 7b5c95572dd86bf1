package study

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"vika/backend/corpus"
	"vika/backend/message"
)

// ErrOneDocument is a section or a selection asked of several documents:
// both belong to one.
var ErrOneDocument = message.Register(errors.New("study: a section or a selection is of one document"), message.StudyOneDocument)

// material is a resolved scope: the documents, the pages kept of each and
// the passages read, document after document in the library's order, each
// in reading order.
type material struct {
	docs    []span
	section string
	hits    []corpus.Hit
}

// span is one document of a scope and the pages kept of it.
type span struct {
	doc      corpus.Document
	from, to int // pages kept, inclusive
	passages int
}

// Studied is one document of a guide or deck: the pages read and the
// passages among them.
type Studied struct {
	DocID    string `json:"doc_id"`
	File     string `json:"file"`
	Label    string `json:"label"` // the name its citations carry
	From     int    `json:"from"`
	To       int    `json:"to"`
	Passages int    `json:"passages"`
}

// studied lists m's documents.
func (m material) studied() []Studied {
	out := make([]Studied, len(m.docs))
	for i, d := range m.docs {
		out[i] = Studied{DocID: d.doc.ID, File: d.doc.File, Label: d.doc.Label, From: d.from, To: d.to, Passages: d.passages}
	}
	return out
}

// head is what a guide or deck says it studied: the document and its
// pages, or for several documents no id, their names and no pages.
func (m material) head() (docID, file string, from, to int) {
	if len(m.docs) == 1 {
		d := m.docs[0]
		return d.doc.ID, d.doc.File, d.from, d.to
	}
	names := make([]string, len(m.docs))
	for i, d := range m.docs {
		names[i] = cmp.Or(d.doc.Label, d.doc.File)
	}
	return "", strings.Join(names, ", "), 0, 0
}

// pages counts the pages kept over every document.
func (m material) pages() int {
	n := 0
	for _, d := range m.docs {
		n += d.to - d.from + 1
	}
	return n
}

// ScopeDocuments returns the documents of sc (see scopeDocs).
func (s *Studier) ScopeDocuments(ctx context.Context, sc Scope) ([]corpus.Document, error) {
	return s.scopeDocs(ctx, sc)
}

// scopeDocs returns the documents sc names, in the library's order: every
// document with All, else DocID and Docs (duplicates aside).
func (s *Studier) scopeDocs(ctx context.Context, sc Scope) ([]corpus.Document, error) {
	all, err := s.docs.Documents(ctx)
	if err != nil {
		return nil, err
	}
	want := append(slices.Clone(sc.Docs), sc.DocID)
	var out []corpus.Document
	for _, d := range all {
		if sc.All || slices.Contains(want, d.ID) {
			out = append(out, d)
		}
	}
	for _, id := range want {
		if id != "" && !slices.ContainsFunc(out, func(d corpus.Document) bool { return d.ID == id }) {
			return nil, fmt.Errorf("%w: %s", corpus.ErrNotFound, id)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no document to study", corpus.ErrNotFound)
	}
	if len(out) > 1 && (sc.Section != "" || strings.TrimSpace(sc.Text) != "") {
		return nil, ErrOneDocument
	}
	return out, nil
}

// resolve finds the scope's documents and passages. A section is the
// pages from its outline entry to the next entry at its depth or above.
// Batches span documents: the passages are the documents' one after the
// other, each labelled with its own document.
func (s *Studier) resolve(ctx context.Context, sc Scope) (material, error) {
	docs, err := s.scopeDocs(ctx, sc)
	if err != nil {
		return material{}, err
	}
	var m material
	for _, doc := range docs {
		sp := span{doc: doc, from: 1, to: doc.Pages}
		if sc.Section != "" {
			if sp.from, sp.to, m.section, err = sectionPages(doc, sc.Section); err != nil {
				return material{}, err
			}
		}
		if strings.TrimSpace(sc.Text) != "" {
			sel, err := selection(doc, sc)
			sel.section = m.section
			return sel, err
		}
		chunks, err := s.docs.Chunks(ctx, doc.ID)
		if err != nil {
			return material{}, err
		}
		for _, c := range chunks {
			if c.Page < sp.from || c.Page > sp.to || strings.TrimSpace(c.Text) == "" {
				continue
			}
			if c.Kind == corpus.ChunkReferences || c.Kind == corpus.ChunkFront {
				continue // a bibliography or a table of contents teaches nothing
			}
			if (c.Kind == corpus.ChunkMine) != sc.Mine {
				continue // the student's own notes, or the documents' text
			}
			m.hits = append(m.hits, hitOf(doc, c))
			sp.passages++
		}
		if sp.passages > 0 || len(docs) == 1 {
			m.docs = append(m.docs, sp)
		}
	}
	if len(m.hits) == 0 {
		names := make([]string, len(docs))
		for i, d := range docs {
			names[i] = d.File
		}
		if sc.Mine {
			return material{}, message.Wrap(fmt.Errorf("study: %s has no highlight or note", strings.Join(names, ", ")), message.NotesNone)
		}
		return material{}, message.Wrap(fmt.Errorf("study: %s has no text to study", strings.Join(names, ", ")), message.StudyNoPassages)
	}
	return m, nil
}

// selection is the material of a passage selected on a page of doc.
func selection(doc corpus.Document, sc Scope) (material, error) {
	if sc.Page < 1 || sc.Page > doc.Pages {
		return material{}, cardNoPage(doc, sc.Page)
	}
	// A selection is the chat's (corpus.Selection): the same bounds, the same source id.
	sel := corpus.Selection{DocID: doc.ID, Page: sc.Page, Text: sc.Text}
	if err := sel.Validate(); err != nil {
		return material{}, err
	}
	text := strings.Join(strings.Fields(sel.Text), " ")
	return material{
		docs: []span{{doc: doc, from: sc.Page, to: sc.Page, passages: 1}},
		hits: []corpus.Hit{hitOf(doc, corpus.Chunk{ID: corpus.SelectionID, DocID: doc.ID, Page: sc.Page, Text: text, Kind: corpus.ChunkBody})},
	}, nil
}

func (s *Studier) document(ctx context.Context, id string) (corpus.Document, error) {
	docs, err := s.scopeDocs(ctx, Scope{DocID: id})
	if err != nil {
		return corpus.Document{}, err
	}
	return docs[0], nil
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

// lang is the language to write in: the chosen one, else the language of
// most of the passages (the first document's on a tie).
func (m material) lang(o Options) string {
	if o.Lang != "" {
		return o.Lang
	}
	count := map[string]int{}
	for _, d := range m.docs {
		count[d.doc.Lang] += d.passages
	}
	best, most := "", -1
	for _, d := range m.docs {
		if n := count[d.doc.Lang]; n > most {
			best, most = d.doc.Lang, n
		}
	}
	return best
}
