import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../test/api/fake.ts';
import { emitModelProgress, modelProgress, resetAdminFake, sampleLocalModel } from '../../test/api/fake.ts';
import { locale } from './locale.svelte.ts';
import { ModelManager } from './modelmanager.svelte.ts';

vi.mock('../api/index.ts', () => import('../../test/api/fake.ts'));

const MINILM = sampleLocalModel();
const RERANKER = sampleLocalModel({ name: 'ms-marco-MiniLM-L-6-v2', role: 'reranker', installed: true });
const NAME = 'all-MiniLM-L6-v2';

async function loaded(): Promise<ModelManager> {
  api.localModels.mockResolvedValue([MINILM, RERANKER]);
  const m = new ModelManager();
  m.start();
  await m.load();
  return m;
}

beforeEach(() => {
  resetAdminFake();
  locale.set('en');
});

describe('ModelManager', () => {
  it('lists the registry with installed state', async () => {
    const m = await loaded();
    expect(m.models.map((x) => [x.name, x.role, x.installed])).toEqual([
      [NAME, 'embedder', false],
      ['ms-marco-MiniLM-L-6-v2', 'reranker', true],
    ]);
  });

  it('downloads with per-file progress and marks the model installed when finished', async () => {
    const m = await loaded();
    await m.download(NAME);
    expect(api.downloadModel).toHaveBeenCalledWith(NAME);
    expect(m.models[0]?.download).toMatchObject({ done: 0, total: 0, fileIndex: 0 });

    emitModelProgress(modelProgress({ name: NAME, done_bytes: 30_000_000, total_bytes: 90_000_000 }));
    expect(m.models[0]?.download).toMatchObject({ done: 30_000_000, total: 90_000_000, fileIndex: 1, files: 2 });

    emitModelProgress(modelProgress({ name: NAME, file: 'tokenizer.json', file_index: 2, done_bytes: 5, total_bytes: -1 }));
    expect(m.models[0]?.download).toMatchObject({ done: 5, total: 0, fileIndex: 2 });

    emitModelProgress(modelProgress({ name: NAME, finished: true }));
    expect(m.models[0]?.download).toBeUndefined();
    expect(m.models[0]?.installed).toBe(true);
  });

  it('shows a failed download on its model, and a cancellation silently', async () => {
    const m = await loaded();
    await m.download(NAME);
    emitModelProgress(modelProgress({ name: NAME, finished: true, error: 'offline: huggingface.co cannot be reached' }));
    expect(m.models[0]).toMatchObject({ installed: false, error: 'offline: huggingface.co cannot be reached' });
    expect(m.models[0]?.download).toBeUndefined();

    m.dismissError(NAME);
    await m.download(NAME);
    await m.cancel(NAME);
    expect(api.cancelModelDownload).toHaveBeenCalledWith(NAME);
    expect(m.models[0]?.download?.cancelling).toBe(true);
    emitModelProgress(
      modelProgress({
        name: NAME,
        finished: true,
        error: 'download cancelled; it resumes where it stopped next time',
        problem: { code: 'error.cancelled' },
      }),
    );
    expect(m.models[0]?.error).toBeUndefined();
    expect(m.models[0]?.download).toBeUndefined();
  });

  it('reloads when the download to cancel had already ended', async () => {
    const m = await loaded();
    await m.download(NAME);
    api.cancelModelDownload.mockResolvedValueOnce(false);
    api.localModels.mockResolvedValue([{ ...MINILM, installed: true }, RERANKER]);
    await m.cancel(NAME);
    expect(m.models[0]).toMatchObject({ installed: true, download: undefined });
  });

  it('puts a refused download on its row', async () => {
    const m = await loaded();
    api.downloadModel.mockRejectedValueOnce(new Error('model is already downloading: all-MiniLM-L6-v2'));
    await m.download(NAME);
    expect(m.models[0]).toMatchObject({ error: 'model is already downloading: all-MiniLM-L6-v2', download: undefined });
  });

  it('does not download an installed model or one already downloading', async () => {
    const m = await loaded();
    await m.download('ms-marco-MiniLM-L-6-v2');
    await m.download(NAME);
    await m.download(NAME);
    expect(api.downloadModel).toHaveBeenCalledTimes(1);
  });

  it('keeps a download in flight across a reload, and adopts one started before', async () => {
    api.localModels.mockResolvedValue([{ ...MINILM, downloading: true }, RERANKER]);
    const m = new ModelManager();
    m.start();
    await m.load();
    expect(m.models[0]?.download).toMatchObject({ done: 0, fileIndex: 0 });
    emitModelProgress(modelProgress({ name: NAME, done_bytes: 7 }));
    await m.load();
    expect(m.models[0]?.download?.done).toBe(7);
  });

  it('reports a listing failure', async () => {
    api.localModels.mockRejectedValue(new Error('registry unreadable'));
    const m = new ModelManager();
    await m.load();
    expect(m.error).toBe('registry unreadable');
  });
});
