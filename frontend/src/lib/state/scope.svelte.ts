// What the next questions search: the documents ticked in the library (all
// by default: a new document is ticked) and, optionally, a page range and a
// section of a ticked document's outline (Go turns it into pages). The
// scope stays for the follow-up questions until the student changes it;
// Go applies it inside retrieval (corpus.Scope).

import type { Document } from '../api/types.ts';

/** The scope as Go reads it (corpus.Scope): no docs = every document, 0 = an open side. */
export interface ScopeWire {
  docs?: string[];
  from?: number;
  to?: number;
  /** An outline section's title (corpus.Scope.Section). */
  section?: string;
  /** Only the student's own highlights and notes (corpus.Scope.Mine). */
  mine?: boolean;
}

/** One outline section a question can be limited to. */
export interface SectionChoice {
  title: string;
  depth: number;
  page: number;
}

/** The sections of a document: its outline entries that point at a page. */
export function sectionsOf(doc: Document): SectionChoice[] {
  return (doc.outline ?? [])
    .filter((e) => e.page >= 1 && e.page <= doc.pages && e.title.trim() !== '')
    .map((e) => ({ title: e.title, depth: e.depth, page: e.page }));
}

/** One chip above an answer: a document's name, or a page range. */
export interface ScopeChip {
  kind: 'doc' | 'pages' | 'section' | 'mine';
  label: string;
  from?: number;
  to?: number;
}

/** A page field: '' (open) or a page number from 1. */
function pageOf(s: string): number | null {
  const v = s.trim();
  if (v === '') return 0;
  return /^[1-9][0-9]{0,5}$/.test(v) ? Number(v) : null;
}

export class Scope {
  /** Documents unticked (so that a new document is in the scope). */
  excluded = $state<string[]>([]);
  from = $state('');
  to = $state('');
  /** An outline section's title; '' for the whole documents. */
  section = $state('');
  /** Only the student's own highlights and notes are searched ("my notes"). */
  mine = $state(false);

  /** Whether document id is searched. */
  includes(id: string): boolean {
    return !this.excluded.includes(id);
  }

  toggle(id: string, on: boolean): void {
    this.excluded = on ? this.excluded.filter((x) => x !== id) : [...this.excluded, id];
  }

  /** Ticks every document and clears the pages: the whole library again. */
  reset(): void {
    this.excluded = [];
    this.from = '';
    this.to = '';
    this.section = '';
    this.mine = false;
  }

  /** Whether anything limits the search (the "Search everything" link shows). */
  get limited(): boolean {
    return this.excluded.length > 0 || this.from !== '' || this.to !== '' || this.section !== '' || this.mine;
  }

  /** The page range is wrong: not numbers, or backwards. */
  get pagesInvalid(): boolean {
    const f = pageOf(this.from);
    const t = pageOf(this.to);
    return f === null || t === null || (f > 0 && t > 0 && f > t);
  }

  /** Whether no document of docs is ticked (nothing to search). */
  noneOf(docs: readonly Document[]): boolean {
    return docs.length > 0 && docs.every((d) => !this.includes(d.doc_id));
  }

  /** The scope to send with a question over docs (the session's documents). */
  wire(docs: readonly Document[]): ScopeWire {
    const out: ScopeWire = {};
    const kept = docs.filter((d) => this.includes(d.doc_id));
    if (kept.length < docs.length) out.docs = kept.map((d) => d.doc_id);
    if (!this.pagesInvalid) {
      const f = pageOf(this.from) ?? 0;
      const t = pageOf(this.to) ?? 0;
      if (f > 0) out.from = f;
      if (t > 0) out.to = t;
    }
    // A section of a document no longer ticked is dropped, not sent.
    if (this.section !== '' && kept.some((d) => sectionsOf(d).some((e) => e.title === this.section))) {
      out.section = this.section;
    }
    if (this.mine) out.mine = true;
    return out;
  }

  /** The chips of a scope over docs; none for the whole library. */
  chips(docs: readonly Document[]): ScopeChip[] {
    const w = this.wire(docs);
    const out: ScopeChip[] = [];
    for (const id of w.docs ?? []) {
      const d = docs.find((x) => x.doc_id === id);
      out.push({ kind: 'doc', label: d?.label ?? id.slice(0, 12) });
    }
    if (w.section) out.push({ kind: 'section', label: w.section });
    if (w.from || w.to) out.push({ kind: 'pages', label: '', from: w.from ?? 0, to: w.to ?? 0 });
    if (w.mine) out.push({ kind: 'mine', label: '' });
    return out;
  }
}
