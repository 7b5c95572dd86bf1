// Wire types of the Go backend, as the frontend uses them. They mirror the
// JSON tags of backend/corpus and of the ingest progress event. The generated
// wailsjs models are classes with the same fields; TypeScript checks that they
// stay assignable to these (see index.ts), so a renamed Go field fails
// `npm run check`.

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
  /** Pages of each type: text, illustrative, mixed, scanned. */
  page_types: Record<string, number>;
  /** Pages whose text (or part of it) was recognised by OCR. */
  ocr_pages: number;
  /** Main language (ISO 639-1), "" when undetermined. */
  lang: string;
  lang_mixed: boolean;
  lang_shares?: Record<string, number>;
}

/** One search result (corpus.Hit). */
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
  /** Specific, readable message, present on the "failed" event. */
  error?: string;
}
