// Wire types of the Go backend, as the frontend uses them. They mirror the
// JSON tags of backend/corpus and of the ingest progress event. The generated
// wailsjs models are classes with the same fields; TypeScript checks that they
// stay assignable to these (see index.ts), so a renamed Go field fails
// `npm run check`.

import type { BridgeMessage } from '../i18n/messages.ts';

/** One PDF added to the session (corpus.Document). */
export interface Document {
  /** SHA-256 of the file bytes, hex. Never shown: citations use the file name. */
  doc_id: string;
  /** Original file name. */
  file: string;
  /** Display name, unique in the session. */
  label: string;
  bytes: number;
  pages: number;
  chunks: number;
  /** 1-based pages whose text could not be extracted; the rest is usable. */
  failed_pages?: number[];
  /** What may be wrong with a document that was still added (e.g. truncated). */
  warning?: string;
  /** Tables, figures and display formulas found (table, figure, formula); absent when none. */
  regions?: Record<string, number>;
  /** Pages of each type: text, illustrative, mixed, scanned. */
  page_types: Record<string, number>;
  /** Pages whose text (or part of it) was recognised by OCR. */
  ocr_pages: number;
  /** Main language (ISO 639-1), "" when undetermined. */
  lang: string;
  lang_mixed: boolean;
  lang_shares?: Record<string, number>;
}

/** One retrieved passage (corpus.Hit): what search returns and, numbered, what the answer cites (Source). */
export interface Hit {
  file: string;
  /** 1-based PDF page index. */
  page: number;
  chunk_id: string;
  score: number;
  /** Untrusted text extracted from a PDF: render as text, never as HTML. */
  text: string;
  /** Citation label, e.g. "[lecture_sat.pdf p.42]". */
  label: string;
  /** Which retriever found the passage. */
  found_by: string; // "dense", "bm25" or "both"
  doc_id: string;
  /** Type of the page the passage comes from: text, illustrative, mixed, scanned. */
  page_type: string;
  /** The passage's kind: body, front, references, table, figure or formula. */
  kind?: string;
  /** The box of the table, figure or formula the passage was made from; absent otherwise. */
  bbox?: Box | null;
  /** Cross-encoder score; null when no reranker rescored the passage. */
  rerank_score?: number | null;
  /** Cosine of the query with the passage; null when the query was not embedded (bm25 mode). */
  dense_score?: number | null;
  /** BM25 score; null when BM25 did not retrieve the passage (dense mode, or found by dense only). */
  lexical_score?: number | null;
}

/** Stages of one ingest job, in order; the last three are terminal. */
export const INGEST_STAGES = [
  'queued',
  'validating',
  'extracting',
  'ocr',
  'language',
  'chunking',
  'embedding',
  'indexing',
  'describing',
  'done',
  'failed',
  'cancelled',
] as const;

export type IngestStage = (typeof INGEST_STAGES)[number];

export function isTerminalStage(stage: IngestStage): boolean {
  return stage === 'done' || stage === 'failed' || stage === 'cancelled';
}

/** Payload of the "ingest:progress" event. */
export interface IngestProgress {
  job_id: string;
  file: string;
  stage: IngestStage;
  /** Units of work done so far (pages, chunks…); 0 with total 0 when unknown. */
  done: number;
  total: number;
  /** Present on the "done" event. */
  doc?: Document;
  /** English text of the failure, present on the "failed" event (for logs). */
  error?: string;
  /** The failure as a code the page translates (backend/message). */
  problem?: BridgeMessage;
}

// --- answers (chat) ---
// Mirrors of rag.Answer, rag.Source, cite.Citation and llm.Notice, and of the
// events on "answer:<id>" (contract of issues 5 and 6).

/** One passage given to the model, numbered as in the prompt (rag.Source). */
export interface Source extends Hit {
  /** 1-based number of the source in the prompt. */
  index: number;
}

/** Something the user should know about how the answer was produced (llm.Notice). */
export interface Notice {
  /** "router", "skipped", "fallback", "interrupted", "config" or "truncated". */
  kind: string;
  model?: string;
  reason?: string;
  error_kind?: string;
  next?: string;
  alternatives?: string[];
  /** English sentence (for the command line). */
  message: string;
  /** The notice as a code the page translates (backend/message); absent in old records. */
  code?: string;
  params?: Record<string, unknown> | null;
}

/** One citation found in the answer text, checked against the cited page (cite.Citation). */
export interface Citation {
  /** As it should read, e.g. "[lecture_sat.pdf p.42]". */
  label: string;
  /** As it appears in the answer text. */
  raw: string;
  file: string;
  /** "" when the cited file is not in the session. */
  doc_id: string;
  page: number;
  /** 1-based source number, 0 when it matches none. */
  source_index: number;
  verified: boolean;
  /** Why it is not verified; "" when verified. */
  reason: string;
  overlap: number;
  claim: string;
  /** Offsets of raw in the answer text. */
  start: number;
  end: number;
}

