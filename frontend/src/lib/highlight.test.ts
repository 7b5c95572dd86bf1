import { describe, expect, it } from 'vitest';
import { findPassage, itemWords, passageWords } from './highlight.ts';

/** The text a match covers, read back from the items. */
function covered(items: string[], passage: string): string | null {
  const m = findPassage(items, passage);
  if (!m) return null;
  let out = '';
  for (let i = m.start.item; i <= m.end.item; i++) {
    const s = items[i] ?? '';
    const from = i === m.start.item ? m.start.offset : 0;
    const to = i === m.end.item ? m.end.offset : s.length;
    out += s.slice(from, to) + (i < m.end.item ? '|' : '');
  }
  return out;
}

describe('words', () => {
  it('folds case, accents and ligatures, and ignores soft hyphens', () => {
    expect(passageWords('Eﬃcient  DÉFINITION, co\u00adoperation')).toEqual(['efficient', 'definition', 'cooperation']);
  });

  it('joins a word hyphenated at the end of an item with the next item', () => {
    const words = itemWords(['the satisfia-', '', 'bility problem']);
    expect(words.map((w) => w.text)).toEqual(['the', 'satisfiability', 'problem']);
    expect(words[1]).toMatchObject({ start: { item: 0, offset: 4 }, end: { item: 2, offset: 6 } });
  });

  it('keeps a hyphen before a capital (a compound, not a cut word)', () => {
    expect(itemWords(['Cook-', 'Levin theorem']).map((w) => w.text)).toEqual(['cook', 'levin', 'theorem']);
  });

  it('joins hyphenation inside a passage that kept its line ends', () => {
    expect(passageWords('satisfia-\nbility of formulas')).toEqual(['satisfiability', 'of', 'formulas']);
  });
});

describe('findPassage', () => {
  const page = [
    'Lecture 3: SAT',
    'A formula is satisfiable if some assign-',
    'ment makes it true. The satisfiability',
    'problem asks whether a formula is satisﬁable.',
    'Cook proved it NP-complete in 1971.',
  ];

  it('finds the best-matching span across items, hyphenation and ligatures', () => {
    const passage = 'The satisfiability problem asks whether a formula is satisfiable.';
    expect(covered(page, passage)).toBe('The satisfiability|problem asks whether a formula is satisﬁable');
  });

  it('ignores whitespace differences and matches a passage spanning a hyphenated line break', () => {
    const passage = 'A formula is   satisfiable if some assignment\nmakes it true.';
    expect(covered(page, passage)).toBe('A formula is satisfiable if some assign-|ment makes it true');
  });

  it('scores the share of the passage found', () => {
    const m = findPassage(page, 'Cook proved it NP-complete in 1971.');
    expect(m?.score).toBe(1);
    expect(m?.start).toEqual({ item: 4, offset: 0 });
  });

  it('prefers the span where words follow each other as in the passage', () => {
    const items = ['formula is a word here', 'and later: a formula is satisfiable when true'];
    expect(covered(items, 'a formula is satisfiable when true')).toBe('a formula is satisfiable when true');
  });

  it('returns null when the passage is not on the page', () => {
    expect(findPassage(page, 'Residual networks ease the training of deep networks.')).toBeNull();
    expect(findPassage([], 'anything')).toBeNull();
    expect(findPassage(page, '  ')).toBeNull();
  });

  it('does not accept a few common words as a match', () => {
    expect(findPassage(page, 'it is true that the cat sat on the mat and a dog barked at it loudly')).toBeNull();
  });
});
