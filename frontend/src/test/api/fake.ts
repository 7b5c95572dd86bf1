// A stand-in for the api module in tests, used as
//   vi.mock('…/lib/api/index.ts', () => import('…/test/api/fake.ts'))
// Every function is a vi.fn with a harmless default (an empty backend); tests
// override what they need and drive events with emitProgress / dropPaths.
// The app never imports this file.

import { vi } from 'vitest';
import type * as real from '../../lib/api/index.ts';
import { sampleHit, sampleRecord } from './admin.fake.ts';
import { resetNotesFake } from './notes.fake.ts';
import { resetStudyFake } from './study.fake.ts';
import type { Answer, AnswerEvent, Citation, Document, IngestProgress, Region, Source } from '../../lib/api/types.ts';

type Api = typeof real;

const progressHandlers = new Set<(progress: IngestProgress) => void>();
const dropHandlers = new Set<(paths: string[]) => void>();
const answerHandlers = new Map<string, Set<(event: AnswerEvent) => void>>();
let nextJob = 0;
let nextAsk = 0;

export const addFiles = vi.fn<Api['addFiles']>(async (paths) => paths.map(() => `job-${++nextJob}`));
export const addDropped = vi.fn<Api['addDropped']>(async (paths) => ({
  files: paths,
  jobs: paths.map(() => `job-${++nextJob}`),
  folders: [],
}));
export const addFile = vi.fn<Api['addFile']>(async () => `job-${++nextJob}`);
export const pickFiles = vi.fn<Api['pickFiles']>(async () => []);
export const documents = vi.fn<Api['documents']>(async () => []);
export const removeDocument = vi.fn<Api['removeDocument']>(async () => {});
/** Go's RechunkAll over two documents: its progress events, then their count. */
export const rechunkAll = vi.fn<Api['rechunkAll']>(async (progress) => {
  for (let done = 0; done <= 2; done++) progress(done, 2);
  return 2;
});
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

export const newAskID = vi.fn<Api['newAskID']>(() => `ask-${++nextAsk}`);
export const ask = vi.fn<Api['ask']>(async (id: string) => id);
export const cancelAsk = vi.fn<Api['cancelAsk']>(async () => true);
export const conversation = vi.fn<Api['conversation']>(async () => []);
export const clearConversation = vi.fn<Api['clearConversation']>(async () => {});
export const exportConversation = vi.fn<Api['exportConversation']>(async () => '');
export const openExternal = vi.fn<Api['openExternal']>(() => true);
export const documentURL = vi.fn<Api['documentURL']>((docID) => `/docs/${docID}`);
export const reportError = vi.fn<Api['reportError']>(() => {});
export const regions = vi.fn<Api['regions']>(async () => []);
export const sourceRegion = vi.fn<Api['sourceRegion']>(async () => null);
export const cacheInfo = vi.fn<Api['cacheInfo']>(async () => ({ on: false, dir: '', documents: 0, bytes: 0, file_bytes: 0, max_bytes: 0 }));
export const forgetCached = vi.fn<Api['forgetCached']>(async () => {});
export const clearCache = vi.fn<Api['clearCache']>(async () => {});
export const saveCourse = vi.fn<Api['saveCourse']>(async () => '');
export const pickCourse = vi.fn<Api['pickCourse']>(async () => '');
export const openCourse = vi.fn<Api['openCourse']>(async () => 'job-course');
export const recentCourses = vi.fn<Api['recentCourses']>(async () => []);
/** The listeners of onQuitRequested; requestQuit() calls them (the window's close button). */
const quitHandlers = new Set<() => void>();
export const onQuitRequested = vi.fn<Api['onQuitRequested']>((fn) => {
  quitHandlers.add(fn);
  return () => quitHandlers.delete(fn);
});
export const quit = vi.fn<Api['quit']>(async () => {});
export const closeWindow = vi.fn<Api['closeWindow']>(() => {});
/** Emits the window's close request with unsaved work. */
export function requestQuit(): void {
  for (const fn of quitHandlers) fn();
}
export const pickFolder = vi.fn<Api['pickFolder']>(async () => '');
export const addFolder = vi.fn<Api['addFolder']>(async (dir) => ({ dir, pdfs: [], found: 0, skipped: [], skipped_count: 0, jobs: [], capped: false, max: 300, truncated: false, max_entries: 50000, deep: 0, max_depth: 16 }));
export const onCacheNotice = vi.fn<Api['onCacheNotice']>(() => () => {});
/** The listeners of onConversationRestored; restoreConversation(n) calls them. */
const restoredHandlers = new Set<(turns: number) => void>();
export const onConversationRestored = vi.fn<Api['onConversationRestored']>((fn) => {
  restoredHandlers.add(fn);
  return () => restoredHandlers.delete(fn);
});
/** Emits the event of n turns restored from a course file. */
export function restoreConversation(n: number): void {
  for (const fn of restoredHandlers) fn(n);
}

