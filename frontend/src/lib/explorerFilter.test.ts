import { describe, expect, it } from 'vitest';
import { keeps, parsePageRange } from './explorerFilter.ts';

describe('parsePageRange', () => {
  it('reads a page, a range and open ranges', () => {
    expect(parsePageRange('')).toEqual({ from: 0, to: 0 });
    expect(parsePageRange('7')).toEqual({ from: 7, to: 7 });
    expect(parsePageRange(' 3 - 5 ')).toEqual({ from: 3, to: 5 });
    expect(parsePageRange('10-')).toEqual({ from: 10, to: 0 });
    expect(parsePageRange('-4')).toEqual({ from: 0, to: 4 });
  });
  it('refuses what is not a range', () => {
    for (const bad of ['-', 'a', '5-3', '0', '1-2-3', '3,4']) expect(parsePageRange(bad)).toBeNull();
  });
});

describe('keeps', () => {
  const table = { page: 6, texts: ['Table 3. Error rates (%, 10-crop testing)', '| ResNet-152 | 5.71 |'] };
  const all = { from: 0, to: 0 };
  it('keeps a row holding every word, case and accents aside', () => {
    expect(keeps(table, 'resnet-152 TESTING', all)).toBe(true);
    expect(keeps(table, 'resnet quokka', all)).toBe(false);
    expect(keeps({ page: 2, texts: ['Tableau 2 – Résultats'] }, 'resultats', all)).toBe(true);
    expect(keeps(table, '   ', all)).toBe(true);
  });
  it('keeps a row on a page of the range, any of the pages it stands for', () => {
    expect(keeps(table, '', { from: 6, to: 6 })).toBe(true);
    expect(keeps(table, '', { from: 7, to: 0 })).toBe(false);
    expect(keeps(table, '', { from: 0, to: 5 })).toBe(false);
    expect(keeps({ page: 9, pages: [7, 8, 9], texts: [] }, '', { from: 7, to: 7 })).toBe(true);
  });
});
