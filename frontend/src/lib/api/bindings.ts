// Compile-time checks of the hand-written wire types (types.ts) against the
// generated Go models: `npm run check` fails when a field the frontend reads
// is renamed or removed on the Go side.

import type { corpus, engine, main, llm, metrics as gometrics, models as gomodels, rag, retrieve, secrets } from '../../../wailsjs/go/models';
import type {
  Chunk,
  EmbeddingModel,
  KeyStatus,
  MetricsRecord,
  MetricsSummary,
  MetricsView,
  ModelStatus,
  Page,
  Hit,
  Region,
  SearchResult,
  SearchStats,
  Settings,
  Source,
} from './types.ts';

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
  // One hit type: search returns corpus.Hit, an answer's sources embed it.
  None<Missing<Hit, corpus.Hit>>,
  None<Missing<Source, rag.Source>>,
  None<Missing<SearchStats, retrieve.Stats>>,
  None<Missing<SearchResult, engine.SearchResult>>,
  None<Missing<EmbeddingModel, gomodels.Status>>,
  None<Missing<Region, main.RegionView>>,
];
