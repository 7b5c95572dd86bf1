import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../api/fake.ts';
import { sampleHit } from '../api/fake.ts';
import { locale } from './locale.svelte.ts';
import { DEFAULT_K, Search } from './search.svelte.ts';

vi.mock('../api/index.ts', () => import('../api/fake.ts'));

beforeEach(() => locale.set('en'));

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('Search', () => {
  it('goes idle -> searching -> done with the hits', async () => {
    const search = new Search();
    expect(search.status).toBe('idle');
    const answer = deferred<ReturnType<typeof sampleHit>[]>();
    api.search.mockReturnValue(answer.promise);

    search.question = '  what is SAT?  ';
    const running = search.run();
    expect(search.status).toBe('searching');
    expect(api.search).toHaveBeenCalledWith('what is SAT?', DEFAULT_K);

    answer.resolve([sampleHit()]);
    await running;
    expect(search.status).toBe('done');
    expect(search.hits).toEqual([sampleHit()]);
    expect(search.asked).toBe('what is SAT?');
    expect(search.error).toBeNull();
  });

  it('names the files still being added when it searched', async () => {
    let pending = ['slides.pdf', 'thesis.pdf'];
    const search = new Search(() => pending);
    api.search.mockResolvedValue([sampleHit()]);
    search.question = 'what is SAT?';
    await search.run();
    expect(search.pendingAtAsk).toEqual(['slides.pdf', 'thesis.pdf']);

    pending = [];
    await search.run();
    expect(search.pendingAtAsk).toEqual([]);
  });

  it('does nothing for a blank question', async () => {
    const search = new Search();
    search.question = '   \n ';
    expect(search.canSearch).toBe(false);
    await search.run();
    expect(api.search).not.toHaveBeenCalled();
    expect(search.status).toBe('idle');
  });

  it('reports an error readably and keeps the previous hits', async () => {
    const search = new Search();
    search.question = 'first';
    api.search.mockResolvedValueOnce([sampleHit()]);
    await search.run();

    search.question = 'second';
    api.search.mockRejectedValueOnce('index not ready: still indexing lecture_sat.pdf');
    await search.run();
    expect(search.status).toBe('error');
    expect(search.error).toBe('index not ready: still indexing lecture_sat.pdf');
    expect(search.hits).toEqual([sampleHit()]);
    expect(search.asked).toBe('first');
  });

  it('clears the error on the next search', async () => {
    const search = new Search();
    search.question = 'q';
    api.search.mockRejectedValueOnce(new Error('boom'));
    await search.run();
    expect(search.error).toBe('boom');
    await search.run();
    expect(search.error).toBeNull();
    expect(search.status).toBe('done');
  });

  it('treats a cancellation as silent', async () => {
    const search = new Search();
    search.question = 'q';
    api.search.mockRejectedValueOnce(new Error('search: context canceled'));
    await search.run();
    expect(search.status).toBe('idle');
    expect(search.error).toBeNull();
  });

  it('never lets a slow answer overwrite a newer one', async () => {
    const search = new Search();
    const slow = deferred<ReturnType<typeof sampleHit>[]>();
    api.search.mockReturnValueOnce(slow.promise).mockResolvedValueOnce([sampleHit({ chunk_id: 'new' })]);

    search.question = 'old';
    const first = search.run();
    search.question = 'new';
    await search.run();
    slow.resolve([sampleHit({ chunk_id: 'old' })]);
    await first;

    expect(search.asked).toBe('new');
    expect(search.hits.map((h) => h.chunk_id)).toEqual(['new']);
  });

  it('forgets everything on reset', async () => {
    const search = new Search();
    search.question = 'q';
    api.search.mockResolvedValueOnce([sampleHit()]);
    await search.run();
    search.reset();
    expect(search).toMatchObject({ status: 'idle', hits: [], asked: '', error: null });
  });
});
