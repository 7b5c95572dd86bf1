// Suggested questions for a newly added document, made offline from the
// titles of its outline (bookmarks): no model is asked. The sections a
// student would not ask about (references, contents, acknowledgements,
// appendices) are left out, and a title's numbering ("3.2", "IV.") is
// dropped.

import type { OutlineEntry } from '../api/types.ts';
import { t } from './locale.svelte.ts';

/** How many questions are suggested at most. */
export const MAX_SUGGESTIONS = 4;

const LONGEST_TITLE = 90;

/** Titles (lower case, numbering dropped) of sections not worth a question, in English and French. */
const SKIPPED =
  /^(references?|bibliograph(y|ie)|works cited|acknowledge?ments?|remerciements|(table of )?contents|table des mati[eè]res|sommaire|index|appendi(x|ces)|annexes?|notations?|preface|préface|dedication|dédicace|list of (figures|tables)|liste des (figures|tableaux)|title page|abstract|résumé)\b/;

const NUMBERING = /^\s*((\d+(\.\d+)*|[IVXLC]+|[A-Z])[.)]?|chapter \d+:?|chapitre \d+ ?:?)\s+/i;

/** The title as a question names it, or "" when it should not be asked about. */
export function sectionName(title: string): string {
  const name = title.replace(NUMBERING, '').replace(/\s+/g, ' ').trim();
  if (name.length < 3 || name.length > LONGEST_TITLE || SKIPPED.test(name.toLowerCase())) return '';
  return name;
}

/**
 * Up to max questions from the outline's top-level sections (the next
 * level fills in when there are too few), alternating two phrasings, in
 * the window's language.
 */
export function suggestQuestions(outline: readonly OutlineEntry[] | null | undefined, max = MAX_SUGGESTIONS): string[] {
  const entries = (outline ?? []).filter((e) => e.page > 0);
  if (entries.length === 0) return [];
  const top = Math.min(...entries.map((e) => e.depth));
  const names: string[] = [];
  for (const depth of [top, top + 1]) {
    for (const e of entries) {
      const name = e.depth === depth ? sectionName(e.title) : '';
      if (name !== '' && !names.some((n) => n.toLowerCase() === name.toLowerCase())) names.push(name);
    }
    if (names.length >= max) break;
  }
  return names
    .slice(0, max)
    .map((title, i) => t(i % 2 === 0 ? 'suggest.explain' : 'suggest.summarise', { title }));
}
