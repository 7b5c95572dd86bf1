import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../../test/api/fake.ts';
import { requestQuit, resetFakeApi } from '../../../test/api/fake.ts';
import { CourseFiles } from '../../state/course.svelte.ts';
import { Library } from '../../state/library.svelte.ts';
import { locale } from '../../state/locale.svelte.ts';
import { QuitQuestion } from '../../state/quit.svelte.ts';
import QuitQuestionView from './QuitQuestion.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

function setup() {
  const quit = new QuitQuestion(new CourseFiles(new Library()));
  quit.start();
  render(QuitQuestionView, { quit });
  return quit;
}

beforeEach(() => {
  resetFakeApi();
  locale.set('en');
});

describe('The quit question', () => {
  it('is shown when the window is asked to close with unsaved work, and Cancel goes back', async () => {
    setup();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    requestQuit();
    expect(await screen.findByRole('alertdialog', { name: 'Save this course before quitting?' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save course…' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Don’t save' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.quit).not.toHaveBeenCalled();
    expect(api.saveCourse).not.toHaveBeenCalled();

    requestQuit();
    await screen.findByRole('alertdialog');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('quits without writing anything on Don’t save', async () => {
    setup();
    requestQuit();
    await userEvent.click(await screen.findByRole('button', { name: 'Don’t save' }));
    expect(api.quit).toHaveBeenCalledTimes(1);
    expect(api.saveCourse).not.toHaveBeenCalled();
  });

  it('saves (with the conversation when ticked) then quits; a cancelled save dialog keeps the question', async () => {
    setup();
    requestQuit();
    api.saveCourse.mockResolvedValue('');
    await userEvent.click(await screen.findByRole('button', { name: 'Save course…' }));
    expect(api.saveCourse).toHaveBeenCalledWith(false);
    expect(api.quit).not.toHaveBeenCalled();
    expect(screen.getByRole('alertdialog')).toBeTruthy();

    api.saveCourse.mockResolvedValue('/home/ana/stats.vika');
    await userEvent.click(screen.getByRole('checkbox', { name: 'with the conversation' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save course…' }));
    expect(api.saveCourse).toHaveBeenLastCalledWith(true);
    expect(api.quit).toHaveBeenCalledTimes(1);
  });

  it('says why a save failed and does not quit', async () => {
    setup();
    requestQuit();
    api.saveCourse.mockRejectedValue(new api.BridgeError({ message: 'disk full', code: 'error.other', params: { detail: 'disk full' } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Save course…' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(api.quit).not.toHaveBeenCalled();
    expect(screen.getByRole('alertdialog')).toBeTruthy();
  });

  it('asks the window to close on Ctrl+Q', async () => {
    setup();
    await userEvent.keyboard('{Control>}q{/Control}');
    expect(api.closeWindow).toHaveBeenCalledTimes(1);
  });

  it('speaks French', async () => {
    locale.set('fr');
    setup();
    requestQuit();
    expect(await screen.findByRole('alertdialog', { name: 'Enregistrer ce cours avant de quitter ?' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Enregistrer le cours…' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ne pas enregistrer' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Annuler' })).toBeTruthy();
  });
});
