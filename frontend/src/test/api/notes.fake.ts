// The notes part of the fake api module (fake.ts re-exports it): a small
// in-memory book shaped as Go keeps it (ids, times, reading order), so
// that state and component tests see their notes come back.

import { vi } from 'vitest';
import type * as real from '../../lib/api/index.ts';
import { BridgeError } from '../../lib/api/call.ts';
import type { Note } from '../../lib/api/types.ts';

type Api = typeof real;

let book: Note[] = [];
let next = 0;

function order(a: Note, b: Note): number {
  const top = (n: Note) => (n.boxes && n.boxes[0] ? (n.boxes[0][1] ?? 0) : -1);
  return a.doc_id.localeCompare(b.doc_id) || a.page - b.page || top(a) - top(b);
}

export const listNotes = vi.fn<Api['listNotes']>(async (docID) => book.filter((n) => docID === '' || n.doc_id === docID).sort(order));
export const addNote = vi.fn<Api['addNote']>(async (n) => {
  if (n.kind === 'page' && n.text.trim() === '') throw new BridgeError({ code: 'note.invalid', params: { field: 'text' } });
  const now = new Date(2026, 11, 6, 12, 0, next).toISOString();
  const kept: Note = { ...n, id: `note-${++next}`, quote: n.quote ?? '', boxes: n.boxes ?? null, text: n.text.trim(), created: now, edited: now };
  book.push(kept);
  return kept;
});
export const editNote = vi.fn<Api['editNote']>(async (id, text, color) => {
  const n = book.find((x) => x.id === id);
  if (!n) throw new BridgeError({ code: 'note.unknown' });
  Object.assign(n, { text, color });
  return { ...n };
});
export const deleteNote = vi.fn<Api['deleteNote']>(async (id) => {
  book = book.filter((n) => n.id !== id);
});
export const exportNotes = vi.fn<Api['exportNotes']>(async () => '');
export const saveAnnotatedCopy = vi.fn<Api['saveAnnotatedCopy']>(async () => '');

/** Empties the book between tests. */
export function resetNotesFake(): void {
  book = [];
  next = 0;
}
