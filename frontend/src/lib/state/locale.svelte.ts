// The UI language: follows the system (navigator.languages) and can be
// switched at run time; every t() call re-renders when it changes.

import { describe, LANGS, pickLang, translate, type BridgeMessage, type Lang, type MessageKey, type Params } from '../i18n/index.ts';

/** The user's preferred languages, as the system gives them. */
export function systemLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

export class Locale {
  lang = $state<Lang>(pickLang(systemLanguages()));

  readonly available = LANGS;

  set(lang: Lang): void {
    this.lang = lang;
  }

  t = (key: MessageKey, params?: Params): string => translate(this.lang, key, params);

  /** Translates a message from Go (a code and its parameters). */
  tm = (m: BridgeMessage): string => describe(this.lang, m);
}

export const locale = new Locale();

/** Translates key in the current language. */
export const t = locale.t;

/** Translates a message from Go in the current language. */
export const tm = locale.tm;