export type AnswerKind = 'llm' | 'extractive' | 'abstained';

/** One finished (or partial) turn (rag.Answer). */
export interface Answer {
  id: string;
  question: string;
  standalone_question: string;
  /** Markdown with [file.pdf p.3] citations; untrusted model output. */
  answer: string;
  kind: AnswerKind;
  citations: Citation[] | null;
  sources: Source[] | null;
  model_used: string;
  model_name: string;
  footer: string;
  fallback_chain: string[] | null;
  notices: Notice[] | null;
  partial: boolean;
  cancelled: boolean;
  metrics?: unknown;
}

export type AnswerStage = 'rewriting' | 'retrieving' | 'generating';

/** Payload of one "answer:<id>" event. */
export type AnswerEvent =
  | { type: 'status'; stage: AnswerStage }
  | { type: 'sources'; sources: Source[] | null }
  | { type: 'delta'; text: string }
  | { type: 'notice'; notice: Notice }
  | { type: 'done'; answer: Answer }
  | { type: 'error'; error: string; problem?: BridgeMessage; answer: Answer | null };

// --- settings, metrics, explorer ---
// Mirrors of rag.Settings, llm.ModelStatus, secrets.Status, metrics.Record and
// metrics.Summary, engine.SearchResult, corpus.Page and corpus.Chunk, and of
// the model manager's EmbeddingModels / "models:progress" (see models.ts).

/** How passages are retrieved: "" lets the engine choose (hybrid for English sessions, else BM25). */
export type RetrievalMode = '' | 'dense' | 'bm25' | 'hybrid';

/** The user's answering preferences (rag.Settings), persisted by the backend; never holds a key. */
export interface Settings {
  routing: 'auto' | 'manual';
  /** The manual pick; both "" with automatic routing. */
  provider: string;
  model: string;
  mode: RetrievalMode;
  /** Passages in the prompt; 0 = the backend's default (8). */
  k: number;
  history: boolean;
  hyde: boolean;
  multi_query: boolean;
  rerank: boolean;
  /** "en", "fr", or "" to follow the system. */
  locale: string;
  /** Describe each added document's figures with describe_model (a vision model, "provider/id"); off by default. */
  describe: boolean;
  describe_model: string;
  /** Also summarise its tables (with the same model). */
  describe_tables: boolean;
  /** The most figures and tables described a document. */
  describe_max: number;
}

/** Per-question options of Ask (rag.Options), filled from Settings. */
export interface AskOptions {
  provider: string;
  model: string;
  mode: RetrievalMode;
  k: number;
  history: boolean;
  hyde: boolean;
  multi_query: boolean;
  rerank: boolean;
}

/** One cloud or local LLM and whether it can answer now (llm.ModelStatus). */
export interface ModelStatus {
  provider: string;
  id: string;
  name: string;
  /** Capability, 1 (light) to 3 (strongest). */
  tier: number;
  context: number;
  /** 0 (free or local) to 3. */
  cost: number;
  local?: boolean;
  /** It reads images (figure and table crops). */
  vision?: boolean;
  available: boolean;
  /** Why it is unavailable, e.g. "no API key". */
  reason?: string;
}

/** Whether a provider's API key is configured (secrets.Status). The key itself never leaves Go. */
export interface KeyStatus {
  provider: string;
  /** Display name, when the backend gives one. */
  name?: string;
  configured: boolean;
  /** "keyring", "env" (or "environment"), "" when not configured. */
  source: string;
  /** The environment variable that overrides the keyring, e.g. GROQ_API_KEY. */
  env_var?: string;
  /** Why the system keyring could not be read for this provider; absent when it could. */
  keyring_error?: string;
}

/** The account of one question (metrics.Record); null = unknown. */
export interface MetricsRecord {
  query_index: number;
  query: string;
  /** "provider/id" of the model that answered; "" for extractive or abstained answers. */
  llm_model: string;
  /** "auto", "manual", "extractive" or "abstained". */
  llm_routing_mode: string;
  retrieval_mode: string;
  retrieval_latency_ms: number;
  generation_latency_ms: number;
  time_to_first_token_ms: number | null;
  total_latency_ms: number;
  chunks_retrieved: number;
  chunks_used: number;
  reranker_score_mean: number | null;
  reranker_score_min: number | null;
  cosine_sim_mean: number | null;
  bm25_contribution_pct: number;
  hit_at_5: number | null;
  recall_at_5: number | null;
  mrr: number | null;
  page_types_used: Record<string, number> | null;
  /** Models tried in order: "provider/id", or "provider/id (kind)" for one that failed. */
  fallback_chain: string[] | null;
  tokens_in: number;
  tokens_out: number;
  citation_valid_pct: number | null;
  /** Table and figure crops the answering model was shown; those withheld from a text-only model. */
  images_sent: number;
  images_withheld: number;
}

