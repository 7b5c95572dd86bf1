// The processed-document cache (Settings, "Remember processed documents on
// this computer"): its size, forgetting one PDF, clearing it, its notices.
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import { EventsOn } from '../../../wailsjs/runtime/runtime';
import { call, runtimeReady } from './call.ts';
import { Events } from './events.ts';
import type { BridgeMessage } from '../i18n/index.ts';
import type { CacheInfo } from './types.ts';

/** Whether the cache is on, and what it holds. */
export async function cacheInfo(): Promise<CacheInfo> {
  return (await call(() => App.CacheInfo())) as CacheInfo;
}

/** Deletes what the cache keeps of one PDF (by its document id). */
export async function forgetCached(docID: string): Promise<void> {
  await call(() => App.ForgetCached(docID));
}

/** Empties the cache. */
export async function clearCache(): Promise<void> {
  await call(() => App.ClearCache());
}

/** Subscribes to the cache's notices (a damaged entry rebuilt, a full disk). */
export function onCacheNotice(fn: (m: BridgeMessage) => void): () => void {
  if (!runtimeReady()) return () => {};
  return EventsOn(Events.cacheNotice, (m: BridgeMessage) => fn(m));
}
