import { describe, expect, it } from 'vitest';
import { bandOf, pipelineOf } from './pipeline.ts';

describe('pipelineOf', () => {
  it('counts the sources by kind and by retriever, and lists every step', () => {
    const sources = [
      { kind: 'body', found_by: 'both' },
      { kind: 'table', found_by: 'bm25' },
      { kind: 'figure', found_by: 'image' },
      { kind: 'references', found_by: 'dense' },
      { kind: 'note', found_by: 'bm25' },
      { kind: 'form', found_by: 'both' },
      { kind: 'body', found_by: 'dense', via_summary: true },
      { kind: 'body', found_by: 'summary', via_summary: true },
    ];
    const p = pipelineOf(sources, { hyde_applied: false, multi_query_applied: true, rerank_applied: true, history_applied: false });
    expect(p.kinds).toEqual([
      { kind: 'text', count: 4 },
      { kind: 'table', count: 1 },
      { kind: 'figure', count: 1 },
      { kind: 'form', count: 1 },
      { kind: 'note', count: 1 },
    ]);
    expect(p.finders).toEqual([
      { finder: 'bm25', count: 4 },
      { finder: 'dense', count: 4 },
      { finder: 'image', count: 1 },
      { finder: 'summary', count: 2 },
    ]);
    expect(p.steps).toEqual([
      { step: 'hyde', applied: false },
      { step: 'multi_query', applied: true },
      { step: 'rerank', applied: true },
      { step: 'history', applied: false },
    ]);
  });

  it('says nothing applied before the metrics arrive', () => {
    const p = pipelineOf([], null);
    expect(p.kinds).toEqual([]);
    expect(p.steps.every((s) => !s.applied)).toBe(true);
  });
});

describe('bandOf', () => {
  it('knows the three bands and nothing else', () => {
    expect(bandOf('high')).toBe('high');
    expect(bandOf('low')).toBe('low');
    expect(bandOf('')).toBeNull();
    expect(bandOf('excellent')).toBeNull();
    expect(bandOf(undefined)).toBeNull();
  });
});