export const onAnswer = vi.fn<Api['onAnswer']>((id, fn) => {
  const set = answerHandlers.get(id) ?? new Set();
  set.add(fn);
  answerHandlers.set(id, set);
  return () => set.delete(fn);
});

export { BackendUnavailableError, BridgeError } from '../../lib/api/call.ts';
export * from './study.fake.ts';
export * from './notes.fake.ts';

/** Delivers an "answer:<id>" event to its subscribers. */
export function emitAnswer(id: string, event: AnswerEvent): void {
  for (const fn of answerHandlers.get(id) ?? []) fn(event);
}

/** How many handlers listen to one answer's events. */
export function answerListeners(id: string): number {
  return answerHandlers.get(id)?.size ?? 0;
}

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
  answerHandlers.clear();
  restoredHandlers.clear();
  quitHandlers.clear();
  resetStudyFake();
  resetNotesFake();
  nextJob = 0;
  nextAsk = 0;
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
    meta: {},
    ...overrides,
  };
}

export function progress(overrides: Partial<IngestProgress> & Pick<IngestProgress, 'job_id' | 'stage'>): IngestProgress {
  return { file: 'lecture_sat.pdf', done: 0, total: 0, ...overrides };
}

export * from './admin.fake.ts';

export function sampleSource(overrides: Partial<Source> = {}): Source {
  return { ...sampleHit(), index: 1, rerank_score: null, ...overrides };
}

export function sampleCitation(overrides: Partial<Citation> = {}): Citation {
  return {
    label: '[lecture_sat.pdf p.42]',
    raw: '[lecture_sat.pdf p.42]',
    file: 'lecture_sat.pdf',
    doc_id: 'a3f1c9',
    page: 42,
    source_index: 1,
    verified: true,
    reason: '',
    overlap: 0.8,
    claim: 'A formula is satisfiable if some assignment makes it true.',
    start: 0,
    end: 0,
    ...overrides,
  };
}

/** An answer whose text cites sampleSource(); citation offsets are computed from the text. */
export function sampleAnswer(overrides: Partial<Answer> = {}): Answer {
  const text = overrides.answer ?? 'A formula is satisfiable if some assignment makes it true [lecture_sat.pdf p.42].';
  const start = text.indexOf('[lecture_sat.pdf p.42]');
  return {
    id: 'a1',
    question: 'What is SAT?',
    standalone_question: '',
    answer: text,
    kind: 'llm',
    citations: start < 0 ? [] : [sampleCitation({ start, end: start + 22 })],
    sources: [sampleSource()],
    model_used: 'gemini/gemini-2.5-flash',
    model_name: 'Gemini 2.5 Flash',
    footer: 'Model used: Gemini 2.5 Flash (gemini)',
    fallback_chain: ['gemini/gemini-2.5-flash'],
    notices: [],
    partial: false,
    cancelled: false,
    metrics: sampleRecord({ llm_model: 'gemini/gemini-2.5-flash' }),
    ...overrides,
  };
}

/** A figure of page 3 with its crop (main.RegionView). */
export function sampleRegion(overrides: Partial<Region> = {}): Region {
  return {
    kind: 'figure',
    page: 3,
    bbox: [72, 90, 520, 400],
    caption: 'Figure 2: Residual learning: a building block.',
    text: 'weight layer relu',
    description: '',
    image: '/crops/d1/3/0',
    ...overrides,
  };
}
