// The student's own highlights and notes: listed per document or for the
// whole course, added, edited, deleted and exported. Go owns them, checks
// them and indexes them as passages of their own kind (backend/notes,
// backend/session/notes.go); the page draws and lists them.
// Part of the API (index.ts re-exports every domain module).

import * as App from '../../../wailsjs/go/main/App';
import { notes } from '../../../wailsjs/go/models';
import { call } from './call.ts';
import type { Note, NoteInput } from './types.ts';

/** The notes of a document ('' for every document), in reading order. */
export async function listNotes(docID: string): Promise<Note[]> {
  return ((await call(() => App.Notes(docID))) ?? []) as Note[];
}

/** Keeps a highlight or a page note; the note as Go kept it (its id, its text made plain). */
export async function addNote(n: NoteInput): Promise<Note> {
  return (await call(() => App.AddNote(notes.Note.createFrom({ ...n, id: '', created: null, edited: null })))) as Note;
}

/** Changes a note's text and colour. */
export async function editNote(id: string, text: string, color: string): Promise<Note> {
  return (await call(() => App.EditNote(id, text, color))) as Note;
}

/** Removes a note. */
export async function deleteNote(id: string): Promise<void> {
  await call(() => App.DeleteNote(id));
}

/** Saves the notes of a document ('' for every document) as HTML or Markdown; the path, '' when cancelled. */
export async function exportNotes(docID: string, format: 'html' | 'md'): Promise<string> {
  return (await call(() => App.ExportNotes(docID, format))) ?? '';
}

/** Saves a copy of a document's PDF with its highlights and notes as standard PDF annotations; the path, '' when cancelled. */
export async function saveAnnotatedCopy(docID: string): Promise<string> {
  return (await call(() => App.SaveAnnotatedCopy(docID))) ?? '';
}
