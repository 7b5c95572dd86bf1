// Names of the events the Go backend emits, read from Go's catalogue
// (catalogue.json, written by the app's catalogue test): no copy here.

import catalogue from './catalogue.json';

export const Events = {
  ingestProgress: catalogue.events.ingest_progress,
  modelProgress: catalogue.events.model_progress,
  modelReembed: catalogue.events.model_reembed,
  cacheNotice: catalogue.events.cache_notice,
  /** RechunkAll's progress: {done, total}. */
  rechunk: catalogue.events.rechunk,
  conversationRestored: catalogue.events.conversation_restored,
  /** The window was asked to close while the session holds unsaved work. */
  quitRequested: catalogue.events.quit_requested,
  /** Prefix of the per-answer channel: prefix + ask id. */
  answerPrefix: catalogue.events.answer_prefix,
  /** Prefix of the per-job channel of a study guide or flashcards: prefix + job id. */
  studyPrefix: catalogue.events.study_prefix,
} as const;

/** The channel of one answer's events. */
export function answerEvent(id: string): string {
  return `${Events.answerPrefix}${id}`;
}

/** The channel of one study job's events. */
export function studyEvent(id: string): string {
  return `${Events.studyPrefix}${id}`;
}
