import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../../test/api/fake.ts';
import { defaultSettings, resetAdminFake } from '../../../test/api/admin.fake.ts';
import { resetFakeApi, sampleDocument } from '../../../test/api/fake.ts';
import { CacheState } from '../../state/cache.svelte.ts';
import { Library } from '../../state/library.svelte.ts';
import { locale } from '../../state/locale.svelte.ts';
import { Scope } from '../../state/scope.svelte.ts';
import { SettingsState } from '../../state/settings.svelte.ts';
import LibraryPanel from '../library/LibraryPanel.svelte';
import RememberSection from './RememberSection.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

const ON = { on: true, dir: '/home/ana/.cache/vika', documents: 3, bytes: 40e6, file_bytes: 42e6, max_bytes: 2 ** 31 };

beforeEach(() => {
  resetFakeApi();
  resetAdminFake();
  api.cacheInfo.mockReset();
  api.cacheInfo.mockResolvedValue({ on: false, dir: '', documents: 0, bytes: 0, file_bytes: 0, max_bytes: 0 });
  locale.set('en');
});

describe('RememberSection', () => {
  it('is off by default, says what is kept, and turning it on saves the setting and shows the size used', async () => {
    const settings = new SettingsState();
    await settings.load();
    const cache = new CacheState();
    render(RememberSection, { settings, cache });
    const box = screen.getByRole('checkbox', { name: /Remember processed documents on this computer/ }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(screen.getByText(/questions, answers and keys are never kept/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear all' })).toBeNull();

    api.cacheInfo.mockResolvedValue(ON);
    await userEvent.click(box);
    expect(api.setSettings).toHaveBeenLastCalledWith(expect.objectContaining({ remember: true }));
    expect(await screen.findByText(/3 PDFs remembered, 42(\.0)? MB used/)).toBeTruthy();
    expect(screen.getByText('Kept in /home/ana/.cache/vika')).toBeTruthy();

    api.cacheInfo.mockResolvedValue({ ...ON, documents: 0, bytes: 0, file_bytes: 4096 });
    await userEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(api.clearCache).toHaveBeenCalledTimes(1);
    expect(await screen.findByText(/0 PDFs remembered/)).toBeTruthy();
  });

  it('speaks French', async () => {
    locale.set('fr');
    api.settings.mockResolvedValue(defaultSettings({ remember: true, locale: 'fr' }));
    api.cacheInfo.mockResolvedValue(ON);
    const settings = new SettingsState();
    await settings.load();
    const cache = new CacheState();
    await cache.load();
    render(RememberSection, { settings, cache });
    expect(screen.getByRole('checkbox', { name: /Mémoriser les documents traités sur cet ordinateur/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Tout effacer' })).toBeTruthy();
    expect(screen.getByText(/3 PDF mémorisés/)).toBeTruthy();
  });
});

describe('Forget this PDF', () => {
  it('shows on each row only while the cache is on, and forgets that PDF', async () => {
    api.documents.mockResolvedValue([sampleDocument({ doc_id: 'd1', label: 'a.pdf' })]);
    const library = new Library();
    const cache = new CacheState();
    render(LibraryPanel, { library, cache, scope: new Scope() });
    await library.load();
    expect(await screen.findByText('a.pdf')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Forget this PDF/ })).toBeNull();

    api.cacheInfo.mockResolvedValue(ON);
    await cache.load();
    await userEvent.click(await screen.findByRole('button', { name: 'Forget this PDF on this computer (a.pdf)' }));
    expect(api.forgetCached).toHaveBeenCalledWith('d1');
    const done = await screen.findByRole('button', { name: 'a.pdf is no longer remembered on this computer' });
    expect((done as HTMLButtonElement).disabled).toBe(true);
  });
});
