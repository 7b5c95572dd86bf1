// Locale-aware number formatting for the views.

import type { Lang } from './i18n/index.ts';

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** "2.4 MB" in English, "2,4 Mo" in French. */
export function formatBytes(bytes: number, lang: Lang): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

/** Scores come from several rankers (cosine, BM25, fusion): 3 significant digits suit all. */
export function formatScore(score: number, lang: Lang): string {
  return new Intl.NumberFormat(lang, { maximumSignificantDigits: 3 }).format(score);
}

