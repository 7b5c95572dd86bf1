// Course files and folders, the library's other ways in: "Save course…"
// (with the conversation when ticked), "Open course…" or a recent course
// (listed while the library is empty), "Add folder…" or a folder dropped
// on the window, and one progress line for each folder.
//
// App.svelte builds the window's one instance over the library:
//   const course = new CourseFiles(library);
//   course.apply(progress)  // from the library's progress events (batch counts)

import * as api from '../api/index.ts';
import type { FolderBatch, IngestProgress, RecentCourse } from '../api/types.ts';
import { isTerminalStage } from '../api/types.ts';
import { whileBusy } from './busy.ts';
import { baseName } from '../path.ts';
import type { Library } from './library.svelte.ts';

/** A folder being added. */
export interface Batch {
  folder: string;
  ids: string[];
  done: number;
  failed: number;
  skipped: string[];
  skippedCount: number;
  /** The folder holds more PDFs than the cap (max): the rest were left out. */
  capped: boolean;
  max: number;
  /** The walk stopped after maxEntries files and folders. */
  truncated: boolean;
  maxEntries: number;
  /** Folders not opened, more than maxDepth deep. */
  deep: number;
  maxDepth: number;
}

export class CourseFiles {
  withConversation = $state(false);
  busy = $state(false);
  /** The last course saved or opened (its path), for a confirmation line. */
  saved = $state('');
  opened = $state('');
  error = $state<string | null>(null);
  /** The folders being added (or added, until dismissed), oldest first. */
  batches = $state<Batch[]>([]);
  /** The course files saved or opened before, most recent first. */
  recent = $state<RecentCourse[]>([]);

  readonly #library: Library;
  /** The courses being opened from the Open button: job id → file name. */
  readonly #courses = new Map<string, string>();

  constructor(library: Library) {
    this.#library = library;
    library.onProgress = (p) => this.apply(p);
    library.onFolder = (r) => this.#startBatch(r);
  }

  /** Counts a batch job's end; true when the event belongs to a batch (no row of its own unless it failed). */
  apply(p: IngestProgress): boolean {
    const name = this.#courses.get(p.job_id);
    if (name !== undefined) {
      // The course's own row is the library's; its end says it opened.
      if (isTerminalStage(p.stage)) this.#courses.delete(p.job_id);
      if (p.stage === 'done') {
        this.opened = name;
        void this.loadRecent();
      }
      return false;
    }
    const b = this.batches.find((batch) => batch.ids.includes(p.job_id));
    if (!b) return false;
    if (isTerminalStage(p.stage)) {
      if (p.stage === 'failed') b.failed++;
      else b.done++;
    }
    return p.stage !== 'failed';
  }

  /** Whether every PDF of the batch has ended (added or failed). */
  finished(b: Batch): boolean {
    return b.done + b.failed >= b.ids.length;
  }

  async addFolder(): Promise<void> {
    await this.#run(async () => {
      const dir = await api.pickFolder();
      if (!dir) return;
      this.#startBatch(await api.addFolder(dir));
    });
  }

  dismissBatch(b: Batch): void {
    this.batches = this.batches.filter((batch) => batch !== b);
  }

  /** Follows a folder the backend started adding (picked or dropped). */
  #startBatch(r: FolderBatch): void {
    const batch: Batch = {
      folder: baseName(r.dir),
      ids: r.jobs ?? [],
      done: 0,
      failed: 0,
      skipped: r.skipped ?? [],
      skippedCount: r.skipped_count,
      capped: r.capped,
      max: r.max,
      truncated: r.truncated,
      maxEntries: r.max_entries,
      deep: r.deep,
      maxDepth: r.max_depth,
    };
    // Events that came before the batch was known: counted now, rows
    // dropped, except a failure's, which keeps its row and its reason.
    for (const id of batch.ids) {
      const failed = this.#library.jobs.some((job) => job.id === id && job.stage === 'failed');
      if (failed) batch.failed++;
      else if (this.#library.hasFinished(id)) batch.done++;
      if (!failed) this.#library.dismiss(id);
    }
    this.batches.push(batch);
  }

  /** Saves the session as a course file (the native dialog first); true once saved. */
  async save(): Promise<boolean> {
    let path = '';
    await this.#run(async () => {
      path = await api.saveCourse(this.withConversation);
      if (path) {
        this.saved = baseName(path);
        void this.loadRecent();
      }
    });
    return path !== '' && this.error === null;
  }

  async open(): Promise<void> {
    await this.#run(async () => {
      const path = await api.pickCourse();
      if (path) await this.#open(path);
    });
  }

  /** Opens a recent course file. */
  async openRecent(course: RecentCourse): Promise<void> {
    if (course.missing) return;
    await this.#run(() => this.#open(course.path));
  }

  /** Reads the recent course files (none when they cannot be read). */
  async loadRecent(): Promise<void> {
    try {
      this.recent = await api.recentCourses();
    } catch {
      this.recent = [];
    }
  }

  async #open(path: string): Promise<void> {
    // Opened in the background: its row in the library shows its
    // progress and can cancel it; a refusal ends that row with its reason.
    this.opened = '';
    const name = baseName(path);
    const id = await api.openCourse(path);
    if (!id) return;
    const end = this.#library.endedAs(id); // its last event may come before the call returns
    if (end === 'done') {
      this.opened = name;
      void this.loadRecent();
    } else if (end === undefined) this.#courses.set(id, name);
    this.#library.follow(id, name);
  }

  async #run(fn: () => Promise<void>): Promise<void> {
    await whileBusy(this, fn);
  }
}
