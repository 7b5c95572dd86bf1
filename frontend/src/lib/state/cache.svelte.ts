// The processed-document cache as the window sees it: on or off (the
// setting lives in SettingsState), its size, "Forget this PDF" and "Clear
// all", and its notices (a damaged entry rebuilt, a full disk).
//
// App.svelte builds the window's one instance; the settings and the
// library get it as a prop.
//   cache.start();           // listens to the notices; returns the unsubscribe
//   await cache.load();      // after the setting changes

import * as api from '../api/index.ts';
import type { BridgeMessage } from '../i18n/index.ts';
import type { CacheInfo } from '../api/types.ts';
import { handleError } from '../errors.ts';
import { t, tm } from './locale.svelte.ts';

const OFF: CacheInfo = { on: false, dir: '', documents: 0, bytes: 0, file_bytes: 0, max_bytes: 0 };

export class CacheState {
  info = $state<CacheInfo>({ ...OFF });
  busy = $state(false);
  error = $state<string | null>(null);
  /** The last notice, translated when shown (tm). */
  notice = $state<BridgeMessage | null>(null);
  /** Document ids forgotten in this session (their row says so). */
  forgotten = $state<string[]>([]);

  start(): () => void {
    return api.onCacheNotice((m) => {
      this.notice = m;
      void this.load();
    });
  }

  async load(): Promise<void> {
    try {
      this.info = await api.cacheInfo();
      this.error = null;
    } catch (err) {
      this.error = handleError(err, t('cache.failed'));
    }
  }

  async forget(docID: string): Promise<void> {
    this.busy = true;
    try {
      await api.forgetCached(docID);
      this.forgotten = [...this.forgotten, docID];
      await this.load();
    } catch (err) {
      this.error = handleError(err, t('cache.failed'));
    } finally {
      this.busy = false;
    }
  }

  async clear(): Promise<void> {
    this.busy = true;
    try {
      await api.clearCache();
      await this.load();
    } catch (err) {
      this.error = handleError(err, t('cache.failed'));
    } finally {
      this.busy = false;
    }
  }

  /** The notice in the UI language, or ''. */
  get noticeText(): string {
    return this.notice ? tm(this.notice) : '';
  }

  dismissNotice(): void {
    this.notice = null;
  }
}
