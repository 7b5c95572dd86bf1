// Wire types of the Go backend, as the frontend uses them. The bound
// methods' types are derived from the models Wails generates from the Go
// structs (frontend/wailsjs/go/models.ts, `make bindings`), one type per
// concept: a renamed or removed Go field fails `npm run check` wherever it is
// read. Only the event payloads, which Wails does not generate, are written
// here by hand.

import type {
  cite,
  corpus,
  engine,
  llm,
  main,
  metrics,
  mindmap,
  models,
  notes,
  rag,
  retrieve,
  review,
  secrets,
  session,
  study,
} from '../../../wailsjs/go/models';
import type { BridgeMessage } from '../i18n/messages.ts';
import catalogue from './catalogue.json';

/**
 * A generated model as the JSON Wails sends: its fields without the class's
 * methods, nested models alike. A field Go may leave out (a pointer,
 * omitempty) is optional and may be null; a slice or map may be null.
 */
export type Wire<T> = T extends (infer U)[]
  ? Wire<U>[]
  : T extends object
    ? { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: Field<T[K]> }
    : T;
type Field<V> = undefined extends V ? Wire<NonNullable<V>> | null : Nilable<V> extends true ? Wire<V> | null : Wire<V>;
/** A generated model's fields, as the frontend sends it to Go. */
type Fields<T> = { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: T[K] };
/** Go sends a nil slice or map as null. */
type Nilable<V> = V extends unknown[] ? true : V extends object ? (string extends keyof V ? true : false) : false;

/** One PDF added to the session (corpus.Document). */
export type Document = Wire<corpus.Document>;

/** A folder being added (session.FolderBatch): one job per PDF, what was skipped. */
export type FolderBatch = Wire<session.FolderBatch>;

/** A course file saved or opened before (session.RecentCourse); missing when no file is there any more. */
export type RecentCourse = Wire<session.RecentCourse>;

/** What a drop onto the window started (session.Dropped): a job per file, a batch per folder. */
export type Dropped = Wire<session.Dropped>;


/** Whether the processed-document cache is on, and what it holds (engine.CacheInfo). */
export type CacheInfo = Wire<engine.CacheInfo>;
/** One bookmark of a document's outline (corpus.OutlineEntry). */
export type OutlineEntry = Wire<corpus.OutlineEntry>;

/** One retrieved passage (corpus.Hit): what search returns and, numbered, what the answer cites (Source). */
export type Hit = Wire<corpus.Hit>;

/** A stage of one ingest job (engine.Stages, listed in catalogue.json). */
export type IngestStage = string;

const TERMINAL_STAGES: ReadonlySet<string> = new Set(catalogue.stages.terminal);

