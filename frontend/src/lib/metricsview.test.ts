import { describe, expect, it } from 'vitest';
import { sampleRecord } from '../test/api/fake.ts';
import { bm25Chart, COLUMNS, formatCell, latencyChart, MISSING, modelChart } from './metricsview.ts';

function column(key: (typeof COLUMNS)[number]['key']) {
  const c = COLUMNS.find((x) => x.key === key);
  if (!c) throw new Error(key);
  return c;
}

describe('metrics table', () => {
  it('has a column for every field of a record', () => {
    expect(COLUMNS.map((c) => c.key).sort()).toEqual(Object.keys(sampleRecord()).sort());
  });

  it('shows unknown values as —', () => {
    const r = sampleRecord({ time_to_first_token_ms: null, mrr: null, fallback_chain: [], llm_model: '', page_types_used: null });
    for (const key of ['time_to_first_token_ms', 'mrr', 'fallback_chain', 'llm_model', 'page_types_used', 'reranker_score_mean'] as const) {
      expect(formatCell(r, column(key), 'en'), key).toBe(MISSING);
    }
  });

  it('formats numbers by kind and language', () => {
    const r = sampleRecord({ total_latency_ms: 1290.4, bm25_contribution_pct: 37.5, cosine_sim_mean: 0.41234, tokens_in: 2100 });
    expect(formatCell(r, column('total_latency_ms'), 'en')).toBe('1,290 ms');
    expect(formatCell(r, column('bm25_contribution_pct'), 'en')).toBe('37.5%');
    expect(formatCell(r, column('cosine_sim_mean'), 'en')).toBe('0.412');
    expect(formatCell(r, column('tokens_in'), 'fr')).toBe('2\u202f100');
    expect(formatCell(r, column('page_types_used'), 'en')).toBe('text 7, scanned 1');
    expect(formatCell(sampleRecord({ fallback_chain: ['gemini/x (rate_limited)', 'groq/y'] }), column('fallback_chain'), 'en')).toBe(
      'gemini/x (rate_limited) → groq/y',
    );
  });
});

describe('ranking and techniques', () => {
  const words = { noReranker: 'pas de reclasseur', on: 'oui', off: 'non' };

  it('says "no reranker" for Hit@5, Recall@5 and MRR of an answer no reranker scored, never a stand-in', () => {
    const r = sampleRecord({ rerank_applied: false, hit_at_5: null, recall_at_5: null, mrr: null });
    for (const key of ['hit_at_5', 'recall_at_5', 'mrr'] as const) {
      expect(formatCell(r, column(key), 'en'), key).toBe('no reranker');
      expect(formatCell(r, column(key), 'fr', words), key).toBe('pas de reclasseur');
    }
    const scored = sampleRecord({ rerank_applied: true, hit_at_5: 1, recall_at_5: 0.25, mrr: 0.5, bm25_score_share_pct: 28.14 });
    expect(formatCell(scored, column('recall_at_5'), 'en')).toBe('0.25');
    expect(formatCell(scored, column('mrr'), 'fr')).toBe('0,5');
    expect(formatCell(scored, column('bm25_score_share_pct'), 'en')).toBe('28.1%');
  });

  it('shows which techniques applied', () => {
    const r = sampleRecord({ history_applied: true, hyde_applied: false, multi_query_applied: true, rerank_applied: false });
    expect(
      (['history_applied', 'hyde_applied', 'multi_query_applied', 'rerank_applied'] as const).map((k) => formatCell(r, column(k), 'fr', words)),
    ).toEqual(['oui', 'non', 'oui', 'non']);
  });
});

describe('chart data', () => {
  const records = [
    sampleRecord({ query_index: 1, retrieval_latency_ms: 40, generation_latency_ms: 1000, total_latency_ms: 1100, bm25_contribution_pct: 100 }),
    sampleRecord({ query_index: 2, retrieval_latency_ms: 60, generation_latency_ms: 0, total_latency_ms: 50, bm25_contribution_pct: 0 }),
  ];

  it('stacks retrieval, generation and the rest of the total per question', () => {
    expect(latencyChart(records)).toEqual({
      labels: ['#1', '#2'],
      series: [
        { id: 'retrieval', data: [40, 60] },
        { id: 'generation', data: [1000, 0] },
        { id: 'other', data: [60, 0] },
      ],
    });
  });

  it('plots BM25’s share per question', () => {
    expect(bm25Chart(records)).toEqual({ labels: ['#1', '#2'], series: [{ id: 'bm25', data: [100, 0] }] });
  });

  it('counts answers per model and the failures that fell back', () => {
    const data = modelChart([
      sampleRecord({ llm_model: 'groq/llama', fallback_chain: ['gemini/flash (rate_limited)', 'groq/llama'] }),
      sampleRecord({ llm_model: 'groq/llama', fallback_chain: ['groq/llama'] }),
      sampleRecord({
        llm_model: '',
        llm_routing_mode: 'extractive',
        fallback_chain: ['gemini/flash (rate_limited)', 'groq/llama (quota)'],
      }),
      sampleRecord({ llm_model: 'gemini/flash', fallback_chain: null }),
    ]);
    expect(data).toEqual({
      labels: ['groq/llama', 'gemini/flash', 'extractive'],
      series: [
        { id: 'answered', data: [2, 1, 1] },
        { id: 'failed', data: [1, 2, 0] },
      ],
    });
  });
});
