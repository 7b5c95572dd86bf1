import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../test/api/fake.ts';
import { defaultSettings, resetAdminFake, sampleKeyStatus, sampleModel } from '../../test/api/fake.ts';
import { locale, t } from './locale.svelte.ts';
import { DEFAULT_ASK_OPTIONS, DEFAULT_SETTINGS, redact, SettingsState, unavailableText } from './settings.svelte.ts';

vi.mock('../api/index.ts', () => import('../../test/api/fake.ts'));

const KEY = 'gsk_live_9f8e7d6c5b4a39281706';

/** Everything the state exposes, as text: a key must never appear in it. */
function dump(s: SettingsState): string {
  return JSON.stringify({
    values: s.values,
    keys: s.keys,
    keyErrors: s.keyErrors,
    keyBusy: s.keyBusy,
    models: s.models,
    error: s.error,
    keysError: s.keysError,
    modelsError: s.modelsError,
    askOptions: s.askOptions,
  });
}

beforeEach(() => {
  resetAdminFake();
  locale.set('en');
});

describe('SettingsState loading', () => {
  it('loads preferences, key status and models, and applies the saved language', async () => {
    api.settings.mockResolvedValue(defaultSettings({ k: 12, hyde: true, locale: 'fr' }));
    api.keyStatus.mockResolvedValue([sampleKeyStatus({ configured: true, source: 'keyring' })]);
    api.llms.mockResolvedValue([sampleModel()]);
    const s = new SettingsState();
    await s.load();

    expect(s.loaded).toBe(true);
    expect(s.values).toMatchObject({ k: 12, hyde: true, locale: 'fr' });
    expect(s.keys).toEqual([sampleKeyStatus({ configured: true, source: 'keyring' })]);
    expect(s.models).toEqual([sampleModel()]);
    expect(locale.lang).toBe('fr');
  });

  it('reports each failure where it belongs and keeps the rest', async () => {
    api.settings.mockRejectedValue(new Error('settings file is not valid JSON'));
    api.llms.mockRejectedValue('catalogue unreadable');
    api.keyStatus.mockResolvedValue([sampleKeyStatus()]);
    const s = new SettingsState();
    await s.load();

    expect(s.error).toBe('settings file is not valid JSON');
    expect(s.modelsError).toBe('catalogue unreadable');
    expect(s.keysError).toBeNull();
    expect(s.keys).toHaveLength(1);
    expect(s.values).toEqual(defaultSettings());
  });
});

