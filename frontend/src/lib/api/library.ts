// The library: adding PDFs (paths, page files, native drops), their ingest progress, the documents, and the explorer's pages, passages and searches.
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import { EventsOn, OnFileDrop, OnFileDropOff } from '../../../wailsjs/runtime/runtime';
import { fileToBase64 } from './base64.ts';
import { allOf, call, runtimeReady } from './call.ts';
import { Events } from './events.ts';
import type { Chunk, Document, Fusion, IngestProgress, Page, RetrievalMode, SearchResult } from './types.ts';

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

/**
 * Cuts every document into passages again with the saved chunk size and
 * overlap, one after the other in Go; progress(done, total) from its
 * "library:rechunk" events. Resolves to how many were cut again.
 */
export async function rechunkAll(progress: (done: number, total: number) => void): Promise<number> {
  const off = EventsOn(Events.rechunk, (p: { done: number; total: number }) => progress(p.done, p.total));
  try {
    return (await call(() => App.RechunkAll())) ?? 0;
  } finally {
    off();
  }
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

/** Where the Go asset handler serves a document's PDF bytes (for pdf.js). */
export function documentURL(docID: string): string {
  return `/docs/${encodeURIComponent(docID)}`;
}

export async function search(
  question: string,
  mode: RetrievalMode,
  fusion: Fusion,
  k: number,
  rerank: boolean,
): Promise<SearchResult> {
  return (await call(() => App.Search(question, mode, fusion, k, rerank))) as SearchResult;
}

export async function pages(docID: string): Promise<Page[]> {
  return (await allOf(async (offset) => {
    const b = await call(() => App.Pages(docID, offset));
    return b ? { items: b.pages as unknown as Page[], next: b.next, total: b.total } : null;
  })) as Page[];
}

export async function chunks(docID: string): Promise<Chunk[]> {
  return (await allOf(async (offset) => {
    const b = await call(() => App.Chunks(docID, offset));
    return b ? { items: b.chunks as unknown as Chunk[], next: b.next, total: b.total } : null;
  })) as Chunk[];
}
