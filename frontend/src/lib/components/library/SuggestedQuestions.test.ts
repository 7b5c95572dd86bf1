import { fireEvent, render, screen } from '@testing-library/svelte';
import { tick } from 'svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../../test/api/fake.ts';
import { emitProgress, progress, resetFakeApi, sampleDocument } from '../../../test/api/fake.ts';
import { Library } from '../../state/library.svelte.ts';
import { locale } from '../../state/locale.svelte.ts';
import { Scope } from '../../state/scope.svelte.ts';
import LibraryPanel from './LibraryPanel.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

const outline = [
  { title: '1 Introduction', page: 1, depth: 0 },
  { title: '2 Background', page: 2, depth: 0 },
  { title: 'References', page: 9, depth: 0 },
];

function setup(onAsk = vi.fn()) {
  const library = new Library();
  library.start();
  render(LibraryPanel, { library, scope: new Scope(), onAsk });
  return { library, onAsk };
}

beforeEach(() => {
  resetFakeApi();
  locale.set('en');
});

describe('suggested questions under a newly added document', () => {
  it('shows the outline’s questions and a click asks one', async () => {
    const { onAsk } = setup();
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc: sampleDocument({ outline }) }));
    await tick();
    expect(screen.getByText('Questions to start with')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /References/ })).toBeNull(); // (the Section list names it: not a question)
    await fireEvent.click(screen.getByRole('button', { name: 'What is “Background” about?' }));
    expect(onAsk).toHaveBeenCalledWith('What is “Background” about?');
  });

  it('hides them on dismiss, and shows none for a document without an outline', async () => {
    const { library } = setup();
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc: sampleDocument({ outline }) }));
    await tick();
    await fireEvent.click(screen.getByRole('button', { name: 'Hide the suggested questions' }));
    expect(screen.queryByText('Questions to start with')).toBeNull();
    expect(library.added).toBe('');
    emitProgress(progress({ job_id: 'j2', stage: 'done', doc: sampleDocument({ doc_id: 'b', file: 'b.pdf' }) }));
    await tick();
    expect(library.added).toBe('b');
    expect(screen.queryByText('Questions to start with')).toBeNull();
  });

  it('is in French in a French window, its questions in the document’s language', async () => {
    locale.set('fr');
    setup();
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc: sampleDocument({ outline, lang: 'fr' }) }));
    await tick();
    expect(screen.getByText('Questions pour commencer')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'De quoi parle la section «\u00a0Introduction\u00a0»\u00a0?' })).toBeTruthy();
  });

  it('shows the offline questions first, then the model’s when they arrive', async () => {
    let arrive: (questions: string[]) => void = () => {};
    api.suggestQuestions.mockImplementation(() => new Promise((resolve) => (arrive = resolve)));
    const { onAsk, library } = setup();
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc: sampleDocument({ outline }) }));
    await tick();
    expect(api.suggestQuestions).toHaveBeenCalledWith('a3f1c9', 'en');
    expect(screen.getByRole('button', { name: 'What is “Background” about?' })).toBeTruthy();
    arrive(['How are the clauses encoded?', 'What does DPLL do?']);
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'What does DPLL do?' })).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'What is “Background” about?' })).toBeNull();
    expect(library.error).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'How are the clauses encoded?' }));
    expect(onAsk).toHaveBeenCalledWith('How are the clauses encoded?');
  });

  it('keeps the offline questions, with no error, without a model or when the model fails', async () => {
    const { library } = setup(); // the fake's default: the StudyNeedsModel error
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc: sampleDocument({ outline }) }));
    await tick();
    await Promise.resolve();
    expect(api.suggestQuestions).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'What is “Background” about?' })).toBeTruthy();
    api.suggestQuestions.mockRejectedValue(new Error('503 from the provider'));
    emitProgress(progress({ job_id: 'j2', stage: 'done', doc: sampleDocument({ doc_id: 'b', file: 'b.pdf', outline }) }));
    await tick();
    await Promise.resolve();
    expect(screen.getByRole('button', { name: 'What is “Introduction” about?' })).toBeTruthy();
    expect(library.error).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
