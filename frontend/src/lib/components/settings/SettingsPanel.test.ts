import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../../test/api/fake.ts';
import {
  defaultSettings,
  emitModelProgress,
  emitReembed,
  modelProgress,
  resetAdminFake,
  sampleLocalModel,
  sampleKeyStatus,
  sampleModel,
  sampleOffer,
} from '../../../test/api/fake.ts';
import { locale } from '../../state/locale.svelte.ts';
import { ModelManager } from '../../state/modelmanager.svelte.ts';
import { SettingsState } from '../../state/settings.svelte.ts';
import { CacheState } from '../../state/cache.svelte.ts';
import SettingsPanel from './SettingsPanel.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

const KEY = 'gsk_live_9f8e7d6c5b4a39281706';

function setup() {
  const settings = new SettingsState();
  const models = new ModelManager();
  const cache = new CacheState();
  const view = render(SettingsPanel, { settings, models, cache });
  return { settings, models, cache, ...view };
}

beforeEach(() => {
  resetAdminFake();
  locale.set('en');
  api.keyStatus.mockResolvedValue([
    sampleKeyStatus({ provider: 'groq', configured: false, source: '' }),
    sampleKeyStatus({ provider: 'gemini', configured: true, source: 'keyring', env_var: 'GEMINI_API_KEY' }),
    sampleKeyStatus({ provider: 'mistral', configured: true, source: 'env', env_var: 'MISTRAL_API_KEY' }),
  ]);
});

describe('SettingsPanel keys', () => {
  it('shows only whether each key is configured, and where from', async () => {
    setup();
    expect(await screen.findByText('Not configured')).toBeTruthy();
    expect(screen.getByText('Configured (system keyring)')).toBeTruthy();
    expect(screen.getByText('Configured (environment variable MISTRAL_API_KEY)')).toBeTruthy();
    expect(screen.getByLabelText('Groq')).toHaveProperty('type', 'password');
    // A key from the environment cannot be removed here.
    expect(screen.getAllByRole('button', { name: 'Remove' })).toHaveLength(1);
  });

  it('says once, readably, that the keyring is unavailable, and still lists every provider', async () => {
    const detail = "failed to unlock correct collection '/org/freedesktop/secrets/aliases/default'";
    const problem = { code: 'keyring.failed', params: { detail } };
    api.keyStatus.mockResolvedValue([
      sampleKeyStatus({ provider: 'groq', configured: false, source: '', env_var: 'GROQ_API_KEY', keyring_error: problem }),
      sampleKeyStatus({ provider: 'mistral', configured: true, source: 'env', env_var: 'MISTRAL_API_KEY', keyring_error: problem }),
    ]);
    setup();
    const alert = await screen.findByText(/Your system keyring is locked or not running/);
    expect(alert.textContent).toContain('GROQ_API_KEY, MISTRAL_API_KEY');
    expect(screen.getAllByText(/Your system keyring is locked/)).toHaveLength(1);
    expect(screen.getByLabelText('Groq')).toHaveProperty('type', 'password');
    expect(screen.getByText('Configured (environment variable MISTRAL_API_KEY)')).toBeTruthy();
    // The details: a code translated, with the keyring's own text.
    expect(screen.getByText(`The system keyring failed: ${detail}`)).toBeTruthy();
    locale.set('fr');
    expect(await screen.findByText(`Le trousseau système a échoué : ${detail}`)).toBeTruthy();
  });

  it('saves a key, then empties the input so the key is nowhere in the page or the state', async () => {
    const { settings, container } = setup();
    const input = (await screen.findByLabelText('Groq')) as HTMLInputElement;
    api.keyStatus.mockResolvedValue([sampleKeyStatus({ provider: 'groq', configured: true, source: 'keyring' })]);

    await userEvent.type(input, KEY);
    const row = input.closest('li') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Save' }));

    expect(api.setKey).toHaveBeenCalledWith('groq', KEY);
    expect(await within(row).findByText('Configured (system keyring)')).toBeTruthy();
    expect(input.value).toBe('');
    expect(container.innerHTML).not.toContain(KEY);
    expect(JSON.stringify([settings.values, settings.keys, settings.keyErrors, settings.models])).not.toContain(KEY);
  });

  it('keeps the typed key and shows the error on its provider when saving fails', async () => {
    setup();
    const input = (await screen.findByLabelText('Groq')) as HTMLInputElement;
    api.setKey.mockRejectedValueOnce(new Error('the system keyring is not available'));
    await userEvent.type(input, `${KEY}{Enter}`);
    const row = input.closest('li') as HTMLElement;
    expect((await within(row).findByRole('alert')).textContent).toBe('the system keyring is not available');
    expect(input.value).toBe(KEY);
  });

  it('removes a key from the keyring', async () => {
    setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    expect(api.clearKey).toHaveBeenCalledWith('gemini');
  });
});

