import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../test/api/fake.ts';
import { resetAdminFake, sampleChunk, samplePage, sampleRegion, sampleSearchResult } from '../../test/api/fake.ts';
import { BridgeError } from '../api/call.ts';
import type { Fusion, Page } from '../api/types.ts';
import { DEFAULT_LOOKUP_K, Explorer, PAGE_STEP } from './explorer.svelte.ts';
import { locale } from './locale.svelte.ts';

vi.mock('../api/index.ts', () => import('../../test/api/fake.ts'));

beforeEach(() => {
  resetAdminFake();
  locale.set('en');
});

describe('Explorer documents', () => {
  it('loads a document’s pages in order and its chunks', async () => {
    api.pages.mockResolvedValue([samplePage({ page: 2 }), samplePage({ page: 1 })]);
    api.chunks.mockResolvedValue([sampleChunk()]);
    const e = new Explorer(() => true);
    await e.select('a3f1c9');
    expect(api.pages).toHaveBeenCalledWith('a3f1c9');
    expect(api.chunks).toHaveBeenCalledWith('a3f1c9');
    expect(e.pages.map((p) => p.page)).toEqual([1, 2]);
    expect(e.chunks).toHaveLength(1);
    expect(e.loading).toBe(false);
  });

  it('loads a document’s tables, figures and formulas and counts each tab', async () => {
    api.pages.mockResolvedValue([samplePage({ page: 1 })]);
    api.chunks.mockResolvedValue([sampleChunk(), sampleChunk({ chunk_id: 'c2' })]);
    api.regions.mockResolvedValueOnce([
      sampleRegion(),
      sampleRegion({ kind: 'table', page: 6, caption: 'Table 4: Error rates.', text: '| a | b |', image: '' }),
      sampleRegion({ kind: 'figure', page: 8, caption: 'Figure 5.' }),
    ]);
    const e = new Explorer(() => true);
    await e.select('a3f1c9');
    expect(api.regions).toHaveBeenCalledWith('a3f1c9');
    expect(e.regionsOf('figure').map((r) => r.page)).toEqual([3, 8]);
    expect(e.regionsOf('table').map((r) => r.caption)).toEqual(['Table 4: Error rates.']);
    expect([e.count('pages'), e.count('chunks'), e.count('table'), e.count('figure'), e.count('formula')]).toEqual([1, 2, 1, 2, 0]);
    await e.select('');
    expect(e.regions).toEqual([]);
  });

  it('never shows a slow document over the one chosen after it', async () => {
    let release: (pages: Page[]) => void = () => {};
    api.pages
      .mockReturnValueOnce(new Promise((resolve) => (release = resolve)))
      .mockResolvedValueOnce([samplePage({ doc_id: 'b', page: 7 })]);
    const e = new Explorer(() => true);
    const first = e.select('a');
    await e.select('b');
    release([samplePage({ doc_id: 'a' })]);
    await first;
    expect(e.docID).toBe('b');
    expect(e.pages.map((p) => p.doc_id)).toEqual(['b']);
  });

  it('reports a failure and forgets a document that left the session', async () => {
    api.pages.mockRejectedValue(new Error('unknown document'));
    const e = new Explorer(() => true);
    await e.select('gone');
    expect(e.error).toBe('unknown document');
    e.keepOnly(['other']);
    expect(e.docID).toBe('');
  });

  it('shows rows by steps', () => {
    const e = new Explorer(() => true);
    expect(e.limit).toBe(PAGE_STEP);
    e.showMore();
    expect(e.limit).toBe(2 * PAGE_STEP);
    e.showTab('chunks');
    expect(e).toMatchObject({ tab: 'chunks', limit: PAGE_STEP });
  });
});

describe('Explorer lookup', () => {
  it('searches with the chosen mode and k, and keeps the result', async () => {
    api.search.mockResolvedValue(sampleSearchResult());
    const e = new Explorer(() => true);
    e.query = '  satisfiable  ';
    e.mode = 'bm25';
    e.k = 5;
    await e.lookup();
    expect(api.search).toHaveBeenCalledWith('satisfiable', 'bm25', '', 5, true);
    expect(e.result?.hits).toHaveLength(1);
    expect(e.asked).toBe('satisfiable');
    expect(e.searching).toBe(false);
  });

  it('does nothing for a blank query and shows errors', async () => {
    const e = new Explorer(() => true);
    e.query = '  ';
    expect(e.canLookup).toBe(false);
    await e.lookup();
    expect(api.search).not.toHaveBeenCalled();

    e.query = 'x';
    api.search.mockRejectedValueOnce(new Error('dense retrieval unavailable: no embedding model'));
    await e.lookup();
    expect(e.lookupError).toBe('dense retrieval unavailable: no embedding model');
  });

  it('searches by meaning, keywords or both with the settings’ fusion, and translates dense mode’s coded error', async () => {
    api.search.mockResolvedValue(sampleSearchResult());
    let fusion: Fusion = 'rrf';
    const e = new Explorer(() => false, () => fusion);
    e.query = 'entropy';
    for (const mode of ['dense', 'bm25', 'hybrid'] as const) {
      e.mode = mode;
      await e.lookup();
      expect(api.search).toHaveBeenLastCalledWith('entropy', mode, 'rrf', DEFAULT_LOOKUP_K, false);
    }
    fusion = '';
    await e.lookup();
    expect(api.search).toHaveBeenLastCalledWith('entropy', 'hybrid', '', DEFAULT_LOOKUP_K, false);

    e.mode = 'dense';
    api.search.mockRejectedValueOnce(
      new BridgeError({ code: 'search.dense_unavailable', message: 'dense search is unavailable', params: { detail: 'no embedding model' } }),
    );
    await e.lookup();
    expect(e.lookupError).toBe('Searching by meaning needs an embedding model, and none is loaded (no embedding model). Search by keywords instead.');
    locale.set('fr');
    api.search.mockRejectedValueOnce(new BridgeError({ code: 'search.dense_unavailable', params: { detail: 'x' } }));
    await e.lookup();
    expect(e.lookupError).toMatch(/^La recherche par le sens demande un modèle de plongement/);
    locale.set('en');
  });

  it('treats null hits as none', async () => {
    api.search.mockResolvedValue(sampleSearchResult({ hits: null }));
    const e = new Explorer(() => true);
    e.query = 'x';
    await e.lookup();
    expect(e.result?.hits).toEqual([]);
  });
});
