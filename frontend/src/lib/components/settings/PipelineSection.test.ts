import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../../test/api/fake.ts';
import { resetAdminFake } from '../../../test/api/admin.fake.ts';
import { resetFakeApi } from '../../../test/api/fake.ts';
import { Chat } from '../../state/chat.svelte.ts';
import { locale } from '../../state/locale.svelte.ts';
import { DEFAULT_ASK_OPTIONS, DEFAULT_SETTINGS, SettingsState } from '../../state/settings.svelte.ts';
import AskBox from '../chat/AskBox.svelte';
import PipelineSection from './PipelineSection.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

beforeEach(() => {
  resetFakeApi();
  resetAdminFake();
  locale.set('en');
});

async function type(input: HTMLElement, value: string) {
  await userEvent.clear(input);
  await userEvent.type(input, value);
  await userEvent.tab();
}

describe('PipelineSection', () => {
  it('shows Go’s defaults, saves a value in range, refuses one out of range, and re-chunks every document', async () => {
    expect([DEFAULT_SETTINGS.figure_depth, DEFAULT_SETTINGS.rerank_depth, DEFAULT_SETTINGS.chunk_size, DEFAULT_SETTINGS.chunk_overlap]).toEqual([
      3, 20, 900, 150,
    ]);
    const settings = new SettingsState();
    await settings.load();
    render(PipelineSection, { settings });
    const figures = screen.getByLabelText('Figures from the image list') as HTMLInputElement;
    expect(figures.valueAsNumber).toBe(3);
    await type(figures, '0');
    expect(api.setSettings).toHaveBeenLastCalledWith(expect.objectContaining({ figure_depth: 0 }));
    const size = screen.getByLabelText('Passage size (characters)');
    api.setSettings.mockClear();
    await type(size, '50');
    expect(api.setSettings).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toContain('from 200 to 4000');
    await type(size, '600');
    expect(api.setSettings).toHaveBeenLastCalledWith(expect.objectContaining({ chunk_size: 600 }));

    await userEvent.click(screen.getByRole('button', { name: 'Re-chunk the documents already added' }));
    expect(await screen.findByText('Re-chunked 2 of 2 documents.')).toBeTruthy();
    expect(api.rechunkAll).toHaveBeenCalledOnce();
  });

  it('speaks French', async () => {
    const settings = new SettingsState();
    await settings.load();
    locale.set('fr'); // after load, which applies the saved language
    render(PipelineSection, { settings });
    expect(screen.getByText('Chaîne de recherche')).toBeTruthy();
    expect(screen.getByLabelText('Taille des passages (caractères)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Redécouper les documents déjà ajoutés' })).toBeTruthy();
  });
});

describe('the ask box’s pipeline numbers', () => {
  it('send the settings’ numbers until changed, a figure depth of 0 as 0 (off), and refuse one out of range', async () => {
    const chat = new Chat();
    render(AskBox, { chat, disabled: false });
    expect(chat.askOptions()).toMatchObject({ k: DEFAULT_ASK_OPTIONS.k, figure_depth: 3, rerank_depth: 20 });
    const figures = screen.getByRole('spinbutton', { name: 'figures' });
    await type(figures, '0');
    expect(chat.askOptions().figure_depth).toBe(0);
    const depth = screen.getByRole('spinbutton', { name: 'rerank depth' });
    await type(depth, '500');
    expect(chat.askOptions().rerank_depth).toBe(20);
    expect(depth.getAttribute('aria-invalid')).toBe('true');
    await type(screen.getByRole('spinbutton', { name: 'passages' }), '12');
    expect(chat.askOptions()).toMatchObject({ k: 12, figure_depth: 0, rerank_depth: 20 });
  });
});
