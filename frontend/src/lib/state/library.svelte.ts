// The library: documents in the session and the files being added. It applies
// "ingest:progress" events to per-file jobs, and turns every way of adding
// files (native drop, native dialog, browser drop or file input) into calls to
// the backend.

import type { BridgeMessage } from '../i18n/index.ts';
import * as api from '../api/index.ts';
import { isTerminalStage, type Document, type FolderBatch, type IngestProgress, type IngestStage } from '../api/types.ts';
import { handleError } from '../errors.ts';
import { baseName } from '../path.ts';
import { locale, t } from './locale.svelte.ts';

/** A backend stage, or "reading" while the page reads a file before handing it over. */
export type JobStage = IngestStage | 'reading';

export interface Job {
  /** Backend job id; a local id ("local:N") until the backend has answered. */
  id: string;
  file: string;
  stage: JobStage;
  done: number;
  total: number;
  /** Readable reason, set when stage is "failed" (a local failure, or Go's English text). */
  error?: string;
  /** Go's reason as a code, translated when shown (set when stage is "failed"). */
  problem?: BridgeMessage;
  /** True once the user asked to cancel, until the backend confirms. */
  cancelling: boolean;
  /** True when the backend knows no job by this id (cannot be cancelled). */
  local: boolean;
}

export class Library {
  documents = $state<Document[]>([]);
  jobs = $state<Job[]>([]);
  /** Library-wide error (loading, removing, opening the dialog), dismissable. */
  error = $state<string | null>(null);

  /** Jobs still working (not failed). */
  readonly running = $derived(this.jobs.filter((job) => job.stage !== 'failed'));
  /** The document added last in this window, whose suggested questions show under it ("" for none). */
  added = $state('');
  /** The model's suggested questions for the document added last, once they arrived (replacing the offline ones). */
  phrased = $state<{ docID: string; questions: string[] } | null>(null);
  readonly isEmpty = $derived(this.documents.length === 0 && this.jobs.length === 0);

  /** Sees every progress event first; true keeps the event off the job rows (a folder batch counts it). */
  onProgress: ((progress: IngestProgress) => boolean) | null = null;
  /** Takes each folder a drop started (its one progress line). */
  onFolder: ((batch: FolderBatch) => void) | null = null;

  /** Backend job ids whose document is listed while its vectors are computed. */
  #searchable = new Set<string>();
  /** Backend job ids that reached a terminal stage, with that stage; later events for them are stale. */
  readonly #finished = new Map<string, string>();
  #nextLocal = 0;

  /** Subscribes to the backend's events; returns the function that unsubscribes. */
  start(): () => void {
    const offProgress = api.onIngestProgress((progress) => this.apply(progress));
    const offDrop = api.onNativeFileDrop((paths) => void this.addDropped(paths));
    return () => {
      offProgress();
      offDrop();
    };
  }

  async load(): Promise<void> {
    try {
      this.documents = await api.documents();
    } catch (err) {
      this.#report(err);
    }
    this.#watchEmbedding();
  }

  #embeddingTimer: ReturnType<typeof setTimeout> | null = null;

