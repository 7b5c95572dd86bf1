// A stand-in for the api module in tests, used as
//   vi.mock('…/api/index.ts', () => import('…/api/fake.ts'))
// Every function is a vi.fn with a harmless default (an empty backend); tests
// override what they need and drive events with emitProgress / dropPaths.
// The app never imports this file.

import { vi } from 'vitest';
import type * as real from './index.ts';
import type { Document, Hit, IngestProgress } from './types.ts';

type Api = typeof real;

const progressHandlers = new Set<(progress: IngestProgress) => void>();
const dropHandlers = new Set<(paths: string[]) => void>();
let nextJob = 0;

export const addFiles = vi.fn<Api['addFiles']>(async (paths) => paths.map(() => `job-${++nextJob}`));
export const addFile = vi.fn<Api['addFile']>(async () => `job-${++nextJob}`);
export const pickFiles = vi.fn<Api['pickFiles']>(async () => []);
export const documents = vi.fn<Api['documents']>(async () => []);
export const removeDocument = vi.fn<Api['removeDocument']>(async () => {});
export const search = vi.fn<Api['search']>(async () => []);
export const cancel = vi.fn<Api['cancel']>(async () => true);
export const nativeFileDrop = vi.fn<Api['nativeFileDrop']>(() => false);
export const nativeWindow = vi.fn<Api['nativeWindow']>(() => false);

export const onIngestProgress = vi.fn<Api['onIngestProgress']>((fn) => {
  progressHandlers.add(fn);
  return () => progressHandlers.delete(fn);
});

export const onNativeFileDrop = vi.fn<Api['onNativeFileDrop']>((fn) => {
  dropHandlers.add(fn);
  return () => dropHandlers.delete(fn);
});

export class BackendUnavailableError extends Error {}

/** Delivers an "ingest:progress" event to every subscriber. */
export function emitProgress(progress: IngestProgress): void {
  for (const fn of progressHandlers) fn(progress);
}

/** Simulates files dropped on the native window. */
export function dropPaths(paths: string[]): void {
  for (const fn of dropHandlers) fn(paths);
}

/** Forgets subscribers and numbering; call in beforeEach. */
export function resetFakeApi(): void {
  progressHandlers.clear();
  dropHandlers.clear();
  nextJob = 0;
}

// Sample backend values.
export function sampleDocument(overrides: Partial<Document> = {}): Document {
  return {
    doc_id: 'a3f1c9',
    file: 'lecture_sat.pdf',
    label: 'lecture_sat.pdf',
    bytes: 2_400_000,
    pages: 42,
    chunks: 180,
    page_types: { text: 40, scanned: 2 },
    ocr_pages: 2,
    lang: 'en',
    lang_mixed: false,
    ...overrides,
  };
}

export function sampleHit(overrides: Partial<Hit> = {}): Hit {
  return {
    file: 'lecture_sat.pdf',
    page: 42,
    chunk_id: 'a3f1c9:42:0',
    score: 0.8123,
    text: 'A formula is satisfiable if some assignment makes it true.',
    label: '[lecture_sat.pdf p.42]',
    found_by: 'both',
    doc_id: 'a3f1c9',
    page_type: 'text',
    ...overrides,
  };
}

export function progress(overrides: Partial<IngestProgress> & Pick<IngestProgress, 'job_id' | 'stage'>): IngestProgress {
  return { file: 'lecture_sat.pdf', done: 0, total: 0, ...overrides };
}
