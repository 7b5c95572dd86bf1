import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../../test/api/fake.ts';
import { resetAdminFake, sampleRecord } from '../../../test/api/fake.ts';
import type { MetricsRecord } from '../../api/types.ts';
import type { BarSpec } from '../../chart.ts';
import { locale } from '../../state/locale.svelte.ts';
import { Metrics } from '../../state/metrics.svelte.ts';
import { Review } from '../../state/review.svelte.ts';
import { Study } from '../../state/study.svelte.ts';
import DashboardPanel from './DashboardPanel.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

// jsdom has no canvas: record what each chart is asked to draw.
const drawn = vi.hoisted(() => ({ specs: [] as BarSpec[] }));
vi.mock('../../chart.ts', () => ({
  barChart: (_canvas: HTMLCanvasElement, spec: BarSpec) => {
    drawn.specs.push(spec);
    return { update: (next: BarSpec) => drawn.specs.push(next), recolor() {}, destroy() {} };
  },
}));

const reviewProps = () => ({ review: new Review(new Study()), onReview: vi.fn(), onStudyAgain: vi.fn() });

function withRecords(records: MetricsRecord[]) {
  api.metrics.mockResolvedValue({
    records,
    summary: { questions: records.length, total_latency_p50_ms: 1290, total_latency_p95_ms: 2450, citation_valid_pct_mean: null, relevance_proxy: 'no reranker' },
  });
}

beforeEach(() => {
  resetAdminFake();
  drawn.specs = [];
  locale.set('en');
});

