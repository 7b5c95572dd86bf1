// The test stand-in for the settings, metrics, models and explorer calls, re-exported by fake.ts: tests that mock
// index.ts with fake.ts get these too. Every function is a vi.fn with a
// harmless default (an empty backend with default settings); tests override
// what they need and drive downloads with emitModelProgress.
// The app never imports this file.

import catalogue from '../../lib/api/catalogue.json';
import { Events } from '../../lib/api/events.ts';
import { vi } from 'vitest';
import type * as real from '../../lib/api/index.ts';
import type {
  AskOptions,
  Chunk,
  LocalModel,
  Hit,
  KeyStatus,
  MetricsRecord,
  MetricsView,
  ModelOffer,
  ModelProgress,
  ModelStatus,
  ReembedProgress,
  Page,
  SearchResult,
  SearchStats,
  Settings,
  SummaryPlan,
} from '../../lib/api/types.ts';

type Admin = typeof real;

const modelHandlers = new Set<(progress: ModelProgress) => void>();
const reembedHandlers = new Set<(progress: ReembedProgress) => void>();

export const MODELS_PROGRESS_EVENT = Events.modelProgress;

/** Go's defaults (session.DefaultSettings, through catalogue.json), with overrides. */
export function defaultSettings(overrides: Partial<Settings> = {}): Settings {
  return { ...(catalogue.defaults as Settings), ...overrides };
}

export const settings = vi.fn<Admin['settings']>(async () => defaultSettings());
export const setSettings = vi.fn<Admin['setSettings']>(async () => {});
/** Go's options of the default settings; a test of other settings gives the session's answer itself. */
export const askOptions = vi.fn<Admin['askOptions']>(async () => ({ ...(catalogue.ask_defaults as AskOptions) }));
export const keyStatus = vi.fn<Admin['keyStatus']>(async () => []);
export const setKey = vi.fn<Admin['setKey']>(async () => {});
export const clearKey = vi.fn<Admin['clearKey']>(async () => {});
export const llms = vi.fn<Admin['llms']>(async () => []);
export const localEndpoint = vi.fn<Admin['localEndpoint']>(async () => 'http://127.0.0.1:11434');
/** A plan with nothing to summarise and no model; tests give their own. */
export function sampleSummaryPlan(overrides: Partial<SummaryPlan> = {}): SummaryPlan {
  return { local: false, documents: 0, requests: 0, already: 0, kept: 0, over_cap: 0, short: 0, input_tokens: 0, output_tokens: 0, per_document: catalogue.defaults.summarize_max, ...overrides };
}
export const summaryPlan = vi.fn<Admin['summaryPlan']>(async () => sampleSummaryPlan());
export const summarizeLibrary = vi.fn<Admin['summarizeLibrary']>(async () => []);
export const metrics = vi.fn<Admin['metrics']>(async () => emptyMetrics());
export const exportMetrics = vi.fn<Admin['exportMetrics']>(async () => '');
export const search = vi.fn<Admin['search']>(async () => sampleSearchResult({ hits: [] }));
export const pages = vi.fn<Admin['pages']>(async () => []);
export const chunks = vi.fn<Admin['chunks']>(async () => []);
export const localModels = vi.fn<Admin['localModels']>(async () => []);
export const downloadModel = vi.fn<Admin['downloadModel']>(async () => {});
export const cancelModelDownload = vi.fn<Admin['cancelModelDownload']>(async () => true);
export const onModelProgress = vi.fn<Admin['onModelProgress']>((fn) => {
  modelHandlers.add(fn);
  return () => modelHandlers.delete(fn);
});

export const modelOffer = vi.fn<Admin['modelOffer']>(async () => sampleOffer({ models: [], size_mb: 0 }));
export const answerModelOffer = vi.fn<Admin['answerModelOffer']>(async () => {});
export const onReembed = vi.fn<Admin['onReembed']>((fn) => {
  reembedHandlers.add(fn);
  return () => reembedHandlers.delete(fn);
});

/** Delivers a "models:reembed" event to every subscriber. */
export function emitReembed(progress: ReembedProgress): void {
  for (const fn of reembedHandlers) fn(progress);
}

/** An offer of two models, unanswered. */
export function sampleOffer(overrides: Partial<ModelOffer> = {}): ModelOffer {
  return {
    models: [
      sampleLocalModel({ name: 'bge-small-en-v1.5', languages: ['en'], size_mb: 33, variant: 'int8' }),
      sampleLocalModel({ name: 'multilingual-e5-small', languages: ['multi'], size_mb: 465, variant: 'full' }),
    ],
    size_mb: 498,
    answer: '',
    ...overrides,
  };
}

/** Delivers a "models:progress" event to every subscriber. */
export function emitModelProgress(progress: ModelProgress): void {
  for (const fn of modelHandlers) fn(progress);
}

