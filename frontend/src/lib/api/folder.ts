// Folders and drops: a folder picked and every PDF under it added, and what was dropped on the native window.
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import { call } from './call.ts';
import type { Dropped, FolderBatch } from './types.ts';

/** Asks for a folder to add; '' when cancelled. */
export async function pickFolder(): Promise<string> {
  return (await call(() => App.PickFolder())) ?? '';
}

/** Starts adding every PDF under a folder; returns the batch. */
export async function addFolder(path: string): Promise<FolderBatch> {
  return (await call(() => App.AddFolder(path))) as FolderBatch;
}

/** Starts adding what was dropped on the native window: files, and every PDF of a folder. */
export async function addDropped(paths: string[]): Promise<Dropped> {
  return (await call(() => App.AddDropped(paths))) as Dropped;
}