describe('DashboardPanel', () => {
  it('says "no reranker" instead of a stand-in proxy, explains the proxy, and shows the techniques applied', async () => {
    withRecords([
      sampleRecord({ query_index: 1, rerank_applied: false, hit_at_5: null, recall_at_5: null, mrr: null, hyde_applied: true }),
    ]);
    locale.set('fr');
    render(DashboardPanel, { metrics: new Metrics(), ...reviewProps() });
    const table = await screen.findByRole('table');
    expect(screen.getByText('Pertinence').nextElementSibling?.textContent).toBe('pas de reclasseur');
    expect(screen.getByText(/comptent un passage comme pertinent quand le cross-encodeur/)).toBeTruthy();
    const titles = within(table).getAllByRole('columnheader').map((h) => h.textContent?.trim());
    const cells = within(within(table).getAllByRole('row')[1] as HTMLElement)
      .getAllByRole('cell')
      .map((c) => c.textContent?.trim());
    const cell = (title: string) => cells[titles.indexOf(title) - 1]; // the first column is the row header
    expect([cell('Hit@5'), cell('Rappel@5'), cell('MRR')]).toEqual(['pas de reclasseur', 'pas de reclasseur', 'pas de reclasseur']);
    expect([cell('Historique'), cell('HyDE'), cell('Multi-requêtes'), cell('Reclassement')]).toEqual(['oui', 'oui', 'non', 'non']);
  });

  it('teaches the first step when no question was asked', async () => {
    render(DashboardPanel, { metrics: new Metrics(), ...reviewProps() });
    expect(await screen.findByText('No question asked yet')).toBeTruthy();
    expect(screen.getByText(/ask a question in the chat/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /Export CSV/ })).toHaveProperty('disabled', true);
  });

  it('renders every record, with unknown values as —, and the latency percentiles', async () => {
    withRecords([
      sampleRecord({ query_index: 1, query: 'What is SAT?', time_to_first_token_ms: 310 }),
      sampleRecord({ query_index: 2, query: 'And 3-SAT?', llm_model: '', llm_routing_mode: 'abstained', time_to_first_token_ms: null, mrr: null }),
    ]);
    render(DashboardPanel, { metrics: new Metrics(), ...reviewProps() });

    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    const second = within(rows[2] as HTMLElement).getAllByRole('cell').map((c) => c.textContent?.trim());
    expect(second[0]).toBe('And 3-SAT?');
    expect(second[1]).toBe('—'); // llm_model
    expect(second[6]).toBe('—'); // time_to_first_token_ms
    expect(within(rows[1] as HTMLElement).getByText('310 ms')).toBeTruthy();

    expect(screen.getByText('Median total time (p50)').nextElementSibling?.textContent).toBe('1,290 ms');
    expect(screen.getByText('Slowest 5% (p95)').nextElementSibling?.textContent).toBe('2,450 ms');
    expect(screen.getByText('Verified citations').nextElementSibling?.textContent).toBe('—');
  });

  it('gives the charts the records’ data', async () => {
    withRecords([
      sampleRecord({ query_index: 1, retrieval_latency_ms: 40, generation_latency_ms: 1000, total_latency_ms: 1100, bm25_contribution_pct: 25 }),
      sampleRecord({
        query_index: 2,
        retrieval_latency_ms: 20,
        generation_latency_ms: 900,
        total_latency_ms: 930,
        bm25_contribution_pct: 100,
        fallback_chain: ['gemini/gemini-2.5-flash (rate_limited)', 'groq/llama-3.1-8b-instant'],
      }),
    ]);
    render(DashboardPanel, { metrics: new Metrics(), ...reviewProps() });
    await screen.findByRole('table');

    const latest = (title: string) => drawn.specs.filter((s) => s.yTitle === title).at(-1);
    const latency = latest('milliseconds');
    expect(latency?.stacked).toBe(true);
    expect(latency?.labels).toEqual(['#1', '#2']);
    expect(latency?.series.map((s) => [s.label, s.data])).toEqual([
      ['Search', [40, 20]],
      ['Generation', [1000, 900]],
      ['Other steps', [60, 10]],
    ]);
    expect(latest('percent')?.series[0]?.data).toEqual([25, 100]);
    expect(latest('percent')?.yMax).toBe(100);
    const models = latest('questions');
    expect(models?.labels).toEqual(['groq/llama-3.1-8b-instant', 'gemini/gemini-2.5-flash']);
    expect(models?.series.map((s) => [s.label, s.data])).toEqual([
      ['Answered', [2, 0]],
      ['Failed, fell back', [0, 1]],
    ]);
  });

  it('refreshes when the chat calls refresh()', async () => {
    const metrics = new Metrics();
    render(DashboardPanel, { metrics, ...reviewProps() });
    await screen.findByText('No question asked yet');
    withRecords([sampleRecord({ query: 'Fresh question' })]);
    await metrics.refresh();
    expect(await screen.findByText('Fresh question')).toBeTruthy();
  });

  it('exports and shows the saved path', async () => {
    withRecords([sampleRecord()]);
    api.exportMetrics.mockResolvedValue('/home/ana/metrics.json');
    render(DashboardPanel, { metrics: new Metrics(), ...reviewProps() });
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: /Export JSON/ }));
    expect(api.exportMetrics).toHaveBeenCalledWith('json');
    expect(await screen.findByText('Saved to /home/ana/metrics.json')).toBeTruthy();
  });

  it('shows a loading failure with a way to retry', async () => {
    api.metrics.mockRejectedValueOnce(new Error('session closed'));
    render(DashboardPanel, { metrics: new Metrics(), ...reviewProps() });
    expect((await screen.findByRole('alert')).textContent).toContain('session closed');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(api.metrics).toHaveBeenCalledTimes(2);
  });

  it('shows the flashcards due today and the weak sections, each studied again from here', async () => {
    api.reviewProgress.mockResolvedValue(api.sampleProgress(true));
    const props = reviewProps();
    render(DashboardPanel, { metrics: new Metrics(), ...props });
    expect(await screen.findByText('1 card due today')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Review them' }));
    expect(props.onReview).toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Study again' }));
    expect(props.onStudyAgain).toHaveBeenCalledWith(expect.objectContaining({ doc_id: 'a3f1c9', section: 'Backtracking' }));
  });
});