/** metrics.Summary. */
export interface MetricsSummary {
  questions: number;
  total_latency_p50_ms: number;
  total_latency_p95_ms: number;
  citation_valid_pct_mean: number | null;
  relevance_proxy?: string;
}

/** rag.MetricsView. */
export interface MetricsView {
  records: MetricsRecord[] | null;
  summary: MetricsSummary;
}

/** One page as extracted (corpus.Page; its layout lines are not used here). */
export interface Page {
  doc_id: string;
  /** 1-based PDF page index. */
  page: number;
  /** text, illustrative, mixed or scanned. */
  type: string;
  /** Untrusted text from the PDF: render as text. */
  text: string;
  width: number;
  height: number;
  error?: string;
  lang: string;
  lang_confidence: number;
  /** Mean OCR word confidence (0..1); null when no OCR ran. */
  ocr_confidence: number | null;
}

/** One retrievable passage (corpus.Chunk). */
export interface Chunk {
  chunk_id: string;
  doc_id: string;
  page: number;
  char_start: number;
  char_end: number;
  text: string;
  section_title: string;
  page_type: string;
  lang: string;
  /** body, front or references. */
  kind: string;
  /** Pages the chunk stands for (slide overlays); absent for one page. */
  pages?: number[];
}

/** A search hit: the same corpus.Hit, under the name the explorer imports. */
export type ScoredHit = Hit;

/** retrieve.Stats (durations in nanoseconds). */
export interface SearchStats {
  mode: string;
  fusion?: string;
  dense_weight?: number;
  latency_ns: number;
  embed_ns: number;
  dense_ns: number;
  lexical_ns: number;
  fuse_ns: number;
  rerank_ns?: number;
  /** The cross-encoder that reordered the hits, "" when none did. */
  reranker?: string;
  /** Hits the reranker rescored. */
  reranked?: number;
  dense_candidates: number;
  lexical_candidates: number;
  candidates: number;
  used: number;
  /** Best BM25 score among the lexical candidates; 0 when BM25 did not run (dense mode). */
  top_lexical?: number;
  mean_cosine?: number | null;
  bm25_share_pct: number;
  found_by: { dense: number; bm25: number; both: number };
}

/** engine.SearchResult. */
export interface SearchResult {
  hits: ScoredHit[] | null;
  stats: SearchStats;
}

/** An optional embedding or reranking model of the registry (EmbeddingModels: models.Status). */
export interface EmbeddingModel {
  name: string;
  role: 'embedder' | 'reranker';
  /** ISO 639-1 codes, or "multi". */
  languages: string[];
  license: string;
  /** Approximate download size, MB; 0 when unknown. */
  size_mb: number;
  dimensions: number;
  /** The registry pins the files' sha256; otherwise the first download records them. */
  pinned: boolean;
  installed: boolean;
  downloading: boolean;
}

/** Payload of the "models:progress" event (models.Event). */
export interface ModelProgress {
  name: string;
  /** The file in transfer, the file_index-th (1-based) of files. */
  file: string;
  file_index: number;
  files: number;
  done_bytes: number;
  /** -1 when the server does not say. */
  total_bytes: number;
  /** True on the last event (success, failure or cancellation). */
  finished: boolean;
  /** English reason, on the last event of a failed or cancelled download. */
  error?: string;
  /** The reason as a code the page translates (backend/message). */
  problem?: BridgeMessage;
}

/** A box on a page in PDF points, origin at the top left: x0, y0, x1, y1. */
export type Box = [number, number, number, number];

/** The kinds of regions a page can hold. */
export const REGION_KINDS = ['table', 'figure', 'formula'] as const;
export type RegionKind = (typeof REGION_KINDS)[number];

/** A table, figure or display formula of a document (main.RegionView). */
export interface Region {
  kind: string;
  /** 1-based page. */
  page: number;
  bbox: Box;
  /** The caption as printed, "" when none was found. Untrusted text. */
  caption: string;
  /** A table as Markdown, a figure's inner text, a formula's text. Untrusted. */
  text: string;
  /** A model's description or summary, "" when none. Untrusted. */
  description: string;
  /** A figure's crop as a PNG data URL, "" when it has none. */
  image: string;
}
