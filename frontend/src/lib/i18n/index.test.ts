import { describe, expect, it } from 'vitest';
import catalogue from '../api/catalogue.json';
import { dictionaries, LANGS, pickLang, translate, type Message } from './index.ts';

function placeholders(message: Message): string[] {
  const text = typeof message === 'string' ? message : message.one + message.other;
  return [...new Set(text.match(/\{\w+\}/g) ?? [])].sort();
}

describe('i18n', () => {
  it('follows the first supported system language', () => {
    expect(pickLang(['fr-FR', 'en-US'])).toBe('fr');
    expect(pickLang(['de-DE', 'en-GB'])).toBe('en');
    expect(pickLang(['de-DE'])).toBe('en');
    expect(pickLang([])).toBe('en');
  });

  it('has every message in every language, with the same placeholders', () => {
    const keys = Object.keys(dictionaries.en).sort();
    for (const lang of LANGS) {
      expect(Object.keys(dictionaries[lang]).sort()).toEqual(keys);
      for (const key of keys as (keyof typeof dictionaries.en)[]) {
        const message = dictionaries[lang][key];
        expect(typeof message === 'string' ? message : message.other, `${lang} ${key}`).not.toBe('');
        expect(placeholders(message), `${lang} ${key}`).toEqual(placeholders(dictionaries.en[key]));
      }
    }
  });

  it('names every stage Go sends (catalogue.json) in every language', () => {
    for (const lang of LANGS) {
      const keys = new Set(Object.keys(dictionaries[lang]));
      for (const stage of catalogue.stages.ingest) expect(keys.has(`stage.${stage}`), `${lang} stage.${stage}`).toBe(true);
      for (const stage of catalogue.stages.answer) expect(keys.has(`chat.stage.${stage}`), `${lang} chat.stage.${stage}`).toBe(true);
    }
    expect(catalogue.stages.ingest.length).toBeGreaterThan(8);
    expect(catalogue.stages.answer).toEqual(['rewriting', 'retrieving', 'generating']);
  });

  it('names every passage kind and retrieval mode Go lists (catalogue.json) in every language', () => {
    for (const lang of LANGS) {
      const keys = new Set(Object.keys(dictionaries[lang]));
      const { text, layout, marks } = catalogue.kinds;
      for (const kind of [...text, ...layout, ...marks]) expect(keys.has(`explorer.kind.${kind}`), `${lang} explorer.kind.${kind}`).toBe(true);
      for (const kind of ['text', ...layout, ...marks]) expect(keys.has(`pipeline.kind.${kind}`), `${lang} pipeline.kind.${kind}`).toBe(true);
      for (const mode of ['auto', ...catalogue.modes]) {
        expect(keys.has(`settings.mode.${mode}`), `${lang} settings.mode.${mode}`).toBe(true);
        expect(keys.has(`settings.mode.${mode}.help`), `${lang} settings.mode.${mode}.help`).toBe(true);
      }
    }
    expect(catalogue.kinds.text).toEqual(['body', 'front', 'references']);
    expect(catalogue.modes).toEqual(['dense', 'bm25', 'hybrid']);
  });

  it('fills placeholders and picks plural forms per language', () => {
    expect(translate('en', 'doc.pages', { count: 1 })).toBe('1 page');
    expect(translate('en', 'doc.pages', { count: 0 })).toBe('0 pages');
    expect(translate('fr', 'doc.pages', { count: 0 })).toBe('0 page');
    expect(translate('fr', 'doc.pages', { count: 42 })).toBe('42 pages');
    expect(translate('en', 'cache.used', { count: 1, size: '2.3 MB', cap: '2.1 GB' })).toBe('1 PDF remembered, 2.3 MB used (at most 2.1 GB)');
    expect(translate('fr', 'cache.used', { count: 1, size: '2,3 Mo', cap: '2,1 Go' })).toBe('1 PDF mémorisé, 2,3 Mo utilisés (au plus 2,1 Go)');
    expect(translate('en', 'doc.remove', { name: 'a.pdf' })).toBe('Remove a.pdf');
    expect(translate('en', 'doc.remove')).toBe('Remove {name}');
  });
});
