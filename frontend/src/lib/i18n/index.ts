// Every string the UI shows, in every language it speaks, split by screen
// (one module each) behind one lookup. Components never hold text of their
// own: they call t(key, params) from state/locale.svelte.ts. Messages that
// come from Go arrive as a code and parameters and are translated by
// describe (messages.ts).

import * as chat from './chat.ts';
import * as common from './common.ts';
import * as dashboard from './dashboard.ts';
import * as explorer from './explorer.ts';
import * as library from './library.ts';
import * as mindmap from './mindmap.ts';
import * as notes from './notes.ts';
import { fill, type Lang, type Message, type Params } from './lookup.ts';
import * as settings from './settings.ts';
import * as review from './review.ts';
import * as study from './study.ts';
import * as suggest from './suggest.ts';
import * as viewer from './viewer.ts';

export { LANGS, pickLang, fill, type Lang, type Message, type Params, type Plural } from './lookup.ts';
export { describe, type BridgeMessage } from './messages.ts';

const en = {
  ...common.en,
  ...library.en,
  ...chat.en,
  ...settings.en,
  ...dashboard.en,
  ...explorer.en,
  ...viewer.en,
  ...suggest.en,
  ...study.en,
  ...review.en,
  ...mindmap.en,
  ...notes.en,
};

export type MessageKey = keyof typeof en;
type Dictionary = Record<MessageKey, Message>;

const fr: Dictionary = {
  ...common.fr,
  ...library.fr,
  ...chat.fr,
  ...settings.fr,
  ...dashboard.fr,
  ...explorer.fr,
  ...viewer.fr,
  ...suggest.fr,
  ...study.fr,
  ...review.fr,
  ...mindmap.fr,
  ...notes.fr,
};

export const dictionaries: Record<Lang, Dictionary> = { en, fr };

/** Whether key is a key of the dictionaries (one built from a prefix and a value Go sent). */
export function isKey(key: string): key is MessageKey {
  return key in dictionaries.en;
}

export function translate(lang: Lang, key: MessageKey, params: Params = {}): string {
  return fill(lang, dictionaries[lang][key] ?? dictionaries.en[key], params);
}
