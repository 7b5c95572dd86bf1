// The frontend's only door to the Go backend. Nothing else imports the
// generated wailsjs bindings: state classes call these functions, and tests
// replace this module with vi.mock.
//
// Go errors arrive as rejected promises carrying {message, code, params};
// call (call.ts) turns them into BridgeErrors so the rest of the app sees
// one shape.

import * as App from '../../../wailsjs/go/main/App';
import { BrowserOpenURL, EventsOn, OnFileDrop, OnFileDropOff } from '../../../wailsjs/runtime/runtime';
import { fileToBase64 } from './base64.ts';
import { backendReady, call, runtimeReady } from './call.ts';
import { answerEvent, Events } from './events.ts';
import type { Answer, AnswerEvent, AskOptions, Document, Hit, IngestProgress } from './types.ts';

/** Starts ingesting files by absolute path; returns one job id per path. */
export async function addFiles(paths: string[]): Promise<string[]> {
  return (await call(() => App.AddFiles(paths))) ?? [];
}

/** Starts ingesting a file the page holds (browser drop or file input). */
export async function addFile(file: File): Promise<string> {
  // Wails types a Go []byte argument as number[], but decodes arguments with
  // encoding/json, which reads []byte from a base64 string: a third larger
  // than the bytes, where a JSON array of numbers is three to four times larger.
  const data = (await fileToBase64(file)) as unknown as Parameters<typeof App.AddFileData>[1];
  return call(() => App.AddFileData(file.name, data));
}

/** Opens the native multi-file dialog (PDFs); [] when the user cancels. */
export async function pickFiles(): Promise<string[]> {
  return (await call(() => App.PickFiles())) ?? [];
}

export async function documents(): Promise<Document[]> {
  return (await call(() => App.Documents())) ?? [];
}

export async function removeDocument(docID: string): Promise<void> {
  await call(() => App.RemoveDocument(docID));
}

export async function search(question: string, k: number): Promise<Hit[]> {
  return (await call(() => App.Search(question, k))) ?? [];
}

/** Cancels a running job; false when it had already finished. */
export async function cancel(jobID: string): Promise<boolean> {
  return call(() => App.Cancel(jobID));
}

/** Subscribes to ingest progress; returns the unsubscribe function. */
export function onIngestProgress(fn: (progress: IngestProgress) => void): () => void {
  if (!runtimeReady()) return () => {};
  return EventsOn(Events.ingestProgress, (progress: IngestProgress) => fn(progress));
}

/**
 * True when the native window delivers dropped files as paths (Wails
 * DragAndDrop.EnableFileDrop). The page's own drop events must then be ignored,
 * or every file would be added twice.
 */
export function nativeFileDrop(): boolean {
  return typeof window !== 'undefined' && window.wails?.flags?.enableWailsDragAndDrop === true;
}

/** True inside the native app window, where native dialogs (PickFiles) work. */
export function nativeWindow(): boolean {
  if (typeof window === 'undefined') return false;
  return (
    window.chrome?.webview?.postMessage !== undefined ||
    window.webkit?.messageHandlers?.external?.postMessage !== undefined
  );
}

/** Receives files dropped anywhere on the native window, as absolute paths. */
export function onNativeFileDrop(fn: (paths: string[]) => void): () => void {
  if (!runtimeReady()) return () => {};
  OnFileDrop((_x: number, _y: number, paths: string[]) => fn(paths), false);
  return () => OnFileDropOff();
}

// Answers (issue 5's bound methods). The generated classes type kind and
// stage as plain strings; types.ts narrows them to the values Go sends.

/** A fresh id for an answer: subscribe with onAnswer(id) before ask(id, …). */
export function newAskID(): string {
  return `q-${crypto.randomUUID()}`;
}

/**
 * Starts answering question under id and resolves with it. Subscribe to
 * onAnswer(id) first: the backend may send the first events before this resolves.
 */
export async function ask(id: string, question: string, opts: AskOptions): Promise<string> {
  return call(() => App.Ask(id, question, opts));
}

/** Stops an answer; what arrived is kept. False when it had already finished. */
export async function cancelAsk(id: string): Promise<boolean> {
  return call(() => App.CancelAsk(id));
}

/** The session's finished turns, oldest first. */
export async function conversation(): Promise<Answer[]> {
  return ((await call(() => App.Conversation())) ?? []) as unknown as Answer[];
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

/** Where the Go asset handler serves a document's PDF bytes (for pdf.js). */
export function documentURL(docID: string): string {
  return `/docs/${encodeURIComponent(docID)}`;
}

/**
 * Writes a failure of the page to the app's stderr (Go's
 * ReportFrontendError). Never throws and never logs: it is called from the
 * error handlers themselves (lib/errorreport.ts).
 */
export function reportError(kind: string, message: string): void {
  if (!backendReady()) return;
  try {
    App.ReportFrontendError(kind, message).catch(() => {});
  } catch {
    // the bridge itself is gone: nothing left to report to
  }
}

export * from './admin.ts';
export { BackendUnavailableError, BridgeError } from './call.ts';