/** Forgets subscribers; call in beforeEach. */
export function resetAdminFake(): void {
  modelHandlers.clear();
  reembedHandlers.clear();
}

// Sample backend values.

export function sampleKeyStatus(overrides: Partial<KeyStatus> = {}): KeyStatus {
  return { provider: 'groq', name: '', configured: false, source: '', env_var: 'GROQ_API_KEY', ...overrides };
}

export function sampleModel(overrides: Partial<ModelStatus> = {}): ModelStatus {
  return {
    provider: 'groq',
    id: 'llama-3.1-8b-instant',
    name: 'Llama 3.1 8B',
    tier: 1,
    context: 131072,
    cost: 0,
    max_output_tokens: 8192,
    available: true,
    ...overrides,
  };
}

export function sampleRecord(overrides: Partial<MetricsRecord> = {}): MetricsRecord {
  return {
    query_index: 1,
    query: 'What is the SAT problem?',
    llm_model: 'groq/llama-3.1-8b-instant',
    llm_routing_mode: 'auto',
    retrieval_mode: 'hybrid',
    retrieval_latency_ms: 42.5,
    generation_latency_ms: 1200,
    time_to_first_token_ms: 310,
    total_latency_ms: 1290,
    chunks_retrieved: 120,
    chunks_used: 8,
    reranker_score_mean: null,
    reranker_score_min: null,
    cosine_sim_mean: 0.41,
    bm25_contribution_pct: 37.5,
    bm25_score_share_pct: 28.1,
    hit_at_5: 1,
    recall_at_5: 0.5,
    mrr: 1,
    page_types_used: { text: 7, scanned: 1 },
    fallback_chain: ['groq/llama-3.1-8b-instant'],
    history_applied: true,
    hyde_applied: false,
    multi_query_applied: false,
    rerank_applied: true,
    tokens_in: 2100,
    tokens_out: 180,
    citation_valid_pct: 100,
    images_sent: 0,
    images_withheld: 0,
    scope: '',
    ...overrides,
  };
}

export function emptyMetrics(): MetricsView {
  return {
    records: [],
    summary: { questions: 0, total_latency_p50_ms: 0, total_latency_p95_ms: 0, citation_valid_pct_mean: null, relevance_proxy: 'no reranker' },
  };
}

export function samplePage(overrides: Partial<Page> = {}): Page {
  return {
    doc_id: 'a3f1c9',
    page: 1,
    type: 'text',
    text: 'Lecture 3. Satisfiability.',
    width: 595,
    height: 842,
    lang: 'en',
    lang_confidence: 0.98,
    ocr_confidence: null,
    ...overrides,
  };
}

export function sampleChunk(overrides: Partial<Chunk> = {}): Chunk {
  return {
    chunk_id: 'a3f1c9:1:0',
    doc_id: 'a3f1c9',
    page: 1,
    char_start: 0,
    char_end: 26,
    text: 'Lecture 3. Satisfiability.',
    section_title: 'Satisfiability',
    page_type: 'text',
    lang: 'en',
    kind: 'body',
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
    kind: 'body',
    found_by: 'both',
    doc_id: 'a3f1c9',
    page_type: 'text',
    ...overrides,
  };
}

export function sampleStats(overrides: Partial<SearchStats> = {}): SearchStats {
  return {
    mode: 'hybrid',
    latency_ns: 3_400_000,
    embed_ns: 2_000_000,
    dense_ns: 500_000,
    lexical_ns: 700_000,
    fuse_ns: 100_000,
    rerank_ns: 0,
    reranker: '',
    reranked: 0,
    top_lexical: 7.25,
    dense_candidates: 1000,
    lexical_candidates: 212,
    candidates: 1040,
    used: 1,
    bm25_share_pct: 40,
    found_by: { dense: 0, bm25: 0, both: 1 },
    ...overrides,
  };
}

export function sampleSearchResult(overrides: Partial<SearchResult> = {}): SearchResult {
  return { hits: [sampleHit({ dense_score: 0.512, lexical_score: 7.25, rerank_score: null })], stats: sampleStats(), ...overrides };
}

export function sampleLocalModel(overrides: Partial<LocalModel> = {}): LocalModel {
  return {
    name: 'all-MiniLM-L6-v2',
    role: 'embedder',
    languages: ['en'],
    license: 'apache-2.0',
    size_mb: 22,
    dimensions: 384,
    variant: 'quint8-avx2',
    pinned: true,
    installed: false,
    downloading: false,
    ...overrides,
  };
}

export function modelProgress(overrides: Partial<ModelProgress> & Pick<ModelProgress, 'name'>): ModelProgress {
  return {
    file: 'onnx/model.onnx',
    file_index: 1,
    files: 2,
    done_bytes: 0,
    total_bytes: 90_000_000,
    finished: false,
    ...overrides,
  };
}