describe('SettingsState preferences', () => {
  it('persists every change in full', async () => {
    const s = new SettingsState();
    await s.update({ mode: 'bm25', rerank: false });
    expect(api.setSettings).toHaveBeenLastCalledWith(defaultSettings({ mode: 'bm25', rerank: false }));
    expect(s.values.mode).toBe('bm25');
  });

  it('keeps the number of passages whole and in the range Go accepts (1 to rag.MaxK = 50)', async () => {
    const s = new SettingsState();
    await s.update({ k: 500 });
    expect(s.values.k).toBe(50);
    await s.update({ k: 0.4 });
    expect(s.values.k).toBe(1);
    await s.update({ k: 5.6 });
    expect(s.values.k).toBe(6);
  });

  it('picks a model by provider/id and switches to manual routing; automatic forgets the pick', async () => {
    const s = new SettingsState();
    s.models = [sampleModel(), sampleModel({ provider: 'gemini', id: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash' })];
    await s.pickModel('gemini/gemini-2.5-flash');
    expect(s.values).toMatchObject({ routing: 'manual', provider: 'gemini', model: 'gemini-2.5-flash' });
    expect(s.pickedModel?.name).toBe('Gemini 2.5 Flash');

    await s.update({ routing: 'auto' });
    expect(s.values).toMatchObject({ routing: 'auto', provider: '', model: '' });
  });

  it('switches the interface language at once, "" following the system', async () => {
    const s = new SettingsState();
    await s.update({ locale: 'fr' });
    expect(locale.lang).toBe('fr');
    vi.stubGlobal('navigator', { languages: ['en-GB'], language: 'en-GB' });
    await s.update({ locale: '' });
    expect(locale.lang).toBe('en');
  });

  it('shows a failed save, and clears it when a later save works', async () => {
    const s = new SettingsState();
    api.setSettings.mockRejectedValueOnce(new Error('permission denied: ~/.config/vika/settings.json'));
    await s.update({ hyde: true });
    expect(s.error).toBe('permission denied: ~/.config/vika/settings.json');
    await s.update({ hyde: false });
    expect(s.error).toBeNull();
  });
});

describe('SettingsState keys', () => {
  it('hands the key to the backend, refreshes the status, and keeps nothing of it', async () => {
    const s = new SettingsState();
    api.keyStatus.mockResolvedValue([sampleKeyStatus({ configured: true, source: 'keyring' })]);
    api.llms.mockResolvedValue([sampleModel()]);

    expect(await s.setKey('groq', `  ${KEY}\n`)).toBe(true);
    expect(api.setKey).toHaveBeenCalledWith('groq', KEY);
    expect(s.keys[0]).toMatchObject({ configured: true, source: 'keyring' });
    expect(api.llms).toHaveBeenCalled();
    expect(s.keyBusy.groq).toBe(false);
    expect(dump(s)).not.toContain(KEY);
    expect(dump(s)).not.toContain(KEY.slice(0, 12));
  });

  it('puts a failure on the provider, with the key redacted if the message quotes it', async () => {
    const s = new SettingsState();
    api.setKey.mockRejectedValueOnce(new Error(`invalid API key "${KEY}" for groq`));
    expect(await s.setKey('groq', KEY)).toBe(false);
    expect(s.keyErrors.groq).toBe('invalid API key "•••" for groq');
    expect(dump(s)).not.toContain(KEY);
  });

  it('refuses an empty key without calling the backend', async () => {
    const s = new SettingsState();
    expect(await s.setKey('groq', '   ')).toBe(false);
    expect(api.setKey).not.toHaveBeenCalled();
    expect(s.keyErrors.groq).toBe('Paste a key first.');
  });

  it('clears a key and the provider’s previous error', async () => {
    const s = new SettingsState();
    await s.setKey('groq', '');
    expect(await s.clearKey('groq')).toBe(true);
    expect(api.clearKey).toHaveBeenCalledWith('groq');
    expect(s.keyErrors).toEqual({});
  });
});

describe('askOptions', () => {
  it('are the options the session computes from the saved settings, fetched at load and after each save', async () => {
    const s = new SettingsState();
    expect(s.askOptions).toEqual(DEFAULT_ASK_OPTIONS); // Go's, through catalogue.json, until the session answers
    expect(DEFAULT_ASK_OPTIONS).toMatchObject({ provider: '', model: '', k: DEFAULT_SETTINGS.k, rerank: DEFAULT_SETTINGS.rerank });

    const loaded = { ...DEFAULT_ASK_OPTIONS, k: 12, hyde: true };
    api.askOptions.mockResolvedValueOnce(loaded);
    await s.load();
    expect(s.askOptions).toEqual(loaded);

    const manual = { ...DEFAULT_ASK_OPTIONS, provider: 'groq', model: 'x', mode: 'dense' as const };
    api.askOptions.mockResolvedValueOnce(manual);
    await s.update({ routing: 'manual', provider: 'groq', model: 'x', mode: 'dense' });
    expect(s.askOptions).toEqual(manual);

    api.setSettings.mockRejectedValueOnce(new Error('disk full'));
    await s.update({ k: 3 });
    expect(s.askOptions).toEqual(manual); // a save that failed changes nothing the chat sends
  });

  it('do not report a save that succeeded as failed when only reading them back fails', async () => {
    const s = new SettingsState();
    api.askOptions.mockRejectedValueOnce(new Error(''));
    await s.update({ k: 5 });
    expect(api.setSettings).toHaveBeenCalled();
    expect(s.error).toBe(t('error.generic'));
    expect(s.error).not.toBe(t('settings.saveFailed'));
  });
});

describe('redact', () => {
  it('removes every copy of the secret and ignores tiny ones', () => {
    expect(redact('a KEY1234 b KEY1234', 'KEY1234')).toBe('a ••• b •••');
    expect(redact('abc', 'ab')).toBe('abc');
  });
});

describe('unavailableText', () => {
  it('says why a model cannot answer, until when a rate limit holds, or that a mark lasts the session', () => {
    const until = new Date(2026, 11, 1, 21, 34).getTime();
    const limited = sampleModel({ available: false, why: 'rate_limited', until });
    expect(unavailableText(limited)).toBe(`rate limited until ${new Date(until).toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' })}`);
    expect(unavailableText(limited)).toMatch(/21:34|9:34/);
    expect(unavailableText(sampleModel({ available: false, why: 'quota', this_session: true }))).toBe('quota used up for this session');
    expect(unavailableText(sampleModel({ available: false, why: 'no_key' }))).toBe('no API key');
    expect(unavailableText(sampleModel({ available: false }))).toBe('unavailable');
    locale.set('fr');
    expect(unavailableText(limited)).toBe('limite de débit atteinte jusqu’à 21:34');
    expect(unavailableText(sampleModel({ available: false, why: 'quota', this_session: true }))).toMatch(/ pour cette session$/);
  });
});
