// How the dashboard shows metrics records: the table's columns and cell
// formatting, and the data of its three charts. Pure functions, so the
// numbers the charts draw are tested without a canvas.

import type { MetricsRecord } from './api/types.ts';
import type { Lang } from './i18n/index.ts';

/** Shown for a value the backend does not know (null). */
export const MISSING = '—';

type Format = 'int' | 'ms' | 'pct' | 'score' | 'rank' | 'flag' | 'text' | 'types' | 'chain';

export interface Column {
  key: keyof MetricsRecord;
  format: Format;
}

/** Every field of metrics.Record, in the order of the CSV export. */
export const COLUMNS: readonly Column[] = [
  { key: 'query_index', format: 'int' },
  { key: 'query', format: 'text' },
  { key: 'llm_model', format: 'text' },
  { key: 'llm_routing_mode', format: 'text' },
  { key: 'retrieval_mode', format: 'text' },
  { key: 'retrieval_latency_ms', format: 'ms' },
  { key: 'generation_latency_ms', format: 'ms' },
  { key: 'time_to_first_token_ms', format: 'ms' },
  { key: 'total_latency_ms', format: 'ms' },
  { key: 'chunks_retrieved', format: 'int' },
  { key: 'chunks_used', format: 'int' },
  { key: 'reranker_score_mean', format: 'score' },
  { key: 'reranker_score_min', format: 'score' },
  { key: 'cosine_sim_mean', format: 'score' },
  { key: 'bm25_contribution_pct', format: 'pct' },
  { key: 'bm25_score_share_pct', format: 'pct' },
  { key: 'hit_at_5', format: 'rank' },
  { key: 'recall_at_5', format: 'rank' },
  { key: 'mrr', format: 'rank' },
  { key: 'page_types_used', format: 'types' },
  { key: 'fallback_chain', format: 'chain' },
  { key: 'history_applied', format: 'flag' },
  { key: 'hyde_applied', format: 'flag' },
  { key: 'multi_query_applied', format: 'flag' },
  { key: 'rerank_applied', format: 'flag' },
  { key: 'tokens_in', format: 'int' },
  { key: 'tokens_out', format: 'int' },
  { key: 'citation_valid_pct', format: 'pct' },
  { key: 'images_sent', format: 'int' },
  { key: 'images_withheld', format: 'int' },
  { key: 'scope', format: 'text' },
];

/** Milliseconds: "1,290 ms"; under 10 ms with one decimal. */
export function formatMs(ms: number, lang: Lang): string {
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: 'millisecond',
    unitDisplay: 'short',
    maximumFractionDigits: Math.abs(ms) < 10 ? 1 : 0,
  }).format(ms);
}

/** Words of the cells that are not numbers, in the UI's language. */
export interface CellWords {
  /** Hit@5, Recall@5 and MRR of an answer no reranker scored. */
  noReranker: string;
  /** A technique that applied, and one that did not. */
  on: string;
  off: string;
}

const ENGLISH_WORDS: CellWords = { noReranker: 'no reranker', on: 'on', off: 'off' };

/** The text of one cell; MISSING for null (and for an empty model or chain). */
export function formatCell(record: MetricsRecord, column: Column, lang: Lang, words: CellWords = ENGLISH_WORDS): string {
  const value = record[column.key];
  if (column.format === 'rank' && !record.rerank_applied) return words.noReranker;
  if (value === null || value === undefined) return MISSING;
  switch (column.format) {
    case 'flag':
      return value ? words.on : words.off;
    case 'int':
      return new Intl.NumberFormat(lang).format(value as number);
    case 'ms':
      return formatMs(value as number, lang);
    case 'pct':
      return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(
        (value as number) / 100,
      );
    case 'score':
    case 'rank':
      return new Intl.NumberFormat(lang, { maximumSignificantDigits: 3 }).format(value as number);
    case 'types': {
      const entries = Object.entries(value as Record<string, number>).filter(([, n]) => n > 0);
      return entries.length === 0 ? MISSING : entries.map(([type, n]) => `${type} ${n}`).join(', ');
    }
    case 'chain': {
      const chain = value as string[];
      return chain.length === 0 ? MISSING : chain.join(' → ');
    }
    default:
      return value === '' ? MISSING : String(value);
  }
}

export interface Series {
  /** Stable id; the view translates it into a legend label. */
  id: string;
  data: number[];
}

export interface ChartData {
  labels: string[];
  series: Series[];
}

/** "#3": a question's label on the charts' x axis. */
export function questionLabel(record: MetricsRecord): string {
  return `#${record.query_index}`;
}

/**
 * Latency per question, stacked: retrieval, generation, and the rest of the
 * total (rewriting, reranking, citation checks), so each bar is the total.
 */
export function latencyChart(records: readonly MetricsRecord[]): ChartData {
  return {
    labels: records.map(questionLabel),
    series: [
      { id: 'retrieval', data: records.map((r) => r.retrieval_latency_ms) },
      { id: 'generation', data: records.map((r) => r.generation_latency_ms) },
      {
        id: 'other',
        data: records.map((r) =>
          round(Math.max(0, r.total_latency_ms - r.retrieval_latency_ms - r.generation_latency_ms)),
        ),
      },
    ],
  };
}

/** BM25's share of the used passages' scores per question, in percent. */
export function bm25Chart(records: readonly MetricsRecord[]): ChartData {
  return {
    labels: records.map(questionLabel),
    series: [{ id: 'bm25', data: records.map((r) => r.bm25_contribution_pct) }],
  };
}

/** What answered a question with no model: the routing mode. */
export const NO_MODEL = ['extractive', 'abstained'] as const;

/**
 * Per model: questions it answered, and times it failed and the next one was
 * tried (from the fallback chains). Answers given without a model count under
 * "extractive" or "abstained". Models sorted by answers, then failures, then name.
 */
export function modelChart(records: readonly MetricsRecord[]): ChartData {
  const counts = new Map<string, { answered: number; failed: number }>();
  const entry = (name: string) => {
    let c = counts.get(name);
    if (!c) counts.set(name, (c = { answered: 0, failed: 0 }));
    return c;
  };
  for (const r of records) {
    const answeredBy = r.llm_model !== '' ? r.llm_model : r.llm_routing_mode || 'extractive';
    entry(answeredBy).answered++;
    for (const step of r.fallback_chain ?? []) {
      const failed = /^(.+) \(([^()]+)\)$/.exec(step);
      if (failed?.[1]) entry(failed[1]).failed++;
    }
  }
  const names = [...counts.keys()].sort((a, b) => {
    const ca = counts.get(a)!;
    const cb = counts.get(b)!;
    return cb.answered - ca.answered || cb.failed - ca.failed || a.localeCompare(b);
  });
  return {
    labels: names,
    series: [
      { id: 'answered', data: names.map((n) => counts.get(n)!.answered) },
      { id: 'failed', data: names.map((n) => counts.get(n)!.failed) },
    ],
  };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
