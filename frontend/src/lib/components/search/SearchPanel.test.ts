import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../api/fake.ts';
import { sampleHit } from '../../api/fake.ts';
import type { Hit } from '../../api/types.ts';
import { locale } from '../../state/locale.svelte.ts';
import { Search } from '../../state/search.svelte.ts';
import SearchPanel from './SearchPanel.svelte';

vi.mock('../../api/index.ts', () => import('../../api/fake.ts'));

function setup(props: { hasDocuments?: boolean; preparing?: boolean } = {}) {
  const search = new Search();
  const view = render(SearchPanel, { search, hasDocuments: true, preparing: false, ...props });
  return { search, ...view };
}

async function ask(question: string) {
  await userEvent.type(screen.getByLabelText('Your question'), `${question}{Enter}`);
}

beforeEach(() => locale.set('en'));

describe('SearchPanel', () => {
  it('asks for a PDF first when there is no document', async () => {
    setup({ hasDocuments: false });
    expect(screen.getByText('Add a PDF first')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Search' })).toHaveProperty('disabled', true);

    await ask('what is SAT?');
    expect(api.search).not.toHaveBeenCalled();
  });

  it('says the PDFs are on their way while the first one is prepared', () => {
    setup({ hasDocuments: false, preparing: true });
    expect(screen.getByText('Preparing your PDFs…')).toBeTruthy();
    expect(screen.getByText(/being prepared/)).toBeTruthy();
  });

  it('searches on Enter, and Shift+Enter starts a new line', async () => {
    const { search } = setup();
    await userEvent.type(screen.getByLabelText('Your question'), 'what is{Shift>}{Enter}{/Shift}SAT?');
    expect(api.search).not.toHaveBeenCalled();
    expect(search.question).toBe('what is\nSAT?');

    await userEvent.keyboard('{Enter}');
    expect(api.search).toHaveBeenCalledWith('what is\nSAT?', 8);
  });

  it('shows "Searching…" while waiting', async () => {
    api.search.mockReturnValue(new Promise(() => {}));
    setup();
    await ask('what is SAT?');
    expect(screen.getByText('Searching…')).toBeTruthy();
  });

  it('renders each hit with its citation chip, score and text', async () => {
    api.search.mockResolvedValue([sampleHit(), sampleHit({ label: '[paper.pdf p.3]', text: 'Second passage.', score: 0.5 })]);
    setup();
    await ask('what is SAT?');

    expect(await screen.findByText('2 passages for “what is SAT?”')).toBeTruthy();
    expect(screen.getByText('[lecture_sat.pdf p.42]').classList.contains('chip')).toBe(true);
    expect(screen.getByText('A formula is satisfiable if some assignment makes it true.')).toBeTruthy();
    expect(screen.getByText('keywords + meaning · score 0.812')).toBeTruthy();
    expect(screen.getByText('[paper.pdf p.3]')).toBeTruthy();
  });

  it('shows passage text as text, never as HTML', async () => {
    const hostile = '<script>window.pwned = true</script><img src=x onerror="alert(1)"><b>bold</b>';
    api.search.mockResolvedValue([sampleHit({ text: hostile, label: '[<i>x</i>.pdf p.1]' } satisfies Partial<Hit>)]);
    const { container } = setup();
    await ask('q');

    expect(await screen.findByText(hostile)).toBeTruthy();
    expect(screen.getByText('[<i>x</i>.pdf p.1]')).toBeTruthy();
    expect(container.querySelector('script, img, b, i')).toBeNull();
  });

  it('says when nothing matches', async () => {
    api.search.mockResolvedValue([]);
    setup();
    await ask('quantum gravity');
    expect(await screen.findByText('No passage matches “quantum gravity”')).toBeTruthy();
  });

  it('shows an error next to the box', async () => {
    api.search.mockRejectedValue(new Error('the index is not ready yet'));
    setup();
    await ask('q');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('the index is not ready yet');
    expect(alert.closest('form')).toBeTruthy();
  });
});
