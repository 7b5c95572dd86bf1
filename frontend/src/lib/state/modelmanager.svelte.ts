// The model manager: the registry's optional embedding and reranking models,
// whether each is installed, and their downloads with progress.
//
// Downloads outlive the settings panel: App.svelte's one instance listens to
// "models:progress" from its first start() for the rest of the session.
// The backend runs one download per model, named by the model.

import * as api from '../api/index.ts';
import type { LocalModel, ModelOffer, ModelProgress, ReembedProgress } from '../api/types.ts';
import { BridgeError } from '../api/call.ts';
import { handleError } from '../errors.ts';
import { t } from './locale.svelte.ts';

export interface Download {
  /** Bytes of the file in transfer; total 0 while unknown. */
  done: number;
  total: number;
  /** 1-based index of that file among files; 0 before the first event. */
  fileIndex: number;
  files: number;
  cancelling: boolean;
}

export interface ManagedModel extends LocalModel {
  /** Present while downloading. */
  download?: Download;
  /** Why the last download failed, shown on the model's row. */
  error?: string;
}

function started(): Download {
  return { done: 0, total: 0, fileIndex: 0, files: 0, cancelling: false };
}

export class ModelManager {
  models = $state<ManagedModel[]>([]);
  loaded = $state(false);
  /** Listing the models failed. */
  error = $state<string | null>(null);
  /** The offer "Better search for English and French"; null until loaded. */
  offer = $state<ModelOffer | null>(null);
  /** The last event of the switch to newly installed embedding models; null before any. */
  reembed = $state<ReembedProgress | null>(null);
  /** The offer was accepted in this window: its progress stays shown until closed. */
  accepted = $state(false);
  /** Why answering the offer failed. */
  offerError = $state<string | null>(null);

  #stop: (() => void) | null = null;

  /** Subscribes to download and switch progress (once); returns the function that unsubscribes. */
  start(): () => void {
    if (!this.#stop) {
      const stopProgress = api.onModelProgress((progress) => this.apply(progress));
      const stopReembed = api.onReembed((progress) => this.applyReembed(progress));
      this.#stop = () => {
        stopProgress();
        stopReembed();
      };
    }
    return () => {
      this.#stop?.();
      this.#stop = null;
    };
  }

  /** The offer's first-run card shows: unanswered with models to offer, or accepted in this window. */
  get offerShown(): boolean {
    const o = this.offer;
    if (!o) return false;
    return this.accepted || (o.answer === '' && o.models.length > 0);
  }

  async loadOffer(): Promise<void> {
    try {
      this.offer = await api.modelOffer();
    } catch (err) {
      handleError(err, t('error.generic'));
    }
  }

  /** Remembers the answer; accepting starts the downloads (their rows show progress). */
  async answerOffer(accept: boolean): Promise<void> {
    this.offerError = null;
    try {
      await api.answerModelOffer(accept);
      if (this.offer) this.offer.answer = accept ? 'accepted' : 'declined';
      this.accepted = accept;
      if (accept) {
        for (const m of this.offer?.models ?? []) {
          const row = this.#find(m.name);
          if (row && !row.installed) row.download ??= started();
        }
        await this.load();
      }
    } catch (err) {
      this.offerError = handleError(err, t('error.generic'));
    }
  }

  /** Closes the accepted offer's card. */
  closeOffer(): void {
    this.accepted = false;
  }

  /** Applies one "models:reembed" event. */
  applyReembed(progress: ReembedProgress): void {
    this.reembed = progress;
  }

  /** The offered models still downloading. */
  get offerDownloads(): ManagedModel[] {
    const names = new Set((this.offer?.models ?? []).map((m) => m.name));
    return this.models.filter((m) => names.has(m.name) && m.download);
  }

  async load(): Promise<void> {
    try {
      const list = await api.localModels();
      // Keep what is known of downloads in flight; adopt those started elsewhere.
      this.models = list.map((m) => {
        const old = this.models.find((o) => o.name === m.name);
        const download = m.downloading ? (old?.download ?? started()) : undefined;
        return { ...m, download, error: old?.error };
      });
      this.error = null;
      this.loaded = true;
    } catch (err) {
      this.error = handleError(err, t('error.generic'));
    }
  }

  async download(name: string): Promise<void> {
    const model = this.#find(name);
    if (!model || model.download || model.installed) return;
    model.error = undefined;
    model.download = started();
    try {
      await api.downloadModel(name);
    } catch (err) {
      const current = this.#find(name);
      if (!current) return;
      current.download = undefined;
      const message = handleError(err, t('error.generic'));
      if (message !== null) current.error = message;
    }
  }

  async cancel(name: string): Promise<void> {
    const download = this.#find(name)?.download;
    if (!download || download.cancelling) return;
    download.cancelling = true;
    try {
      // Its last event clears the row; when none was running, reload instead.
      if (!(await api.cancelModelDownload(name))) await this.load();
    } catch (err) {
      download.cancelling = false;
      const model = this.#find(name);
      const message = handleError(err, t('error.generic'));
      if (model && message !== null) model.error = message;
    }
  }

  /** Applies one "models:progress" event. */
  apply(progress: ModelProgress): void {
    const model = this.#find(progress.name);
    if (!model) return;
    if (progress.finished) {
      model.download = undefined;
      if (progress.error) {
        model.error = progress.problem
          ? handleError(new BridgeError({ message: progress.error, ...progress.problem }), t('error.generic')) ?? undefined
          : handleError(progress.error, t('error.generic')) ?? undefined;
      } else {
        model.installed = true;
        model.error = undefined;
        void this.loadOffer();
      }
      return;
    }
    const download = (model.download ??= started());
    download.done = progress.done_bytes;
    download.total = Math.max(0, progress.total_bytes);
    download.fileIndex = progress.file_index;
    download.files = progress.files;
  }

  dismissError(name: string): void {
    const model = this.#find(name);
    if (model) model.error = undefined;
  }

  #find(name: string): ManagedModel | undefined {
    return this.models.find((m) => m.name === name);
  }
}
