import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../test/api/fake.ts';
import { emptyMetrics, resetAdminFake, sampleRecord } from '../../test/api/fake.ts';
import type { MetricsView } from '../api/types.ts';
import { locale } from './locale.svelte.ts';
import { Metrics } from './metrics.svelte.ts';

vi.mock('../api/index.ts', () => import('../../test/api/fake.ts'));

function view(records = [sampleRecord({ query_index: 2 }), sampleRecord({ query_index: 1 })]): MetricsView {
  return {
    records,
    summary: { questions: records.length, total_latency_p50_ms: 1290, total_latency_p95_ms: 2400, citation_valid_pct_mean: 90, relevance_proxy: 'no reranker' },
  };
}

beforeEach(() => {
  resetAdminFake();
  locale.set('en');
});

describe('Metrics', () => {
  it('refreshes records in question order, with the summary', async () => {
    api.metrics.mockResolvedValue(view());
    const m = new Metrics();
    await m.refresh();
    expect(m.records.map((r) => r.query_index)).toEqual([1, 2]);
    expect(m.summary.total_latency_p95_ms).toBe(2400);
    expect(m).toMatchObject({ loaded: true, loading: false, isEmpty: false, error: null });
  });

  it('treats null records as none', async () => {
    api.metrics.mockResolvedValue({ ...emptyMetrics(), records: null });
    const m = new Metrics();
    await m.refresh();
    expect(m.isEmpty).toBe(true);
    expect(m.loaded).toBe(true);
  });

  it('never lets a slow refresh overwrite a newer one', async () => {
    let release: (v: MetricsView) => void = () => {};
    api.metrics
      .mockReturnValueOnce(new Promise((resolve) => (release = resolve)))
      .mockResolvedValueOnce(view([sampleRecord({ query_index: 1 }), sampleRecord({ query_index: 2 })]));
    const m = new Metrics();
    const first = m.refresh();
    await m.refresh();
    release(view([sampleRecord({ query_index: 1 })]));
    await first;
    expect(m.records).toHaveLength(2);
  });

  it('keeps the last records when a refresh fails', async () => {
    api.metrics.mockResolvedValueOnce(view()).mockRejectedValueOnce(new Error('session closed'));
    const m = new Metrics();
    await m.refresh();
    await m.refresh();
    expect(m.error).toBe('session closed');
    expect(m.records).toHaveLength(2);
  });

  it('exports and tells where the file went; a cancelled dialog says nothing', async () => {
    const m = new Metrics();
    api.exportMetrics.mockResolvedValueOnce('/home/ana/vika-metrics.csv').mockResolvedValueOnce('');
    await m.export('csv');
    expect(api.exportMetrics).toHaveBeenCalledWith('csv');
    expect(m.exportedPath).toBe('/home/ana/vika-metrics.csv');

    m.dismissExport();
    await m.export('json');
    expect(m.exportedPath).toBeNull();
    expect(m.exporting).toBeNull();
  });

  it('shows a failed export', async () => {
    const m = new Metrics();
    api.exportMetrics.mockRejectedValueOnce(new Error('disk full'));
    await m.export('json');
    expect(m.exportError).toBe('disk full');
  });
});
