package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"path/filepath"
	"strings"

	"vika/backend/corpus"
	"vika/backend/export"
	"vika/backend/message"
	"vika/backend/notes"
)

// The student's own highlights and notes (package notes). The session
// keeps them (a course file too: SaveCourse, OpenCourse) and makes each
// one a passage of its document (corpus.ChunkMine) in the BM25 and dense
// indexes as soon as it is added, edited or deleted: a question finds
// it, a "my notes" scope (corpus.Scope.Mine) keeps only them, a citation
// of it is checked against its text, and the study tools make cards from
// them (study.Scope.Mine). Removing a document removes its notes.

// AddNote checks n against its document's pages (package notes' bounds:
// the window's input is untrusted too), keeps it and indexes it.
func (s *Session) AddNote(ctx context.Context, n notes.Note) (notes.Note, error) {
	n.ID = "" // the session names its notes
	pages, size, _, err := s.notePage(ctx, n.DocID, n.Page)
	if err != nil {
		return notes.Note{}, err
	}
	n, err = s.notes.Add(n, pages, size, s.now())
	if err != nil {
		return notes.Note{}, err
	}
	if err := s.indexNotes(ctx, n.DocID); err != nil {
		_, _ = s.notes.Delete(n.ID)
		return notes.Note{}, err
	}
	s.changed()
	return n, nil
}

// EditNote changes a note's text and colour.
func (s *Session) EditNote(ctx context.Context, id, text string, color notes.Color) (notes.Note, error) {
	n, err := s.notes.Edit(id, text, color, s.now())
	if err != nil {
		return notes.Note{}, err
	}
	s.changed()
	return n, s.indexNotes(ctx, n.DocID)
}

// DeleteNote removes a note.
func (s *Session) DeleteNote(ctx context.Context, id string) error {
	n, err := s.notes.Delete(id)
	if err != nil {
		return err
	}
	s.changed()
	return s.indexNotes(ctx, n.DocID)
}

// Notes lists the notes of document docID ("" for the whole course) in
// reading order.
func (s *Session) Notes(docID string) []notes.Note { return s.notes.List(docID) }

// notePage returns the page count of document docID, the size of its
// page page and its language; corpus.ErrNotFound for a document not in
// the session.
func (s *Session) notePage(ctx context.Context, docID string, page int) (int, notes.PageSize, string, error) {
	doc, _, err := s.eng.DocumentFile(ctx, docID)
	if err != nil {
		return 0, notes.PageSize{}, "", err
	}
	pages, err := s.eng.Pages(ctx, docID)
	if err != nil {
		return 0, notes.PageSize{}, "", err
	}
	for _, p := range pages {
		if p.Number == page {
			return doc.Pages, notes.PageSize{Width: p.Width, Height: p.Height}, p.Lang, nil
		}
	}
	return doc.Pages, notes.PageSize{}, doc.Lang, nil
}

// indexNotes makes the document's notes as they now stand its passages
// of kind corpus.ChunkMine (engine.SetMine); notesMu keeps two changes
// from indexing in the wrong order.
func (s *Session) indexNotes(ctx context.Context, docID string) error {
	s.notesMu.Lock()
	defer s.notesMu.Unlock()
	list := s.notes.List(docID)
	langs := map[int]string{}
	if pages, err := s.eng.Pages(ctx, docID); err == nil {
		for _, p := range pages {
			langs[p.Number] = p.Lang
		}
	}
	chunks := make([]corpus.Chunk, len(list))
	for i, n := range list {
		chunks[i] = notes.Passage(n, langs[n.Page])
	}
	if err := s.eng.SetMine(ctx, docID, chunks); err != nil {
		return fmt.Errorf("indexing the notes: %w", err)
	}
	return nil
}

// restoreNotes keeps a course's notes (decoded and checked: untrusted),
// those of the session's documents and pages only, and indexes them. It
// returns how many it kept.
func (s *Session) restoreNotes(ctx context.Context, data []byte) int {
	if data == nil {
		return 0
	}
	docs, err := s.eng.Documents(ctx)
	if err != nil {
		return 0
	}
	held := map[string]corpus.Document{}
	for _, d := range docs {
		held[d.ID] = d
	}
	sizes := map[string]map[int]notes.PageSize{}
	check := func(docID string, page int) (int, notes.PageSize, bool) {
		d, ok := held[docID]
		if !ok {
			return 0, notes.PageSize{}, false
		}
		if sizes[docID] == nil {
			sizes[docID] = map[int]notes.PageSize{}
			if pages, err := s.eng.Pages(ctx, docID); err == nil {
				for _, p := range pages {
					sizes[docID][p.Number] = notes.PageSize{Width: p.Width, Height: p.Height}
				}
			}
		}
		return d.Pages, sizes[docID][page], true
	}
	list, dropped, err := notes.Decode(data, s.now(), check)
	if err != nil {
		log.Printf("session: course notes left out: %v", err)
		return 0
	}
	if dropped > 0 {
		log.Printf("session: %d of the course's notes left out", dropped)
	}
	n := s.notes.Restore(list)
	touched := map[string]bool{}
	for _, x := range list {
		touched[x.DocID] = true
	}
	for docID := range touched {
		if err := s.indexNotes(ctx, docID); err != nil {
			log.Printf("session: course notes not indexed: %v", err)
		}
	}
	return n
}

// ErrNoNotes is an export of no note (message.NotesNone).
var ErrNoNotes = message.Register(errors.New("no highlight or note to export"), message.NotesNone)

// ExportNotes writes the notes of document docID ("" for the whole
// course) as "html" or "md" (export.Notes: every text escaped, each
// page a link to its PDF beside the export) and returns the file's
// suggested name; ErrNoNotes when there is none.
func (s *Session) ExportNotes(ctx context.Context, docID, format string) ([]byte, string, error) {
	docs, err := s.eng.Documents(ctx)
	if err != nil {
		return nil, "", err
	}
	var of []export.NotesOf
	name := "vika-notes"
	for _, d := range docs {
		if docID != "" && d.ID != docID {
			continue
		}
		if list := s.notes.List(d.ID); len(list) > 0 {
			of = append(of, export.NotesOf{File: d.File, Label: d.Label, Unit: d.Unit, Notes: list})
			if docID != "" {
				name = strings.TrimSuffix(d.File, filepath.Ext(d.File)) + "-notes"
			}
		}
	}
	if len(of) == 0 {
		return nil, "", ErrNoNotes
	}
	var b bytes.Buffer
	if err := export.Notes(&b, format, of, s.now()); err != nil {
		return nil, "", err
	}
	return b.Bytes(), name + "." + format, nil
}
