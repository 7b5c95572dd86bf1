// The session's metrics: one record per answered question and the summary
// (p50/p95 of the total latency), behind the dashboard.
//
// App.svelte builds the window's one instance and passes it down as a prop (like
// every screen's state); the chat calls `metrics.refresh()` whenever an answer is
// done (or failed): the dashboard shows the new record the next time it is drawn,
// or at once if it is open.

import * as api from '../api/index.ts';
import type { MetricsRecord, MetricsSummary } from '../api/types.ts';
import { handleError } from '../errors.ts';
import { Export } from './export.svelte.ts';
import { t } from './locale.svelte.ts';

export type ExportFormat = 'csv' | 'json';

const EMPTY_SUMMARY: MetricsSummary = {
  questions: 0,
  total_latency_p50_ms: 0,
  total_latency_p95_ms: 0,
  citation_valid_pct_mean: null,
  relevance_proxy: 'no reranker',
};

export class Metrics {
  records = $state.raw<MetricsRecord[]>([]);
  summary = $state.raw<MetricsSummary>(EMPTY_SUMMARY);
  /** True once a refresh succeeded. */
  loaded = $state(false);
  loading = $state(false);
  error = $state<string | null>(null);

  readonly #export = new Export<ExportFormat>();
  /** The format being exported; null when none is. */
  get exporting(): ExportFormat | null {
    return this.#export.running;
  }
  /** Where the last export was written. */
  get exportedPath(): string | null {
    return this.#export.path;
  }
  exportError = $state<string | null>(null);

  readonly isEmpty = $derived(this.records.length === 0);

  /** Orders refreshes: a slow answer never overwrites a newer one. */
  #generation = 0;

  /** Reloads records and summary from the backend. */
  async refresh(): Promise<void> {
    const generation = ++this.#generation;
    this.loading = true;
    try {
      const view = await api.metrics();
      if (generation !== this.#generation) return;
      this.records = [...(view.records ?? [])].sort((a, b) => a.query_index - b.query_index);
      this.summary = view.summary ?? EMPTY_SUMMARY;
      this.loaded = true;
      this.error = null;
    } catch (err) {
      if (generation !== this.#generation) return;
      this.error = handleError(err, t('error.generic'));
    } finally {
      if (generation === this.#generation) this.loading = false;
    }
  }

  /** Saves the records through the native dialog; a cancelled dialog changes nothing. */
  async export(format: ExportFormat): Promise<void> {
    if (this.exporting) return;
    this.exportError = null;
    await this.#export.run(format, () => api.exportMetrics(format), (err) => (this.exportError = handleError(err, t('error.generic'))));
  }

  dismissExport(): void {
    this.#export.path = null;
    this.exportError = null;
  }
}
