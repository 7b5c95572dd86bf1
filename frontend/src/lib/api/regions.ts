// Tables, figures and display formulas: a document's regions (explorer) and
// the region an answer's source was made from (sources panel).
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import { allOf, call } from './call.ts';
import type { Region } from './types.ts';

/** A document's tables, figures and formulas in page order, figures with their crop, read run after run. */
export async function regions(docID: string): Promise<Region[]> {
  return (await allOf(async (offset) => {
    const b = await call(() => App.Regions(docID, offset));
    return b ? { items: b.regions as unknown as Region[], next: b.next, total: b.total } : null;
  })) as Region[];
}

/** The table or figure a passage was made from; null for any other passage. */
export async function sourceRegion(chunkID: string): Promise<Region | null> {
  const r = (await call(() => App.SourceRegion(chunkID))) as Region | null;
  return r && r.kind !== '' ? r : null;
}
