// The backend calls of the settings, dashboard and explorer views, re-exported
// by index.ts (the app's one door to Go). Like index.ts, this file may import
// the generated wailsjs bindings; nothing outside lib/api does.
//
// The wire types in types.ts narrow some Go strings to unions (routing,
// role), so results are cast; BindingChecks below makes `npm run check` fail
// when a field the frontend reads is renamed or removed on the Go side.

import * as App from '../../../wailsjs/go/main/App';
import type { corpus, engine, llm, metrics as gometrics, models as gomodels, rag, retrieve, secrets } from '../../../wailsjs/go/models';
import { EventsOn } from '../../../wailsjs/runtime/runtime';
import { call } from './call.ts';
import { Events } from './events.ts';
import type {
  Chunk,
  EmbeddingModel,
  KeyStatus,
  MetricsRecord,
  MetricsSummary,
  MetricsView,
  ModelProgress,
  ModelStatus,
  Page,
  RetrievalMode,
  ScoredHit,
  SearchResult,
  SearchStats,
  Settings,
} from './types.ts';

/** Event of the model manager's downloads (Go: EventModelProgress in app_models.go). */
export const MODELS_PROGRESS_EVENT = Events.modelProgress;

/** The fields of Mine that Go does not send: must be none. */
type Missing<Mine, Go> = Exclude<keyof Mine, keyof Go>;
type None<T extends never> = T;

/** Compile-time checks of types.ts against the generated Go models. */
export type BindingChecks = [
  None<Missing<Settings, rag.Settings>>,
  None<Missing<ModelStatus, llm.ModelStatus>>,
  None<Missing<KeyStatus, secrets.Status>>,
  None<Missing<MetricsRecord, gometrics.Record>>,
  None<Missing<MetricsSummary, gometrics.Summary>>,
  None<Missing<MetricsView, rag.MetricsView>>,
  None<Missing<Page, corpus.Page>>,
  None<Missing<Chunk, corpus.Chunk>>,
  // ScoredHit extends Hit: every field of both comes from corpus.Hit.
  None<Missing<ScoredHit, corpus.Hit>>,
  None<Missing<ScoredHit, rag.Source>>,
  None<Missing<SearchStats, retrieve.Stats>>,
  None<Missing<SearchResult, engine.SearchResult>>,
  None<Missing<EmbeddingModel, gomodels.Status>>,
];

// Settings and keys.

export async function settings(): Promise<Settings> {
  return (await call(() => App.Settings())) as Settings;
}

export async function setSettings(s: Settings): Promise<void> {
  await call(() => App.SetSettings({ ...s } as rag.Settings));
}

/** One status per provider that needs a key; never the key. */
export async function keyStatus(): Promise<KeyStatus[]> {
  return ((await call(() => App.KeyStatus())) ?? []) as KeyStatus[];
}

/** Stores a provider's key in the OS keyring. */
export async function setKey(provider: string, key: string): Promise<void> {
  await call(() => App.SetKey(provider, key));
}

export async function clearKey(provider: string): Promise<void> {
  await call(() => App.ClearKey(provider));
}

/** Every LLM of the catalogue, with whether it can answer now. */
export async function models(): Promise<ModelStatus[]> {
  return ((await call(() => App.Models())) ?? []) as ModelStatus[];
}

// Metrics.

export async function metrics(): Promise<MetricsView> {
  return (await call(() => App.Metrics())) as MetricsView;
}

/** Opens the native save dialog; returns the written file's path, "" when cancelled. */
export async function exportMetrics(format: 'csv' | 'json'): Promise<string> {
  return call(() => App.ExportMetrics(format));
}

// Explorer.

export async function searchWith(question: string, mode: RetrievalMode, k: number, rerank: boolean): Promise<SearchResult> {
  return (await call(() => App.SearchWith(question, mode, k, rerank))) as SearchResult;
}

export async function pages(docID: string): Promise<Page[]> {
  return ((await call(() => App.Pages(docID))) ?? []) as Page[];
}

export async function chunks(docID: string): Promise<Chunk[]> {
  return ((await call(() => App.Chunks(docID))) ?? []) as Chunk[];
}

// Model manager (embedding and reranking models of the registry).

export async function embeddingModels(): Promise<EmbeddingModel[]> {
  return ((await call(() => App.EmbeddingModels())) ?? []) as EmbeddingModel[];
}

/** Starts downloading a model in the background; progress arrives as "models:progress" events. */
export async function downloadModel(name: string): Promise<void> {
  await call(() => App.DownloadModel(name));
}

/** Stops a model's download; false when none was running. */
export async function cancelModelDownload(name: string): Promise<boolean> {
  return call(() => App.CancelModelDownload(name));
}

/** Subscribes to download progress; returns the unsubscribe function. */
export function onModelProgress(fn: (progress: ModelProgress) => void): () => void {
  if (typeof window === 'undefined' || window.runtime === undefined) return () => {};
  return EventsOn(MODELS_PROGRESS_EVENT, (progress: ModelProgress) => fn(progress));
}
