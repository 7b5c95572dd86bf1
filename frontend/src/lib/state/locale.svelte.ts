// The UI language: follows the system (navigator.languages) and can be
// switched at run time; every t() call re-renders when it changes.

import { describe, isKey, LANGS, pickLang, translate, type BridgeMessage, type Lang, type MessageKey, type Params } from '../i18n/index.ts';

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

  /** The text of the key prefix + value (`explorer.kind.` and a passage's kind), or the value itself when
   * no key names it (a value newer than the page): the page lists no values Go sends. */
  named = (prefix: string, value: string, params?: Params): string => {
    const key = prefix + value;
    return isKey(key) ? this.t(key, params) : value;
  };

  /** Translates a message from Go (a code and its parameters). */
  tm = (m: BridgeMessage): string => describe(this.lang, m);
}

export const locale = new Locale();

/** Translates key in the current language. */
export const t = locale.t;

/** Translates the key prefix + value, or gives the value when no key names it. */
export const named = locale.named;

/** Translates a message from Go in the current language. */
export const tm = locale.tm;
