import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as fake from '../../../test/api/fake.ts';
import { locale } from '../../state/locale.svelte.ts';
import { Notes } from '../../state/notes.svelte.ts';
import { Viewer } from '../../state/viewer.svelte.ts';
import NotesPanel from './NotesPanel.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

const flush = async () => {
  for (let i = 0; i < 5; i++) await tick();
};

const doc = fake.sampleDocument({ doc_id: 'a3f1c9', label: 'sat.pdf', file: 'sat.pdf' });

async function setup() {
  const notes = new Notes();
  const viewer = new Viewer();
  const onCards = vi.fn();
  await fake.addNote({ doc_id: 'a3f1c9', page: 4, kind: 'highlight', color: 'green', quote: 'Cook proved SAT NP-complete.', boxes: [[72, 100, 300, 112]],
    text: '<img src=x onerror="alert(1)"> **not bold**' });
  await fake.addNote({ doc_id: 'a3f1c9', page: 2, kind: 'page', color: 'blue', quote: '', text: 'revise page 2' });
  render(NotesPanel, { notes, viewer, documents: [doc], onCards });
  await flush();
  return { notes, viewer, onCards };
}

beforeEach(() => {
  vi.clearAllMocks();
  fake.resetFakeApi();
  locale.set('en');
});

describe('the notes list', () => {
  it('lists the notes in reading order, their text as text, and opens a note’s page with its highlight', async () => {
    const { viewer } = await setup();
    const items = screen.getAllByRole('listitem');
    expect(items.map((li) => within(li).getByRole('button', { name: /p\.\d/ }).textContent?.trim())).toEqual(['p.2', 'p.4']);
    expect(items[1]?.textContent).toContain('<img src=x onerror="alert(1)"> **not bold**');
    expect(document.querySelector('.notes-panel img, .notes-panel strong')).toBeNull();
    await fireEvent.click(within(items[1]!).getByRole('button', { name: /p\.4/ }));
    expect(viewer.target).toMatchObject({ doc_id: 'a3f1c9', page: 4, box: [72, 100, 300, 112], kind: 'mine' });
  });

  it('edits and deletes a note, exports, and asks for cards from the highlights', async () => {
    const { onCards } = await setup();
    const second = screen.getAllByRole('listitem')[1]!;
    await fireEvent.click(within(second).getByRole('button', { name: 'Edit' }));
    const box = within(second).getByRole('textbox');
    await fireEvent.input(box, { target: { value: 'know the year' } });
    await fireEvent.click(within(second).getByRole('button', { name: 'Highlight in pink' }));
    await fireEvent.click(within(second).getByRole('button', { name: 'Save' }));
    await flush();
    expect(fake.editNote).toHaveBeenCalledWith('note-1', 'know the year', 'pink');
    expect(screen.getAllByRole('listitem')[1]?.textContent).toContain('know the year');
    await fireEvent.click(screen.getByRole('button', { name: /Export Markdown/ }));
    expect(fake.exportNotes).toHaveBeenCalledWith('', 'md');
    await fireEvent.click(screen.getByRole('button', { name: /Flashcards from my highlights/ }));
    expect(onCards).toHaveBeenCalledWith('');
    await fireEvent.click(within(screen.getAllByRole('listitem')[0]!).getByRole('button', { name: 'Delete' }));
    await flush();
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });

  it('speaks French', async () => {
    locale.set('fr');
    await setup();
    expect(screen.getByRole('heading', { name: 'Mes notes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Enregistrer une copie|Exporter en Markdown/ })).toBeTruthy();
  });
});
