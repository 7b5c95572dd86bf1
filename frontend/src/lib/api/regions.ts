// Tables, figures and display formulas: a document's regions (explorer) and
// the region an answer's source was made from (sources panel).
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import { call } from './call.ts';
import type { Region } from './types.ts';

/** A document's tables, figures and formulas in page order, figures with their crop. */
export async function regions(docID: string): Promise<Region[]> {
  return ((await call(() => App.Regions(docID))) ?? []) as Region[];
}

/** The table or figure a passage was made from; null for any other passage. */
export async function sourceRegion(chunkID: string): Promise<Region | null> {
  const r = (await call(() => App.SourceRegion(chunkID))) as Region | null;
  return r && r.kind !== '' ? r : null;
}
