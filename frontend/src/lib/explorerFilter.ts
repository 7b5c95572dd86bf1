// The explorer's keyword and page filters over a document's passages,
// tables, figures and formulas: pure functions, so the tabs and their tests
// share one reading of "3-5" and of a keyword.

/** A page range, inclusive; 0 leaves a side open. */
export interface PageRange {
  from: number;
  to: number;
}

/**
 * Reads a page filter: "" (every page), "7", "3-5", "10-" or "-4" (spaces
 * allowed). null when it is none of these, or a range that ends before it
 * starts.
 */
export function parsePageRange(text: string): PageRange | null {
  const s = text.replace(/\s+/g, '');
  if (s === '') return { from: 0, to: 0 };
  const m = /^(\d*)(-?)(\d*)$/.exec(s);
  if (!m || (m[1] === '' && m[3] === '')) return null;
  const from = m[1] === '' ? 0 : Number(m[1]);
  const to = m[2] === '' ? from : m[3] === '' ? 0 : Number(m[3]);
  if ((m[1] !== '' && from < 1) || (to !== 0 && to < Math.max(from, 1))) return null;
  return { from, to };
}

/** Lower case without accents, so that "resultats" finds "Résultats". */
function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** What a filtered row offers: its pages and the texts a keyword may be in. */
export interface Filterable {
  page: number;
  pages?: number[] | null;
  texts: (string | null | undefined)[];
}

/**
 * Reports whether row is kept: every word of keyword is in one of its
 * texts (case and accents aside), and one of its pages is in range.
 */
export function keeps(row: Filterable, keyword: string, range: PageRange): boolean {
  const pages = row.pages?.length ? row.pages : [row.page];
  const inRange = (p: number) => (range.from === 0 || p >= range.from) && (range.to === 0 || p <= range.to);
  if (!pages.some(inRange)) return false;
  const words = fold(keyword).split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return true;
  const text = fold(row.texts.filter((x) => x).join('\n'));
  return words.every((w) => text.includes(w));
}
