import { describe, expect, it } from 'vitest';
import { MAX_SELECTION, selectionText } from './selection.ts';

describe('selectionText', () => {
  it('folds the text layer’s line breaks and spans into single spaces', () => {
    expect(selectionText('  The estimate\n of the\u00a0number   of\tdistinct ')).toEqual({ text: 'The estimate of the number of distinct', clipped: false });
    expect(selectionText(' \n ')).toEqual({ text: '', clipped: false });
  });

  it('keeps at most Go’s bound, cut at a space', () => {
    expect(MAX_SELECTION).toBe(2000);
    const long = 'mot '.repeat(700); // 2,800 characters
    const { text, clipped } = selectionText(long);
    expect(clipped).toBe(true);
    expect([...text].length).toBeLessThanOrEqual(MAX_SELECTION);
    expect(text.endsWith('mot')).toBe(true);
    const accents = 'é'.repeat(2000);
    expect(selectionText(accents)).toEqual({ text: accents, clipped: false }); // characters, not UTF-16 units
  });
});
