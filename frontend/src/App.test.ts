import { render, screen } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from './lib/api/fake.ts';
import { resetFakeApi, sampleDocument } from './lib/api/fake.ts';
import { locale } from './lib/state/locale.svelte.ts';
import App from './App.svelte';

vi.mock('./lib/api/index.ts', () => import('./lib/api/fake.ts'));

beforeEach(() => {
  resetFakeApi();
  locale.set('en');
});

describe('App', () => {
  it('starts empty: teaches adding a PDF on both sides', () => {
    render(App);
    expect(screen.getByRole('heading', { name: 'Library' })).toBeTruthy();
    expect(screen.getByText('Drop lecture notes, papers or slides here…')).toBeTruthy();
    expect(screen.getByText('Add a PDF first')).toBeTruthy();
    expect(api.onIngestProgress).toHaveBeenCalledTimes(1);
    expect(api.onNativeFileDrop).toHaveBeenCalledTimes(1);
  });

  it('loads the session documents and unsubscribes when closed', async () => {
    api.documents.mockResolvedValue([sampleDocument()]);
    const { unmount } = render(App);
    expect(await screen.findByText('lecture_sat.pdf')).toBeTruthy();
    expect(screen.queryByText('Add a PDF first')).toBeNull();
    unmount();
  });

  it('speaks French when asked to', async () => {
    locale.set('fr');
    render(App);
    expect(screen.getByText('Ajoutez d’abord un PDF')).toBeTruthy();
    expect(document.documentElement.lang).toBe('fr');
  });
});
