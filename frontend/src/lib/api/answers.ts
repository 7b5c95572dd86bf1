// Answers: asking, cancelling, the conversation and its export, the events of one answer, links opened from answers.
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import type { rag } from '../../../wailsjs/go/models';
import { BrowserOpenURL, EventsOn } from '../../../wailsjs/runtime/runtime';
import { call, runtimeReady } from './call.ts';
import { answerEvent, Events } from './events.ts';
import type { Answer, AnswerEvent, AskOptions } from './types.ts';

/** A fresh id for an answer: subscribe with onAnswer(id) before ask(id, …). */
export function newAskID(): string {
  return `q-${crypto.randomUUID()}`;
}

/**
 * Starts answering question under id and resolves with it. Subscribe to
 * onAnswer(id) first: the backend may send the first events before this resolves.
 */
export async function ask(id: string, question: string, opts: AskOptions): Promise<string> {
  // The JSON Wails sends is the fields: the generated class's methods are not needed.
  return call(() => App.Ask(id, question, { ...opts } as rag.Options));
}

/** Stops an answer; what arrived is kept. False when it had already finished. */
export async function cancelAsk(id: string): Promise<boolean> {
  return call(() => App.CancelAsk(id));
}

/** The session's finished turns, oldest first. */
export async function conversation(): Promise<Answer[]> {
  return ((await call(() => App.Conversation())) ?? []) as unknown as Answer[];
}

/** Subscribes to course files' conversations joining the session (the number of turns added). */
export function onConversationRestored(fn: (turns: number) => void): () => void {
  if (!runtimeReady()) return () => {};
  return EventsOn(Events.conversationRestored, (n: number) => fn(n));
}

export async function clearConversation(): Promise<void> {
  await call(() => App.ClearConversation());
}

/** Saves the conversation through a native dialog; returns the path, "" when cancelled. */
export async function exportConversation(format: 'html' | 'md'): Promise<string> {
  return (await call(() => App.ExportConversation(format))) ?? '';
}

/** Subscribes to the events of one answer; returns the unsubscribe function. */
export function onAnswer(id: string, fn: (event: AnswerEvent) => void): () => void {
  if (!runtimeReady()) return () => {};
  return EventsOn(answerEvent(id), (event: AnswerEvent) => fn(event));
}

/** Opens an http(s) link in the system browser; anything else is refused. */
export function openExternal(url: string): boolean {
  if (!/^https?:\/\//i.test(url) || !runtimeReady()) return false;
  BrowserOpenURL(url);
  return true;
}
