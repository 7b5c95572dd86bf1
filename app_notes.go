package main

import (
	"vika/backend/notes"
)

// Notes lists the student's highlights and notes of a document ("" for
// the whole course) in reading order.
func (a *App) Notes(docID string) ([]notes.Note, error) {
	list := a.s.Notes(docID)
	if list == nil {
		list = []notes.Note{}
	}
	return list, nil
}

// AddNote keeps a highlight or a page note (checked: its page, boxes,
// colour and text) and indexes it.
func (a *App) AddNote(n notes.Note) (notes.Note, error) {
	return a.s.AddNote(a.ctx, n)
}

// EditNote changes a note's text and colour.
func (a *App) EditNote(id, text, color string) (notes.Note, error) {
	return a.s.EditNote(a.ctx, id, text, notes.Color(color))
}

// DeleteNote removes a note.
func (a *App) DeleteNote(id string) error {
	return a.s.DeleteNote(a.ctx, id)
}

// ExportNotes saves the notes of a document ("" for the whole course) as
// "html" or "md", with page links to the PDF; the path saved, "" when
// the student cancelled.
func (a *App) ExportNotes(docID, format string) (string, error) {
	data, name, err := a.s.ExportNotes(a.ctx, docID, format)
	if err != nil {
		return "", err
	}
	return a.save("Export notes", name, format, data)
}

// SaveAnnotatedCopy saves a copy of a document's PDF with its highlights
// and notes written as standard PDF annotations (other readers show
// them); the path saved, "" when the student cancelled.
func (a *App) SaveAnnotatedCopy(docID string) (string, error) {
	data, name, err := a.s.AnnotatedCopy(a.ctx, docID)
	if err != nil {
		return "", err
	}
	return a.save("Save a copy with my notes", name, "pdf", data)
}
