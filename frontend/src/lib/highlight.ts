// Finds a cited passage in the text items of a rendered PDF page, so the
// viewer can highlight it. Pure functions: the viewer hands over the items'
// strings (pdf.js text content) and gets back where the passage starts and
// ends, as item indexes and offsets in those strings.
//
// The passage text comes from Vika's own extraction (MuPDF: ligatures
// expanded, end-of-line hyphens joined, whitespace collapsed), the items from
// pdf.js (ligature glyphs, "hyphen-" / "ation" across lines, arbitrary
// splits), so both sides are reduced to words first: compatibility-normalised
// (NFKD: "ﬁ" -> "fi"), accents and case dropped, soft hyphens ignored, and a
// word cut by a hyphen at the end of an item joined with the next item's
// first word. The best span is the window of the page's words, as long as
// the passage, holding the most words that also appear next to the same
// neighbour in the passage (bigrams), trimmed to its first and last such word.

/** A position in the page's items: item index and UTF-16 offset in its string. */
export interface ItemPos {
  item: number;
  offset: number;
}

export interface PassageMatch {
  start: ItemPos;
  /** Exclusive. */
  end: ItemPos;
  /** Share of the passage's words found in order on the page (0..1). */
  score: number;
}

interface Word {
  text: string;
  start: ItemPos;
  end: ItemPos;
}

const HYPHENS = new Set(['-', '\u2010', '\u2011']);
const SOFT_HYPHEN = '\u00ad';

/** The letters and digits a character stands for, lower-case, without accents. */
function fold(ch: string): string {
  return ch.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

function isWordChar(ch: string): boolean {
  return /^[\p{L}\p{N}]$/u.test(ch);
}

/** Splits items into words, joining words hyphenated across items. */
export function itemWords(items: readonly string[]): Word[] {
  const words: Word[] = [];
  let text = '';
  let start: ItemPos | null = null;
  let end: ItemPos = { item: 0, offset: 0 };
  let joining = false; // a word ended "-" at the end of an item

  const close = () => {
    if (text !== '' && start) words.push({ text, start, end });
    text = '';
    start = null;
    joining = false;
  };

  items.forEach((item, i) => {
    if (joining && item.trim() === '') return; // empty end-of-line items
    let offset = 0;
    for (const ch of item) {
      const at = offset;
      offset += ch.length;
      if (ch === SOFT_HYPHEN) continue;
      if (joining) {
        joining = false;
        if (!/^\p{Ll}$/u.test(ch)) close();
      }
      if (HYPHENS.has(ch) && text !== '' && item.slice(offset).trim() === '') {
        joining = true; // "hyphen-" at the end of its item: may continue in the next
        continue;
      }
      const folded = fold(ch);
      let used = false;
      for (const f of folded) {
        if (isWordChar(f)) {
          start ??= { item: i, offset: at };
          text += f;
          used = true;
        }
      }
      if (used) end = { item: i, offset };
      else close();
    }
    if (!joining) close();
  });
  close();
  return words;
}

/** The words of a passage, folded as itemWords folds the page. */
export function passageWords(passage: string): string[] {
  const joined = passage.replace(/(\p{L})[-\u2010\u2011][ \t]*\r?\n[ \t]*(?=\p{Ll})/gu, '$1');
  return itemWords([joined]).map((w) => w.text);
}

/**
 * Where passage best matches the page's items; null when too little of it
 * is there (another page, a scanned page without a text layer).
 */
export function findPassage(items: readonly string[], passage: string, minScore = 0.3): PassageMatch | null {
  const want = passageWords(passage);
  const page = itemWords(items);
  const m = want.length;
  const n = page.length;
  if (m === 0 || n === 0) return null;

  const hits = new Array<number>(n).fill(0);
  if (m === 1) {
    page.forEach((w, j) => (hits[j] = w.text === want[0] ? 1 : 0));
  } else {
    const bigrams = new Set<string>();
    for (let k = 0; k + 1 < m; k++) bigrams.add(`${want[k]} ${want[k + 1]}`);
    for (let j = 0; j + 1 < n; j++) {
      if (bigrams.has(`${page[j]?.text} ${page[j + 1]?.text}`)) {
        hits[j] = 1;
        hits[j + 1] = 1;
      }
    }
  }

  // The window of m words with the most hits (the first best one).
  const width = Math.min(m, n);
  let sum = 0;
  for (let j = 0; j < width; j++) sum += hits[j] ?? 0;
  let best = sum;
  let bestStart = 0;
  for (let j = width; j < n; j++) {
    sum += (hits[j] ?? 0) - (hits[j - width] ?? 0);
    if (sum > best) {
      best = sum;
      bestStart = j - width + 1;
    }
  }
  const score = best / m;
  if (best === 0 || score < minScore) return null;

  let first = bestStart;
  while (!hits[first]) first++;
  let last = bestStart + width - 1;
  while (!hits[last]) last--;
  const a = page[first];
  const b = page[last];
  if (!a || !b) return null;
  return { start: a.start, end: b.end, score: Math.min(1, score) };
}
