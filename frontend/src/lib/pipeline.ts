// What an answer's pipeline did, from what Go sent with it (its sources
// and its metrics): how many sources of each kind, how many each
// retriever found, and which of the optional steps applied. The strip
// under an answer shows it (PipelineStrip.svelte); the words are the
// page's, in its language.

import catalogue from './api/catalogue.json';
import type { MetricsRecord, Source } from './api/types.ts';

/** Source kinds as the strip counts them: body, front matter and
 * references are all "text", then the regions' kinds (catalogue.json). */
export const SOURCE_KINDS: readonly string[] = ['text', ...catalogue.kinds.layout, ...catalogue.kinds.marks];
export type SourceKind = string;

/** The retrievers a source may be found by; "summary" counts the sources
 * the summary list ranked (via_summary), whatever else found them. */
export const FINDERS = ['bm25', 'dense', 'image', 'summary'] as const;
export type Finder = (typeof FINDERS)[number];

/** The optional steps of an answer, in the strip's order. */
export const STEPS = ['hyde', 'multi_query', 'rerank', 'history'] as const;
export type Step = (typeof STEPS)[number];

export interface PipelineSummary {
  kinds: { kind: SourceKind; count: number }[];
  finders: { finder: Finder; count: number }[];
  steps: { step: Step; applied: boolean }[];
}

/** What the strip reads of a source and of an answer's metrics: the wire
 * types' own fields, so a field renamed in Go fails `npm run check`. */
type SourceLike = Pick<Source, 'kind' | 'found_by'> & Partial<Pick<Source, 'via_summary'>>;
type MetricsLike = Pick<MetricsRecord, 'hyde_applied' | 'multi_query_applied' | 'rerank_applied' | 'history_applied'>;

/** The kind a source counts as. */
export function sourceKind(kind: string | undefined): SourceKind {
  const k = SOURCE_KINDS.find((s) => s === kind);
  return k ?? 'text';
}

/** The summary of an answer's pipeline: kinds and finders with a count
 * (zero counts left out, "both" counted for BM25 and dense), every step
 * with whether it applied. */
export function pipelineOf(sources: readonly SourceLike[], metrics: MetricsLike | null | undefined): PipelineSummary {
  const kinds = new Map<SourceKind, number>();
  const finders = new Map<Finder, number>();
  for (const s of sources) {
    const k = sourceKind(s.kind);
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
    const by: Finder[] = s.found_by === 'both' ? ['bm25', 'dense'] : FINDERS.filter((f) => f === s.found_by);
    if (s.via_summary && !by.includes('summary')) by.push('summary');
    for (const f of by) finders.set(f, (finders.get(f) ?? 0) + 1);
  }
  const applied: Record<Step, boolean> = {
    hyde: metrics?.hyde_applied ?? false,
    multi_query: metrics?.multi_query_applied ?? false,
    rerank: metrics?.rerank_applied ?? false,
    history: metrics?.history_applied ?? false,
  };
  return {
    kinds: SOURCE_KINDS.filter((k) => kinds.has(k)).map((kind) => ({ kind, count: kinds.get(kind)! })),
    finders: FINDERS.filter((f) => finders.has(f)).map((finder) => ({ finder, count: finders.get(finder)! })),
    steps: STEPS.map((step) => ({ step, applied: applied[step] })),
  };
}

/** The bands Go gives a source's cosine (retrieve.Bands). */
export const BANDS = ['high', 'fair', 'low'] as const;
export type Band = (typeof BANDS)[number];

/** The band of a source, or null when Go gave none (no cosine, or a
 * model without measured thresholds). */
export function bandOf(band: string | undefined | null): Band | null {
  return BANDS.find((b) => b === band) ?? null;
}
