import { describe as group, expect, it } from 'vitest';
import codes from './codes.json';
import { LANGS } from './lookup.ts';
import { bridgeTexts, describe, isCancelled } from './messages.ts';

function placeholders(text: unknown): string[] {
  return [...new Set(String(text).match(/\{\w+\}/g) ?? [])].sort();
}

group('messages from Go', () => {
  it('has an English and a French text for every code Go can send (codes.json)', () => {
    expect(codes.length).toBeGreaterThan(30);
    for (const lang of LANGS) {
      for (const code of codes) {
        const text = bridgeTexts[lang][code];
        expect(typeof text === 'string' && text !== '', `${lang} ${code}`).toBe(true);
        expect(placeholders(text), `${lang} ${code}`).toEqual(placeholders(bridgeTexts.en[code]));
      }
      expect(Object.keys(bridgeTexts[lang]).sort()).toEqual(Object.keys(bridgeTexts.en).sort());
    }
  });

  it('translates an ingest error with its parameters', () => {
    const m = { code: 'ingest.too_large', params: { size: '120 MB', limit: '100 MB' } };
    expect(describe('en', m)).toBe('The file is too large: 120 MB, the limit is 100 MB.');
    expect(describe('fr', m)).toBe('Le fichier est trop volumineux : 120 MB, la limite est de 100 MB.');
  });

  it('says what a file that is not a PDF looks like', () => {
    expect(describe('en', { code: 'ingest.not_pdf', params: { looks: 'text' } })).toBe(
      'This file is not a PDF (it looks like a plain text file).',
    );
    expect(describe('fr', { code: 'ingest.not_pdf', params: { looks: 'png' } })).toBe(
      'Ce fichier n’est pas un PDF (on dirait une image PNG).',
    );
    expect(describe('fr', { code: 'ingest.not_pdf', params: { looks: '' } })).toBe('Ce fichier n’est pas un PDF.');
  });

  it('translates a fallback notice, its reason and the next model', () => {
    const m = { code: 'notice.fallback', params: { model: 'Gemini 2.5 Flash', reason: 'rate_limited', next: 'Mistral Small' } };
    expect(describe('fr', m)).toBe('Gemini 2.5 Flash est indisponible (limite de débit atteinte). Essai de Mistral Small.');
    const last = { code: 'notice.fallback', params: { model: 'Mistral Small', reason: 'quota', next: '' } };
    expect(describe('en', last)).toBe('Mistral Small is unavailable (quota used up). No other model is available.');
  });

  it('lists the models still to try after a fallback, in the window’s language', () => {
    const m = {
      code: 'notice.fallback',
      params: { model: 'Gemini 2.5 Flash-Lite', reason: 'rate_limited', next: 'Llama 3.1 8B (Groq)', later: ['Gemini 2.5 Flash', 'Mistral Small', 'Gemini 2.5 Pro'] },
    };
    expect(describe('en', m)).toBe(
      'Gemini 2.5 Flash-Lite is unavailable (rate limited). Trying Llama 3.1 8B (Groq), then Gemini 2.5 Flash, Mistral Small, and Gemini 2.5 Pro.',
    );
    expect(describe('fr', m)).toBe(
      'Gemini 2.5 Flash-Lite est indisponible (limite de débit atteinte). Essai de Llama 3.1 8B (Groq), puis de Gemini 2.5 Flash, Mistral Small et Gemini 2.5 Pro.',
    );
  });

  it('says a model is asked again after a wait', () => {
    const m = { code: 'notice.retry', params: { model: 'Gemini 2.5 Flash', reason: 'unavailable', seconds: 5 } };
    expect(describe('fr', m)).toBe('Gemini 2.5 Flash n’a pas répondu (indisponible) ; nouvel essai dans 5 s.');
  });

  it('lists the attempts of an answer no model could give', () => {
    const m = {
      code: 'answer.exhausted',
      params: { attempts: [{ model: 'Gemini', reason: 'rate_limited' }, { model: 'Groq', reason: 'strange' }] },
    };
    expect(describe('fr', m)).toContain('Gemini (limite de débit atteinte) ; Groq (échec)');
  });

  it('says a study reply followed no format, naming the models in the language, and the fallback it caused', () => {
    const m = { code: 'study.unformatted', params: { models: ['Gemini 2.5 Flash-Lite', 'Llama 3.1 8B (Groq)'] } };
    expect(describe('en', m)).toBe(
      'The model’s reply did not follow the format asked for (no SUMMARY:, TERM: or Q:/A: line; tried: Gemini 2.5 Flash-Lite and Llama 3.1 8B (Groq)), so nothing was made. Try again, or pick another model.',
    );
    expect(describe('fr', m)).toBe(
      'La réponse du modèle ne suivait pas le format demandé (aucune ligne SUMMARY:, TERM: ou Q:/A: ; essayé : Gemini 2.5 Flash-Lite et Llama 3.1 8B (Groq)) : rien n’a été fait. Réessayez, ou choisissez un autre modèle.',
    );
    const n = { code: 'notice.fallback', params: { model: 'Gemini 2.5 Flash-Lite', reason: 'unformatted', next: 'Llama 3.1 8B (Groq)' } };
    expect(describe('fr', n)).toBe('Gemini 2.5 Flash-Lite est indisponible (réponse hors du format demandé). Essai de Llama 3.1 8B (Groq).');
  });

  it('says which describing model failed and how, and why a description was refused', () => {
    const m = { code: 'describe.failed', params: { model: 'Gemini 2.5 Flash', reason: 'rate_limited' } };
    expect(describe('fr', m)).toBe(
      'Gemini 2.5 Flash n’a pas pu décrire ce document (limite de débit atteinte) ; ce qui a été décrit est conservé. Réessayez plus tard ou choisissez un autre modèle dans les Réglages.',
    );
    expect(describe('en', { code: 'refused.braces_open', params: { count: 2 } })).toBe('2 braces are left open');
    expect(describe('fr', { code: 'cite.page_not_source' })).toBe('page absente des sources');
  });

  it('shows the Go text of an unknown code rather than nothing', () => {
    expect(describe('fr', { code: 'no.such', params: { detail: 'disk full' } })).toBe(
      'Une erreur est survenue : disk full',
    );
    expect(isCancelled({ code: 'error.cancelled' })).toBe(true);
    expect(isCancelled({ code: 'error.other', params: { detail: 'context canceled' } })).toBe(false);
  });
});
