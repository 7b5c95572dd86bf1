import { render, screen } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sampleDocument } from '../../../test/api/fake.ts';
import { locale } from '../../state/locale.svelte.ts';
import DocumentInfo from './DocumentInfo.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

beforeEach(() => locale.set('en'));

describe('DocumentInfo’s passages and vectors', () => {
  it('counts the vectors by the model that embedded them', () => {
    render(DocumentInfo, { doc: sampleDocument({ chunks: 41, vectors: { 'use-lite': 41, clip: 3 } }) });
    expect(screen.getByText('41 passages · embedded by clip (3 vectors), use-lite (41 vectors)')).toBeTruthy();
  });

  it('says "embedding…" while the vectors are computed, never a false count of 0', () => {
    render(DocumentInfo, { doc: sampleDocument({ chunks: 41, embedding: true }) });
    expect(screen.getByText('41 passages · embedding… (keyword search works meanwhile)')).toBeTruthy();
    expect(screen.queryByText(/0 vectors|not embedded/)).toBeNull();
  });

  it('says when no model embedded the document, in French too', () => {
    locale.set('fr');
    render(DocumentInfo, { doc: sampleDocument({ chunks: 1 }) });
    expect(screen.getByText('1 passage · non vectorisés (recherche par mots-clés seule)')).toBeTruthy();
  });
});

describe('a document being embedded', () => {
  it('is listed again until its vectors are counted', async () => {
    const { Library, EMBEDDING_POLL_MS } = await import('../../state/library.svelte.ts');
    const api = await import('../../../test/api/fake.ts');
    vi.useFakeTimers();
    try {
      api.documents.mockResolvedValueOnce([sampleDocument({ doc_id: 'a', chunks: 5, embedding: true })]);
      api.documents.mockResolvedValueOnce([sampleDocument({ doc_id: 'a', chunks: 5, vectors: { 'use-lite': 5 } })]);
      const lib = new Library();
      await lib.load();
      expect(lib.documents[0]?.embedding).toBe(true);
      await vi.advanceTimersByTimeAsync(EMBEDDING_POLL_MS + 10);
      expect(lib.documents[0]?.vectors).toEqual({ 'use-lite': 5 });
      const calls = api.documents.mock.calls.length;
      await vi.advanceTimersByTimeAsync(3 * EMBEDDING_POLL_MS);
      expect(api.documents.mock.calls.length).toBe(calls); // final: no more listing
    } finally {
      vi.useRealTimers();
    }
  });
});