describe('SettingsPanel figures', () => {
  it('describes figures only with a vision model, names the provider that gets them, and saves the cap', async () => {
    api.llms.mockResolvedValue([
      sampleModel(),
      sampleModel({ provider: 'gemini', id: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash', vision: true }),
      sampleModel({ provider: 'mistral', id: 'pixtral-12b-latest', name: 'Pixtral 12B', vision: true, available: false, why: 'no_key' }),
    ]);
    setup();
    const toggle = (await screen.findByRole('checkbox', { name: /Describe figures with a vision model/ })) as HTMLInputElement;
    await vi.waitFor(() => expect(toggle.disabled).toBe(false));
    expect(screen.queryByText(/are sent to/)).toBeNull();
    await userEvent.click(toggle);
    expect(api.setSettings).toHaveBeenLastCalledWith(
      defaultSettings({ describe: true, describe_model: 'gemini/gemini-2.5-flash' }),
    );
    expect(screen.getByRole('note').textContent).toContain('are sent to Google Gemini (Gemini 2.5 Flash)');
    const select = screen.getByLabelText('Describe figures with') as HTMLSelectElement;
    const names = [...select.options].map((o) => o.textContent);
    expect(names).toEqual(['Gemini 2.5 Flash', 'Pixtral 12B — no API key']);

    await userEvent.click(screen.getByRole('checkbox', { name: /Also summarise tables/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Also transcribe formulas into LaTeX/ }));
    expect(screen.getByRole('note').textContent).toContain('its formula images if LaTeX is on');
    const cap = screen.getByLabelText('Figures, tables and formulas described per PDF');
    await userEvent.clear(cap);
    await userEvent.type(cap, '5');
    await userEvent.tab();
    expect(api.setSettings).toHaveBeenLastCalledWith(
      defaultSettings({
        describe: true,
        describe_model: 'gemini/gemini-2.5-flash',
        describe_tables: true,
        describe_formulas: true,
        describe_max: 5,
      }),
    );
    await userEvent.clear(cap);
    await userEvent.type(cap, '0');
    await userEvent.tab();
    expect((await screen.findByRole('alert')).textContent).toContain('from 1 to 500');
  });

  it('cannot be turned on without a vision model, and says so', async () => {
    api.llms.mockResolvedValue([sampleModel()]);
    setup();
    expect(await screen.findByText(/No vision model is available/)).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: /Describe figures/ }) as HTMLInputElement).disabled).toBe(true);
  });

  it('speaks French', async () => {
    locale.set('fr');
    api.settings.mockResolvedValue(defaultSettings({ describe: true, describe_model: 'gemini/gemini-2.5-flash', locale: 'fr' }));
    api.llms.mockResolvedValue([sampleModel({ provider: 'gemini', id: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash', vision: true })]);
    setup();
    expect((await screen.findByRole('note')).textContent).toContain('sont envoyés à Google Gemini (Gemini 2.5 Flash)');
  });
});

describe('SettingsPanel answers', () => {
  it('lists unavailable models disabled, with their reason', async () => {
    api.settings.mockResolvedValue(defaultSettings({ routing: 'manual' }));
    api.llms.mockResolvedValue([
      sampleModel(),
      sampleModel({ provider: 'gemini', id: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash', available: false, why: 'no_key' }),
    ]);
    setup();
    const select = (await screen.findByLabelText('Model used for answers')) as HTMLSelectElement;
    const llama = within(select).getByRole('option', { name: 'Llama 3.1 8B' }) as HTMLOptionElement;
    const gemini = within(select).getByRole('option', { name: 'Gemini 2.5 Flash — no API key' }) as HTMLOptionElement;
    expect(llama.disabled).toBe(false);
    expect(gemini.disabled).toBe(true);
    // The reason is a code (why), translated.
    locale.set('fr');
    expect(await within(select).findByRole('option', { name: 'Gemini 2.5 Flash — pas de clé d’API' })).toBeTruthy();
    locale.set('en');

    await userEvent.selectOptions(select, 'groq/llama-3.1-8b-instant');
    expect(api.setSettings).toHaveBeenLastCalledWith(
      defaultSettings({ routing: 'manual', provider: 'groq', model: 'llama-3.1-8b-instant' }),
    );
  });

  it('hides the picker with automatic routing and saves the choice', async () => {
    setup();
    await screen.findByText('Not configured');
    expect(screen.queryByLabelText('Model used for answers')).toBeNull();
    await userEvent.click(screen.getByRole('radio', { name: /Choose a model/ }));
    expect(api.setSettings).toHaveBeenLastCalledWith(defaultSettings({ routing: 'manual' }));
    expect(screen.getByLabelText('Model used for answers')).toBeTruthy();
  });

  it('saves retrieval mode, passages and toggles', async () => {
    const { settings } = setup();
    await screen.findByText('Not configured');
    await userEvent.click(screen.getByRole('radio', { name: /Keywords \(BM25\)/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Hypothetical answer/ }));
    const k = screen.getByLabelText('Passages given to the model');
    await userEvent.clear(k);
    await userEvent.type(k, '12');
    await userEvent.tab();
    expect(settings.values).toMatchObject({ mode: 'bm25', hyde: true, k: 12 });
    expect(api.setSettings).toHaveBeenLastCalledWith(defaultSettings({ mode: 'bm25', hyde: true, k: 12 }));

    await userEvent.clear(k);
    await userEvent.type(k, '99');
    await userEvent.tab();
    expect(screen.getByText('Enter a whole number from 1 to 50.')).toBeTruthy();
    expect(settings.values.k).toBe(12);
  });

  it('offers hybrid search’s fusions, the model’s own first, and saves the one chosen', async () => {
    const { settings } = setup();
    await screen.findByText('Not configured');
    const fusion = screen.getByRole('combobox', { name: 'Fusion in hybrid search' }) as HTMLSelectElement;
    expect(within(fusion).getAllByRole('option').map((o) => [o.getAttribute('value'), o.textContent?.trim()])).toEqual([
      ['', 'The model’s measured choice'],
      ['convex', 'Weighted sum of scores'],
      ['rrf', 'Reciprocal rank fusion (RRF)'],
    ]);
    expect(fusion.value).toBe('');
    await userEvent.selectOptions(fusion, 'rrf');
    expect(settings.values.fusion).toBe('rrf');
    expect(api.setSettings).toHaveBeenLastCalledWith(defaultSettings({ fusion: 'rrf' }));
  });

  it('switches the interface language', async () => {
    setup();
    await userEvent.click(await screen.findByRole('radio', { name: 'Français' }));
    expect(locale.lang).toBe('fr');
    expect(await screen.findByText('Réglages')).toBeTruthy();
    expect(api.setSettings).toHaveBeenLastCalledWith(defaultSettings({ locale: 'fr' }));
  });
});

describe('SettingsPanel model manager', () => {
  it('downloads a model with a progress bar, then shows it installed', async () => {
    api.localModels.mockResolvedValue([
      sampleLocalModel(),
      sampleLocalModel({ name: 'ms-marco-MiniLM-L-6-v2', role: 'reranker', installed: true, pinned: true }),
    ]);
    setup();
    expect(await screen.findAllByText(/quantized for this processor/)).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Download all-MiniLM-L6-v2' }));
    expect(api.downloadModel).toHaveBeenCalledWith('all-MiniLM-L6-v2');
    expect(await screen.findByText('Starting…')).toBeTruthy();

    emitModelProgress(modelProgress({ name: 'all-MiniLM-L6-v2', done_bytes: 45_500_000, total_bytes: 91_000_000 }));
    const bar = await screen.findByRole('progressbar', { name: 'Downloading all-MiniLM-L6-v2' });
    expect(bar.getAttribute('aria-valuenow')).toBe('45500000');
    expect(screen.getByText('File 1 of 2: 45.5 MB of 91 MB')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Cancel downloading all-MiniLM-L6-v2' }));
    expect(api.cancelModelDownload).toHaveBeenCalledWith('all-MiniLM-L6-v2');

    emitModelProgress(modelProgress({ name: 'all-MiniLM-L6-v2', finished: true }));
    await vi.waitFor(() => expect(screen.getAllByText('Installed')).toHaveLength(2));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('says what the figure-search model does, its size and that nothing leaves the computer, in English and French', async () => {
    api.localModels.mockResolvedValue([
      sampleLocalModel({ name: 'clip-vit-base-patch32', role: 'image', size_mb: 156, variant: 'int8', languages: ['en'] }),
    ]);
    setup();
    const name = await screen.findByText('clip-vit-base-patch32');
    const row = name.closest('li')!;
    expect(within(row).getByText('figure search')).toBeTruthy();
    expect(row.textContent).toContain('156 MB');
    expect(row.textContent).toContain('quantized (8-bit)');
    expect(within(row).getByText(/Finds figures by what they show/).textContent).toContain('nothing leaves it');
    await userEvent.click(screen.getByRole('radio', { name: 'Français' }));
    expect(await within(row).findByText('recherche de figures')).toBeTruthy();
    expect(within(row).getByText(/Trouve les figures par ce qu’elles montrent/).textContent).toContain('rien n’en sort');
    expect(row.textContent).toContain('quantifié (8 bits)');
  });

  it('shows a failed download on the model it concerns', async () => {
    api.localModels.mockResolvedValue([sampleLocalModel()]);
    setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Download all-MiniLM-L6-v2' }));
    emitModelProgress(modelProgress({ name: 'all-MiniLM-L6-v2', finished: true, error: 'offline: no route to huggingface.co' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent?.trim()).toBe('Download failed: offline: no route to huggingface.co');
    expect(alert.closest('li')?.textContent).toContain('all-MiniLM-L6-v2');
  });
});

describe('SettingsPanel model offer', () => {
  it('offers the models in plain words, and accepting downloads them and shows the switch', async () => {
    api.localModels.mockResolvedValue(sampleOffer().models);
    api.modelOffer.mockResolvedValue(sampleOffer());
    setup();
    const title = await screen.findByRole('heading', {
      name: 'Better search for English and French: download 2 models (about 498 MB)',
    });
    const card = title.closest('section')!;
    expect(within(card).getByText(/documents never leave this computer/)).toBeTruthy();
    expect(within(card).getByText(/French documents are searched by meaning too/)).toBeTruthy();
    // The backend lists them downloading once the answer has started them.
    api.localModels.mockResolvedValue(sampleOffer().models.map((m) => ({ ...m, downloading: true })));
    await userEvent.click(within(card).getByRole('button', { name: 'Download (498 MB)' }));
    expect(api.answerModelOffer).toHaveBeenCalledWith(true);
    expect(await within(card).findByText('Downloading bge-small-en-v1.5, multilingual-e5-small…')).toBeTruthy();

    emitReembed({ stage: 'embedding', done: 120, total: 480, models: ['bge-small-en-v1.5', 'multilingual-e5-small'] });
    const bar = await within(card).findByRole('progressbar', { name: 'Preparing the documents for the new search model' });
    expect(bar.getAttribute('aria-valuenow')).toBe('120');
    expect(within(card).getByText(/120 of 480 passages\. Questions use the current model meanwhile\./)).toBeTruthy();
    emitReembed({ stage: 'done', done: 480, total: 480, models: ['bge-small-en-v1.5', 'multilingual-e5-small'] });
    expect(await within(card).findByText('Search now uses bge-small-en-v1.5, multilingual-e5-small.')).toBeTruthy();
  });

  it('remembers Not now, and says it in French', async () => {
    api.settings.mockResolvedValue(defaultSettings({ locale: 'fr' }));
    api.modelOffer.mockResolvedValue(sampleOffer());
    setup();
    const title = await screen.findByRole('heading', {
      name: /Meilleure recherche en anglais et en français.:.télécharger 2 modèles \(environ 498.Mo\)/,
    });
    const card = title.closest('section')!;
    expect(within(card).getByText(/Vos documents ne quittent jamais cet ordinateur/)).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Plus tard' }));
    expect(api.answerModelOffer).toHaveBeenCalledWith(false);
    await vi.waitFor(() => expect(within(card).queryByRole('button', { name: 'Plus tard' })).toBeNull());
    expect(within(card).getByRole('button', { name: /Télécharger/ })).toBeTruthy();
  });

  it('shows no offer once every offered model is installed', async () => {
    api.modelOffer.mockResolvedValue(sampleOffer({ models: [], size_mb: 0 }));
    setup();
    await screen.findByText('Search models');
    await vi.waitFor(() => expect(api.modelOffer).toHaveBeenCalled());
    expect(screen.queryByText(/Better search for English and French/)).toBeNull();
  });
});

describe('SettingsPanel local Ollama', () => {
  it('is off by default, shows its address, and lists the models again once turned on', async () => {
    api.localEndpoint.mockResolvedValue('http://127.0.0.1:11434');
    setup();
    const box = await screen.findByRole('checkbox', { name: /Use the Ollama server on this computer/ });
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(await screen.findByText(/At http:\/\/127\.0\.0\.1:11434\. Off, nothing is sent to it\./)).toBeTruthy();
    const before = api.llms.mock.calls.length;
    await userEvent.click(box);
    expect(api.setSettings).toHaveBeenLastCalledWith(expect.objectContaining({ ollama: true }));
    await vi.waitFor(() => expect(api.llms.mock.calls.length).toBe(before + 1));
  });

  it('speaks French', async () => {
    locale.set('fr');
    api.settings.mockResolvedValue(defaultSettings({ locale: 'fr' }));
    api.localEndpoint.mockResolvedValue('http://127.0.0.1:11434');
    setup();
    expect(await screen.findByRole('checkbox', { name: /Utiliser le serveur Ollama de cet ordinateur/ })).toBeTruthy();
    expect(await screen.findByText(/À l’adresse http:\/\/127\.0\.0\.1:11434\./)).toBeTruthy();
  });
});
