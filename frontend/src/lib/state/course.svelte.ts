// Course files and folders, the library's other ways in: "Save course…"
// (with the conversation when ticked), "Open course…", "Add folder…" and
// its one progress line for the batch.
//
// App.svelte builds the window's one instance over the library:
//   const course = new CourseFiles(library);
//   course.apply(progress)  // from the library's progress events (batch counts)

import * as api from '../api/index.ts';
import type { IngestProgress } from '../api/types.ts';
import { isTerminalStage } from '../api/types.ts';
import { handleError } from '../errors.ts';
import { baseName } from '../path.ts';
import type { Library } from './library.svelte.ts';
import { t } from './locale.svelte.ts';

/** A folder being added. */
export interface Batch {
  folder: string;
  ids: string[];
  done: number;
  failed: number;
  skipped: string[];
  skippedCount: number;
  /** PDFs found beyond the cap, left out. */
  leftOut: number;
  max: number;
}

export class CourseFiles {
  withConversation = $state(false);
  busy = $state(false);
  /** The last course saved or opened (its path), for a confirmation line. */
  saved = $state('');
  opened = $state('');
  error = $state<string | null>(null);
  batch = $state<Batch | null>(null);

  readonly #library: Library;

  constructor(library: Library) {
    this.#library = library;
    library.onProgress = (p) => this.apply(p);
  }

  /** Counts a batch job's end; true when the event belongs to the batch (no row of its own unless it failed). */
  apply(p: IngestProgress): boolean {
    const b = this.batch;
    if (!b || !b.ids.includes(p.job_id)) return false;
    if (isTerminalStage(p.stage)) {
      if (p.stage === 'failed') b.failed++;
      else b.done++;
    }
    return p.stage !== 'failed';
  }

  get batchFinished(): boolean {
    const b = this.batch;
    return b !== null && b.done + b.failed >= b.ids.length;
  }

  async addFolder(): Promise<void> {
    await this.#run(async () => {
      const dir = await api.pickFolder();
      if (!dir) return;
      const r = await api.addFolder(dir);
      this.batch = {
        folder: baseName(dir),
        ids: r.jobs ?? [],
        done: 0,
        failed: 0,
        skipped: r.skipped ?? [],
        skippedCount: r.skipped_count,
        leftOut: r.found - (r.pdfs ?? []).length,
        max: r.max,
      };
      // Events that came before the batch was known: counted now, rows dropped.
      for (const id of this.batch.ids) {
        if (this.#library.hasFinished(id)) this.batch.done++;
        this.#library.dismiss(id);
      }
    });
  }

  dismissBatch(): void {
    this.batch = null;
  }

  async save(): Promise<void> {
    await this.#run(async () => {
      const path = await api.saveCourse(this.withConversation);
      if (path) this.saved = baseName(path);
    });
  }

  async open(): Promise<void> {
    await this.#run(async () => {
      const path = await api.pickCourse();
      if (!path) return;
      await api.openCourse(path);
      this.opened = baseName(path);
      await this.#library.load();
    });
  }

  async #run(fn: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      await fn();
    } catch (err) {
      this.error = handleError(err, t('error.generic'));
    } finally {
      this.busy = false;
    }
  }
}
