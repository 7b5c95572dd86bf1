// The model manager: embedding and reranking models of the registry and their downloads.
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import { EventsOn } from '../../../wailsjs/runtime/runtime';
import { call } from './call.ts';
import { Events } from './events.ts';
import type { LocalModel, ModelOffer, ModelProgress, ReembedProgress } from './types.ts';

/** Event of the model manager's downloads (Go: EventModelProgress in app_models.go). */
export const MODELS_PROGRESS_EVENT = Events.modelProgress;

export async function localModels(): Promise<LocalModel[]> {
  return ((await call(() => App.LocalModels())) ?? []) as LocalModel[];
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

/** The offer "Better search for English and French": models still to download, size, remembered answer. */
export async function modelOffer(): Promise<ModelOffer> {
  const o = (await call(() => App.ModelOffer())) as ModelOffer;
  return { ...o, models: o.models ?? [] };
}

/** Remembers the answer to the offer; accepting starts its downloads. */
export async function answerModelOffer(accept: boolean): Promise<void> {
  await call(() => App.AnswerModelOffer(accept));
}

/** Subscribes to the switch to a newly installed embedding model; returns the unsubscribe function. */
export function onReembed(fn: (progress: ReembedProgress) => void): () => void {
  if (typeof window === 'undefined' || window.runtime === undefined) return () => {};
  return EventsOn(Events.modelReembed, (progress: ReembedProgress) => fn(progress));
}
