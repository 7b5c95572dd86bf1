// The user's answering preferences, the providers' key status and the LLM
// catalogue, behind the settings panel.
//
// App.svelte builds the window's one instance and passes it down as a prop.
//   await settings.load();              // once at start (applies the saved language)
//   api.ask(question, settings.askOptions)   // the chat's per-question options
// SettingsPanel uses the same instance unless given another one.
//
// API keys: setKey hands the typed key to the backend and keeps nothing: no
// field of this class ever holds a key, and an error message that would
// quote it is redacted.

import catalogue from '../api/catalogue.json';
import * as api from '../api/index.ts';
import type { AskOptions, Fusion, KeyStatus, ModelStatus, RetrievalMode, Settings, SummaryPlan } from '../api/types.ts';
import { handleError } from '../errors.ts';
import { LANGS, pickLang, type Lang } from '../i18n/index.ts';
import { locale, systemLanguages, t, tm } from './locale.svelte.ts';

/** The retrieval modes, in the order the views offer them ("" = the engine's choice). */
export const RETRIEVAL_MODES: readonly RetrievalMode[] = ['', ...(catalogue.modes as RetrievalMode[])];

/** The key suffix of a retrieval mode's name (settings.mode.<key>): "auto" for the engine's choice. */
export function modeKey(mode: RetrievalMode): 'auto' | Exclude<RetrievalMode, ''> {
  return mode === '' ? 'auto' : mode;
}

/** The fusions hybrid search offers, in order: "" (the embedding model's profile), then Go's (catalogue.json). */
export const FUSIONS: readonly Fusion[] = ['', ...(catalogue.fusions as Fusion[])];

/** Passages in the prompt: the range Go accepts (catalogue.json). */
export const MIN_K = catalogue.min_k;
export const MAX_K = catalogue.max_k;
/** Rephrasings of multi-query: 1 to this (catalogue.json). */
export const MAX_VARIANTS = catalogue.max_multi_query_variants;
/** The most figures and tables described a document (catalogue.json). */
export const MAX_DESCRIBE = catalogue.max_describe;
/** The most passages summarised per PDF (session.MaxSummarize). */
export const MAX_SUMMARIZE = catalogue.max_summarize;
/** The per-pipeline controls' bounds (catalogue.json): rerank depth from 1, figures from the image list from 0
 * (off), passage size; the overlap goes from 0 to a third of the size. */
export const MAX_RERANK_DEPTH = catalogue.max_rerank_depth;
export const MAX_FIGURE_DEPTH = catalogue.max_figure_depth;
export const MIN_CHUNK_SIZE = catalogue.min_chunk_size;
export const MAX_CHUNK_SIZE = catalogue.max_chunk_size;

/** Go's defaults (session.DefaultSettings, through catalogue.json). */
export const DEFAULT_SETTINGS: Settings = { ...(catalogue.defaults as Settings) };

/** Go's ask options of the default settings (Settings.Options, through catalogue.json). */
export const DEFAULT_ASK_OPTIONS: AskOptions = { ...(catalogue.ask_defaults as AskOptions) };

/** The key of a model in the picker: "provider/id". */
export function modelKey(m: { provider: string; id: string }): string {
  return `${m.provider}/${m.id}`;
}

const PROVIDER_NAMES: Record<string, string> = Object.fromEntries(catalogue.providers.map((p) => [p.id, p.name]));

/** A provider's display name, for a backend that sends none. */
export function providerName(provider: string): string {
  return PROVIDER_NAMES[provider] ?? provider;
}

/**
 * Why a model cannot answer now, in the UI language: the kind of reason
 * and, for a model the session marked down, until when (a rate limit's
 * Retry-After, as a clock time) or that it lasts the session.
 */
export function unavailableText(m: ModelStatus): string {
  const reason = m.why ? tm({ code: `reason.${m.why}` }) : t('settings.modelUnavailable');
  if (m.until) {
    const time = new Date(m.until).toLocaleTimeString(locale.lang, { hour: '2-digit', minute: '2-digit' });
    return t('settings.unavailableUntil', { reason, time });
  }
  return m.this_session ? t('settings.unavailableSession', { reason }) : reason;
}

/** The UI language a saved locale means ("" follows the system). */
export function langOf(saved: string): Lang {
  const chosen = LANGS.find((lang) => lang === saved);
  return chosen ?? pickLang(systemLanguages());
}

export class SettingsState {
  /**
   * Cuts every document already added into passages again with the chunking
   * in force, one after the other (in Go: session.RechunkAll); progress(done, total) after each.
   */
  async rechunkAll(progress: (done: number, total: number) => void): Promise<void> {
    await api.rechunkAll(progress);
  }

  /** The persisted preferences (a copy: change them through update). */
  values = $state<Settings>({ ...DEFAULT_SETTINGS });
  loaded = $state(false);
  /** Loading or saving the preferences failed. */
  error = $state<string | null>(null);

  keys = $state.raw<KeyStatus[]>([]);
  keysError = $state<string | null>(null);
  /** A failed save or clear, by provider: shown on that provider's row. */
  keyErrors = $state<Record<string, string>>({});
  /** Providers whose key is being saved or cleared. */
  keyBusy = $state<Record<string, boolean>>({});

  models = $state.raw<ModelStatus[]>([]);
  modelsError = $state<string | null>(null);
  /** The local Ollama server's address ("" when none is configured). */
  localEndpoint = $state('');

