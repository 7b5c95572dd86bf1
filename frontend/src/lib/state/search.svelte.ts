// The question box and its results.

import * as api from '../api/index.ts';
import type { Hit } from '../api/types.ts';
import { handleError } from '../errors.ts';
import { t } from './locale.svelte.ts';

/** How many passages one search returns. */
export const DEFAULT_K = 8;

export type SearchStatus = 'idle' | 'searching' | 'done' | 'error';

export class Search {
  question = $state('');
  status = $state<SearchStatus>('idle');
  /** Results of the last search that completed. */
  hits = $state.raw<Hit[]>([]);
  /** The question those hits answer (the box may have changed since). */
  asked = $state('');
  error = $state<string | null>(null);
  /** Files still being added when the last search ran: they were not searched. */
  pendingAtAsk = $state.raw<string[]>([]);

  /** Names of the files still being added (none by default). */
  readonly #pending: () => string[];

  constructor(pending: () => string[] = () => []) {
    this.#pending = pending;
  }

  /** Increases with each search, so a slow answer never overwrites a newer one. */
  #generation = 0;

  get canSearch(): boolean {
    return this.question.trim() !== '';
  }

  async run(k: number = DEFAULT_K): Promise<void> {
    const question = this.question.trim();
    if (question === '') return;
    const generation = ++this.#generation;
    this.status = 'searching';
    this.error = null;
    const pending = this.#pending();
    try {
      const hits = await api.search(question, k);
      if (generation !== this.#generation) return;
      this.hits = hits;
      this.asked = question;
      this.pendingAtAsk = pending;
      this.status = 'done';
    } catch (err) {
      if (generation !== this.#generation) return;
      const message = handleError(err, t('error.generic'));
      this.error = message;
      this.status = message === null ? 'idle' : 'error';
    }
  }

  /** Forgets results, e.g. when the last document is removed. */
  reset(): void {
    this.#generation++;
    this.hits = [];
    this.asked = '';
    this.pendingAtAsk = [];
    this.error = null;
    this.status = 'idle';
  }
}
