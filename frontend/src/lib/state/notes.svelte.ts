// The student's own highlights and notes: every note of the session (the
// course-wide list), those of a page (drawn over it in the viewer), and
// what the student does with them (highlight a selection in a colour,
// note a page, edit, delete, export, save a copy of the PDF with them).
// Go keeps, checks and indexes them (backend/notes); a note's text is
// plain text, shown as text, never as markup.

import * as api from '../api/index.ts';
import catalogue from '../api/catalogue.json';
import type { Box, Note, NoteInput } from '../api/types.ts';
import { handleError } from '../errors.ts';
import { Export } from './export.svelte.ts';
import type { PassageSelection } from './selection.ts';

/** The highlight colours, in the order the menu offers them (notes.Palette). */
export const PALETTE: readonly string[] = catalogue.notes.palette.map((s) => s.name);
/** The CSS colour of a palette colour: its RGB as Go writes it into a PDF. */
export function cssColor(name: string): string {
  const rgb = catalogue.notes.palette.find((s) => s.name === name)?.rgb ?? [1, 1, 0];
  return `rgb(${rgb.map((v) => Math.round(v * 255)).join(', ')})`;
}
/** Go's bound on a note's text, in characters (notes.MaxTextRunes). */
export const MAX_NOTE = catalogue.notes.max_text;
/** The chunk kind of a note's passage (corpus.ChunkMine): a source or a citation of this kind is the student's own. */
export const MINE_KIND = catalogue.notes.kind;

export class Notes {
  /** Every note of the session, in reading order (by document, page, place). */
  all = $state<Note[]>([]);
  error = $state<string | null>(null);
  /** A change is being sent. */
  busy = $state(false);
  readonly #exports = new Export();

  get exporting(): string | null {
    return this.#exports.running;
  }
  get exported(): string | null {
    return this.#exports.path;
  }

  /** The notes of one document. */
  of(docID: string): Note[] {
    return this.all.filter((n) => n.doc_id === docID);
  }

  /** The notes of one page. */
  onPage(docID: string, page: number): Note[] {
    return this.all.filter((n) => n.doc_id === docID && n.page === page);
  }

  /** Reads every note again (a course opened, a document removed). */
  async load(): Promise<void> {
    try {
      this.all = await api.listNotes('');
    } catch (err) {
      this.error = handleError(err, '');
    }
  }

  /** Highlights a selection (its boxes on the page, in points) in a colour, with a note or none. */
  highlight(sel: PassageSelection, boxes: Box[], color: string, text = ''): Promise<Note | null> {
    return this.#add({ doc_id: sel.doc_id, page: sel.page, kind: 'highlight', color, quote: sel.text, boxes, text });
  }

  /** A note on a whole page. */
  pageNote(docID: string, page: number, text: string, color = 'blue'): Promise<Note | null> {
    return this.#add({ doc_id: docID, page, kind: 'page', color, quote: '', text });
  }

  async #add(n: NoteInput): Promise<Note | null> {
    return this.#send(async () => {
      const kept = await api.addNote(n);
      await this.load();
      return kept;
    });
  }

  /** Changes a note's text and colour. */
  edit(id: string, text: string, color: string): Promise<Note | null> {
    return this.#send(async () => {
      const kept = await api.editNote(id, text, color);
      this.all = this.all.map((n) => (n.id === id ? kept : n));
      return kept;
    });
  }

  /** Deletes a note. */
  async remove(id: string): Promise<void> {
    await this.#send(async () => {
      await api.deleteNote(id);
      this.all = this.all.filter((n) => n.id !== id);
      return null;
    });
  }

  /** Exports the notes of a document ('' for all) as HTML or Markdown. */
  exportAs(docID: string, format: 'html' | 'md'): Promise<void> {
    return this.#exports.run(format, () => api.exportNotes(docID, format), (err) => (this.error = handleError(err, '')));
  }

  /** Saves a copy of a document's PDF with its notes as PDF annotations. */
  saveCopy(docID: string): Promise<void> {
    return this.#exports.run('pdf', () => api.saveAnnotatedCopy(docID), (err) => (this.error = handleError(err, '')));
  }

  async #send<T>(work: () => Promise<T>): Promise<T | null> {
    this.busy = true;
    this.error = null;
    try {
      return await work();
    } catch (err) {
      this.error = handleError(err, '');
      return null;
    } finally {
      this.busy = false;
    }
  }
}