  /** The per-question options of the saved settings, as the session computes them (App.AskOptions). */
  askOptions = $state.raw<AskOptions>(DEFAULT_ASK_OPTIONS);
  /** The manually picked model, when routing is manual. */
  readonly pickedModel: ModelStatus | undefined = $derived(
    this.values.routing === 'manual'
      ? this.models.find((m) => m.provider === this.values.provider && m.id === this.values.model)
      : undefined,
  );

  /** What summarising the documents here would cost (null until asked); its error. */
  summaryPlan = $state.raw<SummaryPlan | null>(null);
  summaryPlanError = $state<string | null>(null);

  /** Asks the session what summarising its documents would cost now (no model is asked). */
  async refreshSummaryPlan(): Promise<void> {
    try {
      this.summaryPlan = await api.summaryPlan();
      this.summaryPlanError = null;
    } catch (err) {
      this.summaryPlanError = handleError(err, t('error.generic'));
    }
  }

  /** Starts summarising every document here (library jobs); false when it could not start. */
  async summarizeLibrary(): Promise<boolean> {
    try {
      await api.summarizeLibrary();
      this.summaryPlanError = null;
      return true;
    } catch (err) {
      this.summaryPlanError = handleError(err, t('error.generic'));
      return false;
    }
  }

  /** Orders saves: only the newest one reports. */
  #saves = 0;
  #loading: Promise<void> | null = null;

  /** Loads preferences, key status and models; concurrent calls share one load. */
  load(): Promise<void> {
    this.#loading ??= this.#load().finally(() => (this.#loading = null));
    return this.#loading;
  }

  async #load(): Promise<void> {
    await Promise.all([this.#loadValues(), this.refreshKeys(), this.refreshModels(), this.#loadEndpoint()]);
  }

  async #loadEndpoint(): Promise<void> {
    try {
      this.localEndpoint = await api.localEndpoint();
    } catch {
      this.localEndpoint = ''; // the models' error already says what is wrong
    }
  }

  /** Turns the local Ollama server on or off, then lists the models again. */
  async setLocal(on: boolean): Promise<void> {
    await this.update({ ollama: on });
    await this.refreshModels();
  }

  async #loadValues(): Promise<void> {
    try {
      this.values = { ...DEFAULT_SETTINGS, ...(await api.settings()) };
      this.error = null;
      this.loaded = true;
      locale.set(langOf(this.values.locale));
      this.askOptions = await api.askOptions();
    } catch (err) {
      this.error = handleError(err, t('error.generic'));
    }
  }

  async refreshKeys(): Promise<void> {
    try {
      this.keys = await api.keyStatus();
      this.keysError = null;
    } catch (err) {
      this.keysError = handleError(err, t('error.generic'));
    }
  }

  async refreshModels(): Promise<void> {
    try {
      this.models = await api.llms();
      this.modelsError = null;
    } catch (err) {
      this.modelsError = handleError(err, t('error.generic'));
    }
  }

  /** Changes some preferences and persists them all. */
  async update(patch: Partial<Settings>): Promise<void> {
    const next = { ...this.values, ...patch };
    if (next.routing === 'auto') Object.assign(next, { provider: '', model: '' });
    next.k = Math.round(Math.min(MAX_K, Math.max(MIN_K, Number(next.k) || DEFAULT_SETTINGS.k)));
    this.values = next;
    if ('locale' in patch) locale.set(langOf(next.locale));
    const save = ++this.#saves;
    try {
      await api.setSettings($state.snapshot(next));
    } catch (err) {
      if (save === this.#saves) this.error = handleError(err, t('settings.saveFailed'));
      return;
    }
    try {
      // Saved: a failure now is reading the options back, not the save.
      const options = await api.askOptions();
      if (save === this.#saves) {
        this.error = null;
        this.askOptions = options;
      }
    } catch (err) {
      if (save === this.#saves) this.error = handleError(err, t('error.generic'));
    }
  }

  /** Picks a model by its "provider/id" key and switches to manual routing. */
  async pickModel(key: string): Promise<void> {
    const m = this.models.find((model) => modelKey(model) === key);
    if (!m) return;
    await this.update({ routing: 'manual', provider: m.provider, model: m.id });
  }

  /**
   * Stores a provider's key. Returns true once stored (the caller then
   * empties its input). The key is passed through, never kept.
   */
  async setKey(provider: string, key: string): Promise<boolean> {
    if (key.trim() === '') {
      this.#keyFailed(provider, t('settings.keyEmpty'));
      return false;
    }
    return this.#keyAction(provider, () => api.setKey(provider, key.trim()), key);
  }

  async clearKey(provider: string): Promise<boolean> {
    return this.#keyAction(provider, () => api.clearKey(provider));
  }

  async #keyAction(provider: string, action: () => Promise<void>, secret?: string): Promise<boolean> {
    this.keyBusy = { ...this.keyBusy, [provider]: true };
    this.#keyFailed(provider, null);
    try {
      await action();
      await Promise.all([this.refreshKeys(), this.refreshModels()]);
      return true;
    } catch (err) {
      let message = handleError(err, t('error.generic'));
      if (message !== null && secret) message = redact(message, secret);
      this.#keyFailed(provider, message);
      return false;
    } finally {
      this.keyBusy = { ...this.keyBusy, [provider]: false };
    }
  }

  #keyFailed(provider: string, message: string | null): void {
    const errors = { ...this.keyErrors };
    if (message === null) delete errors[provider];
    else errors[provider] = message;
    this.keyErrors = errors;
  }
}

/** Removes every occurrence of secret (and of its trimmed form) from text. */
export function redact(text: string, secret: string): string {
  let out = text;
  for (const s of new Set([secret, secret.trim()])) {
    if (s.length >= 4) out = out.split(s).join('•••');
  }
  return out;
}