  /** While a document's vectors are still being computed (Document.embedding), lists the documents again
   * every EMBEDDING_POLL_MS, so that its counts replace "embedding…" when they are final. */
  #watchEmbedding(): void {
    if (this.#embeddingTimer !== null || !this.documents.some((d) => d.embedding)) return;
    this.#embeddingTimer = setTimeout(() => {
      this.#embeddingTimer = null;
      void this.load();
    }, EMBEDDING_POLL_MS);
  }

  /** Applies one "ingest:progress" event. */
  apply(progress: IngestProgress): void {
    const { job_id: id, stage } = progress;
    if (this.#finished.has(id)) return;
    if (isTerminalStage(stage)) this.#finished.set(id, stage);
    // A describing job that fails or is cancelled keeps what it wrote:
    // the document's passage count has changed, reload it.
    const describing = this.jobs.find((j) => j.id === id)?.stage === 'describing';
    if (describing && (stage === 'cancelled' || stage === 'failed')) void this.load();
    if (this.onProgress?.(progress)) {
      // A folder's PDF is listed, as any other, once searchable.
      if ((stage === 'done' || stage === 'searchable') && progress.doc) this.#putDocument(progress.doc);
      return;
    }

    // From "searchable" on the document is listed (found by its words
    // while its pages are read and its vectors computed); the job's later
    // steps stay quiet, but for a failure: the document leaves the list
    // and the job's row says why.
    if (this.#searchable.has(id)) {
      if (isTerminalStage(stage)) this.#searchable.delete(id);
      if (stage === 'done' && progress.doc) this.#putDocument(progress.doc);
      else if (stage === 'failed' || stage === 'cancelled') void this.load();
      if (stage !== 'failed') return;
    }
    switch (stage) {
      case 'searchable':
        this.#searchable.add(id);
        this.#dropJob(id);
        if (progress.doc) this.#putDocument(progress.doc);
        else void this.load();
        return;
      case 'done':
        this.#dropJob(id);
        if (progress.doc) this.#putDocument(progress.doc);
        else void this.load();
        return;
      case 'cancelled':
        this.#dropJob(id);
        return;
      default:
        this.#putJob({
          id,
          file: progress.file,
          stage,
          done: progress.done,
          total: progress.total,
          error: stage === 'failed' ? progress.error?.trim() || t('error.generic') : undefined,
          problem: stage === 'failed' ? progress.problem : undefined,
        });
    }
  }

  /** Adds files by absolute path (native drop, native dialog). */
  async addPaths(paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    try {
      const ids = await api.addFiles(paths);
      ids.forEach((id, i) => this.#track(id, baseName(paths[i] ?? '')));
    } catch (err) {
      const message = handleError(err, t('error.generic'));
      if (message !== null) {
        for (const path of paths) this.#failLocal(this.#newLocal(baseName(path)), message);
      }
    }
  }

  /** Adds what was dropped on the native window: files, and folders (a batch each, onFolder). */
  async addDropped(paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    try {
      const dropped = await api.addDropped(paths);
      const files = dropped.files ?? [];
      (dropped.jobs ?? []).forEach((id, i) => this.#track(id, baseName(files[i] ?? '')));
      for (const batch of dropped.folders ?? []) this.onFolder?.(batch);
    } catch (err) {
      const message = handleError(err, t('error.generic'));
      if (message !== null) {
        for (const path of paths) this.#failLocal(this.#newLocal(baseName(path)), message);
      }
    }
  }

  /** Adds files the page holds (browser drop, file input), one at a time. */
  async addFiles(files: File[]): Promise<void> {
    // Each file is read whole into memory and encoded: never several at once.
    for (const file of files) {
      const local = this.#newLocal(file.name);
      try {
        this.#adopt(local, await api.addFile(file));
      } catch (err) {
        const message = handleError(err, t('error.generic'));
        if (message === null) this.#dropJob(local);
        else this.#failLocal(local, message);
      }
    }
  }

  /**
   * Files dropped on the page. Ignored when the native window reports the
   * same drop as paths (onNativeFileDrop), or each file would be added twice.
   */
  dropFiles(files: File[]): void {
    if (api.nativeFileDrop()) return;
    void this.addFiles(files);
  }

  /** Opens the native dialog if there is one; false otherwise (use a file input). */
  pickNative(): boolean {
    if (!api.nativeWindow()) return false;
    void this.pick();
    return true;
  }

  /** Opens the native dialog and adds what the user picked. */
  async pick(): Promise<void> {
    try {
      await this.addPaths(await api.pickFiles());
    } catch (err) {
      this.#report(err);
    }
  }

  async cancel(id: string): Promise<void> {
    const job = this.jobs.find((j) => j.id === id);
    if (!job || job.local || job.stage === 'failed') return;
    job.cancelling = true;
    try {
      const cancelled = await api.cancel(id);
      if (!cancelled) {
        // Already over: its last event was missed. Show where it ended up.
        this.#finished.set(id, 'done');
        this.#dropJob(id);
        await this.load();
      }
    } catch (err) {
      job.cancelling = false;
      this.#report(err);
    }
  }

  async remove(docID: string): Promise<void> {
    try {
      await api.removeDocument(docID);
      this.documents = this.documents.filter((doc) => doc.doc_id !== docID);
      if (this.added === docID) this.added = '';
    } catch (err) {
      this.#report(err);
    }
  }

  /** Shows the row of a job the backend started (a course being opened) until its events take over. */
  follow(id: string, file: string): void {
    this.#track(id, file);
  }

  /** Whether a backend job already reached its end (its last event came). */
  hasFinished(id: string): boolean {
    return this.#finished.has(id);
  }

  /** The stage a backend job ended at ('done', 'failed', 'cancelled'); undefined while it runs. */
  endedAs(id: string): string | undefined {
    return this.#finished.get(id);
  }

  /** Hides a failed file's row. */
  dismiss(id: string): void {
    this.#dropJob(id);
  }

  /** The model's suggested questions for docID; null until they arrive (the offline ones show meanwhile). */
  phrasedFor(docID: string): string[] | null {
    return this.phrased?.docID === docID ? this.phrased.questions : null;
  }

  /** Asks the model for the new document's questions; without a model, or when it fails, the offline ones stay (no error shown). */
  async #phrase(docID: string): Promise<void> {
    try {
      const questions = await api.suggestQuestions(docID, locale.lang);
      if (this.added === docID && questions.length > 0) this.phrased = { docID, questions };
    } catch {
      // no model configured (StudyNeedsModel) or the request failed: keep the offline questions
    }
  }

  /** Hides the suggested questions of the document added last. */
  dismissAdded(): void {
    this.added = '';
  }

  dismissError(): void {
    this.error = null;
  }

  #report(err: unknown): void {
    const message = handleError(err, t('error.generic'));
    if (message !== null) this.error = message;
  }

  #track(id: string, file: string): void {
    if (this.#finished.has(id) || this.jobs.some((job) => job.id === id)) return;
    this.jobs.push({ id, file, stage: 'queued', done: 0, total: 0, cancelling: false, local: false });
  }

  /** Gives a local row its backend id, unless the backend's events already made one. */
  #adopt(local: string, id: string): void {
    const job = this.jobs.find((j) => j.id === local);
    if (!job || this.#finished.has(id) || this.jobs.some((j) => j.id === id)) {
      this.#dropJob(local);
      return;
    }
    Object.assign(job, { id, stage: 'queued', local: false });
  }

  #newLocal(file: string): string {
    const id = `local:${++this.#nextLocal}`;
    this.jobs.push({ id, file, stage: 'reading', done: 0, total: 0, cancelling: false, local: true });
    return id;
  }

  #failLocal(id: string, message: string): void {
    const job = this.jobs.find((j) => j.id === id);
    if (job) Object.assign(job, { stage: 'failed', error: message });
  }

  #putJob(update: Omit<Job, 'cancelling' | 'local'>): void {
    const job = this.jobs.find((j) => j.id === update.id);
    if (job) Object.assign(job, update);
    else this.jobs.push({ ...update, cancelling: false, local: false });
  }

  #dropJob(id: string): void {
    this.jobs = this.jobs.filter((job) => job.id !== id);
  }

  #putDocument(doc: Document): void {
    const others = this.documents.filter((d) => d.doc_id !== doc.doc_id);
    if (others.length === this.documents.length) {
      this.added = doc.doc_id; // new, not a describing job's update
      void this.#phrase(doc.doc_id);
    }
    this.documents = [...others, doc];
    this.#watchEmbedding();
  }
}

/** How often the documents are listed again while one is being embedded. */
export const EMBEDDING_POLL_MS = 2000;
