// The lookup shared by every screen's strings: languages, message shapes,
// and filling a message's {name} placeholders. A message with one/other
// forms is chosen by Intl.PluralRules on params.count.

export const LANGS = ['en', 'fr'] as const;
export type Lang = (typeof LANGS)[number];

export type Plural = { one: string; other: string };
export type Message = string | Plural;
export type Params = Record<string, string | number>;

/** The first supported language among the user's preferences (navigator.languages). */
export function pickLang(preferred: readonly string[]): Lang {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    const match = LANGS.find((lang) => lang === base);
    if (match) return match;
  }
  return 'en';
}

/** Fills message's placeholders from params, picking its plural form in lang. */
export function fill(lang: Lang, message: Message, params: Params = {}): string {
  const template =
    typeof message === 'string'
      ? message
      : new Intl.PluralRules(lang).select(Number(params.count ?? 0)) === 'one'
        ? message.one
        : message.other;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
