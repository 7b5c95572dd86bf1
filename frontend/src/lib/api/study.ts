// Study aids: the plan of a guide, guides and flashcards run as background
// jobs (their events on study:<id>), cancel, the guide kept this session,
// the document's outline sections, the exports (native save dialogs).
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import type { study } from '../../../wailsjs/go/models';
import { EventsOn } from '../../../wailsjs/runtime/runtime';
import { call, runtimeReady } from './call.ts';
import { studyEvent } from './events.ts';
import type { OutlineEntry, StudyDeck, StudyEvent, StudyGuide, StudyOptions, StudyPlan, StudyScope } from './types.ts';

/** A fresh id for a study job: subscribe with onStudy(id) before starting it. */
export function newStudyID(): string {
  return `s-${crypto.randomUUID()}`;
}

/** The requests and tokens a guide of scope will take (no model asked). */
export async function studyPlan(scope: StudyScope, opts: StudyOptions): Promise<StudyPlan> {
  return (await call(() => App.StudyPlan({ ...scope } as study.Scope, { ...opts } as study.Options))) as StudyPlan;
}

/** Starts the guide of scope under id; its events arrive on onStudy(id). */
export async function startStudyGuide(id: string, scope: StudyScope, opts: StudyOptions): Promise<void> {
  await call(() => App.StudyGuide(id, { ...scope } as study.Scope, { ...opts } as study.Options));
}

/** Starts flashcards and their quiz from scope under id. */
export async function startStudyCards(id: string, scope: StudyScope, opts: StudyOptions): Promise<void> {
  await call(() => App.StudyCards(id, { ...scope } as study.Scope, { ...opts } as study.Options));
}

/** Stops a study job; false when it had already finished. */
export async function cancelStudy(id: string): Promise<boolean> {
  return call(() => App.CancelStudy(id));
}

/** The guide made of scope (a document, a section, several documents or all) this session; null when there is none. */
export async function studyGuideKept(scope: StudyScope): Promise<StudyGuide | null> {
  const g = (await call(() => App.StudyGuideKept({ ...scope } as study.Scope))) as StudyGuide;
  return g.doc_id || (g.docs ?? []).length > 0 ? g : null;
}

/** A document's outline entries that point to a page. */
export async function studySections(docID: string): Promise<OutlineEntry[]> {
  return ((await call(() => App.StudySections(docID))) ?? []) as OutlineEntry[];
}

/**
 * The model's suggested questions for a newly added document, in its
 * language (lang, the window's, when it has none). Rejects with the
 * StudyNeedsModel code when no model is configured.
 */
export async function suggestQuestions(docID: string, lang: string): Promise<string[]> {
  return ((await call(() => App.SuggestQuestions(docID, lang))) ?? []) as string[];
}

/** Saves the kept guide of scope as HTML or Markdown; the path, '' when cancelled. */
export async function exportStudyGuide(scope: StudyScope, format: 'html' | 'md'): Promise<string> {
  return (await call(() => App.ExportStudyGuide({ ...scope } as study.Scope, format))) ?? '';
}

/** Saves flashcards as CSV, Anki's TSV or an Anki package; the path, '' when cancelled. */
export async function exportCards(deck: StudyDeck, format: 'csv' | 'tsv' | 'apkg'): Promise<string> {
  return (await call(() => App.ExportCards(deck as unknown as study.Deck, format))) ?? '';
}

/** Subscribes to the events of one study job; returns the unsubscribe function. */
export function onStudy(id: string, fn: (event: StudyEvent) => void): () => void {
  if (!runtimeReady()) return () => {};
  return EventsOn(studyEvent(id), (event: StudyEvent) => fn(event));
}