/** Whether stage ends a job (engine.TerminalStages: done, failed or cancelled). */
export function isTerminalStage(stage: IngestStage): boolean {
  return TERMINAL_STAGES.has(stage);
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

// --- answers (chat): rag.Answer and its parts, and the events on "answer:<id>" ---

/** One passage given to the model, numbered as in the prompt (rag.Source). */
export type Source = Wire<rag.Source>;

/** Something the user should know about how the answer was produced (llm.Notice). */
export type Notice = Wire<llm.Notice>;

/** One citation found in the answer text, checked against the cited page (cite.Citation). */
export type Citation = Wire<cite.Citation>;

export type AnswerKind = 'llm' | 'extractive' | 'abstained';

/** One finished (or partial) turn (rag.Answer). */
export type Answer = Omit<Wire<rag.Answer>, 'kind'> & { kind: AnswerKind };

/** A stage of an answer's status events (rag.Stages, listed in catalogue.json). */
export type AnswerStage = string;

/** Payload of one "answer:<id>" event. */
export type AnswerEvent =
  | { type: 'status'; stage: AnswerStage }
  | { type: 'sources'; sources: Source[] | null }
  | { type: 'delta'; text: string }
  | { type: 'notice'; notice: Notice }
  | { type: 'done'; answer: Answer }
  | { type: 'error'; error: string; problem?: BridgeMessage; answer: Answer | null };

// --- study aids (package study) ---

/** What to study: a document, optionally one outline section (study.Scope). */
export type StudyScope = Fields<study.Scope>;
/** A mind map of documents (mindmap.Map): a tree whose nodes cite a document and a page. */
export type MindMap = Wire<mindmap.Map>;
/** One node of a mind map (mindmap.Node). */
export type MindMapNode = Wire<mindmap.Node>;
/** A study request's options (study.Options). */
export type StudyOptions = Fields<study.Options>;
/** What a guide will cost, announced before it starts (study.Plan). */
export type StudyPlan = Wire<study.Plan>;
/** A study guide, every line checked, or the extractive outline without a model (study.Guide). */
export type StudyGuide = Wire<study.Guide>;
/** One checked line of a guide (study.Line). */
export type StudyLine = Wire<study.Line>;
/** Flashcards with their verdicts and the cards refused (study.Deck). */
export type StudyDeck = Wire<study.Deck>;
/** One flashcard (study.Card). */
export type StudyCard = Wire<study.Card>;
/** A page a merged duplicate of a card cited (study.Cited). */
export type StudyCited = Wire<study.Cited>;
/** One quiz question (study.QuizItem, sent only in events): multiple choice or short answer. */
export interface QuizItem {
  kind: 'choice' | 'short';
  question: string;
  /** The card's answer, citations removed. */
  answer: string;
  /** choice: the right answer among the distractors. */
  options?: string[] | null;
  /** choice: the right answer's index in options. */
  correct: number;
  /** The source: label, page, verdict. */
  card: StudyCard;
}
/** A study job's progress (study.Progress, sent only in events): done of total requests. */
export interface StudyProgress {
  stage: 'map' | 'reduce' | 'cards';
  done: number;
  total: number;
  /** Seconds waited for a rate limit to pass; absent when not waiting. */
  waiting?: number;
}

/** The events of one study job (study.Event), on study:<id>: progress, then done or error. */
export type StudyEvent =
  | { type: 'progress'; progress: StudyProgress }
  | { type: 'done'; guide?: StudyGuide | null; deck?: StudyDeck | null; quiz?: QuizItem[] | null }
  | { type: 'error'; error: BridgeMessage };

// --- spaced repetition (packages review and srs) ---

/** A grade of a flashcard: 1 again, 2 hard, 3 good, 4 easy (srs.Grade). */
export type Grade = 1 | 2 | 3 | 4;
/** Which cards: a document ('' all) and one of its sections ('' the whole document) (review.Scope). */
export type ReviewScope = Fields<review.Scope>;
/** A card under review with, for each grade, the seconds until it would be due again (review.Due). */
export type ReviewCard = Wire<review.Due>;
/** The counts of a document or a section (review.Counts). */
export type ReviewCounts = Wire<review.Counts>;
/** A section missed most for its reviews and quiz answers (review.Weak). */
export type WeakSection = Wire<review.Weak>;
/** Progress per document and section, with the weak sections (review.Progress). */
export type ReviewProgress = Wire<review.Progress>;

// --- the student's own highlights and notes (package notes) ---

/** A highlight (its quote and boxes on the page, in points from the top left) or a page note (notes.Note). */
export type Note = Omit<Wire<notes.Note>, 'created' | 'edited' | 'boxes'> & {
  boxes?: Box[] | null;
  created: string;
  edited: string;
};
/** What the viewer sends to keep a note: Go gives it its id and times. */
export type NoteInput = Pick<Note, 'doc_id' | 'page' | 'kind' | 'color' | 'quote' | 'text'> & { boxes?: Box[] };

// --- settings, metrics, explorer, and the model manager's "models:progress" ---

/** How passages are retrieved: "" lets the engine choose (hybrid for English sessions, else BM25). */
export type RetrievalMode = '' | 'dense' | 'bm25' | 'hybrid';

/** How hybrid search fuses keywords and meaning: "" by the embedding model's profile, else the method named (retrieve.Fusion). */
export type Fusion = '' | 'convex' | 'rrf';

/** What summarising the session's documents (the summary index) will cost, announced before it starts (session.SummaryPlan). */
export type SummaryPlan = Wire<session.SummaryPlan>;
/** The user's answering preferences (session.Settings), persisted by the backend; never holds a key. */
export type Settings = Omit<Wire<session.Settings>, 'routing' | 'mode' | 'fusion'> & {
  routing: 'auto' | 'manual';
  mode: RetrievalMode;
  fusion: Fusion;
};

/** Per-question options of Ask (rag.Options), filled from Settings. */
export type AskOptions = Omit<Fields<rag.Options>, 'mode' | 'fusion'> & { mode: RetrievalMode; fusion?: Fusion };

/** One cloud or local LLM and whether it can answer now (llm.ModelStatus). */
export type ModelStatus = Wire<llm.ModelStatus>;

/** Whether a provider's API key is configured (secrets.Status). The key itself never leaves Go. */
export type KeyStatus = Wire<secrets.Status>;

/** The account of one question (metrics.Record); null = unknown. */
export type MetricsRecord = Wire<metrics.Record>;

/** metrics.Summary. */
export type MetricsSummary = Wire<metrics.Summary>;

/** rag.MetricsView. */
export type MetricsView = Wire<rag.MetricsView>;

/** One page as extracted (corpus.Page); problem says why its text could not be extracted (a "page.*" code). */
export type Page = Wire<corpus.Page>;

/** One retrievable passage (corpus.Chunk). */
export type Chunk = Wire<corpus.Chunk>;

/** retrieve.Stats (durations in nanoseconds). */
export type SearchStats = Wire<retrieve.Stats>;

/** engine.SearchResult. */
export type SearchResult = Wire<engine.SearchResult>;

/** An optional embedding, reranking or figure-search (image: CLIP) model of the registry (LocalModels: models.Status). */
export type LocalModel = Omit<Wire<models.Status>, 'role'> & { role: 'embedder' | 'reranker' | 'image' };

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

/** The offer "Better search for English and French" (ModelOffer: models.Offer). */
export type ModelOffer = Omit<Wire<models.Offer>, 'models' | 'answer'> & {
  /** The offered models not installed yet; none when all are. */
  models: LocalModel[];
  /** The remembered answer: "", "accepted" or "declined". */
  answer: '' | 'accepted' | 'declined';
};

/** Payload of the "models:reembed" event (engine.ReembedProgress). */
export interface ReembedProgress {
  /** embedding (done of total passages), then one of done, unchanged, failed, cancelled. */
  stage: string;
  done: number;
  total: number;
  /** The embedding models switched to, English one first. */
  models: string[] | null;
  error?: string;
  problem?: BridgeMessage;
}

/** A box on a page in PDF points, origin at the top left: x0, y0, x1, y1 (corpus.Hit.bbox, main.RegionView.bbox). */
export type Box = number[];

/** A kind of region found on a page's layout (corpus.LayoutKinds), which the explorer has a tab for. */
export type RegionKind = 'table' | 'figure' | 'formula';

/**
 * A table, figure or display formula of a document (main.RegionView): its
 * caption, text (a table as Markdown) and description are untrusted text;
 * image is a figure's crop as a PNG data URL, "" when it has none.
 */
export type Region = Wire<main.RegionView>;
