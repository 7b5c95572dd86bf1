// A passage selected in the viewer (the PDF's text layer, or the OCR lines
// of a scanned page) and what the student can do with it. The viewer's
// selection menu calls Viewer.act; every listener (the chat's Explain, Ask
// about this and Define, the Study view's Flashcards) gets the passage.

import catalogue from '../api/catalogue.json';

/** The selection as Go reads it (rag.Selection), with the file for the chat to show. */
export interface PassageSelection {
  doc_id: string;
  page: number;
  text: string;
  /** The document's name, as the viewer shows it. */
  file: string;
}

/** The chunk id of a selection among an answer's sources (corpus.SelectionID). */
export const SELECTION_ID = catalogue.selection_id;

/** What the menu offers: three go to the chat, 'cards' makes flashcards from the passage in the Study view. */
export type SelectionAction = 'explain' | 'ask' | 'define' | 'cards';

export const SELECTION_ACTIONS: readonly SelectionAction[] = ['explain', 'ask', 'define', 'cards'];

/** Go's bound on a selection, in characters (corpus.MaxSelectionRunes). */
export const MAX_SELECTION = catalogue.max_selection;

/**
 * The text of a selection as the question carries it: spaces folded (the
 * text layer breaks lines and words into spans), at most MAX_SELECTION
 * characters, cut at a space when it is longer; '' for nothing selected.
 */
export function selectionText(raw: string): { text: string; clipped: boolean } {
  const text = raw.replace(/\s+/g, ' ').trim();
  const chars = [...text];
  if (chars.length <= MAX_SELECTION) return { text, clipped: false };
  const cut = chars.slice(0, MAX_SELECTION).join('');
  const space = cut.lastIndexOf(' ');
  return { text: (space > MAX_SELECTION / 2 ? cut.slice(0, space) : cut).trim(), clipped: true };
}
