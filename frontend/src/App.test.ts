import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from './test/api/fake.ts';
import { emitAnswer, resetFakeApi, sampleAnswer, sampleDocument } from './test/api/fake.ts';
import { locale } from './lib/state/locale.svelte.ts';
import App from './App.svelte';

vi.mock('./lib/api/index.ts', () => import('./test/api/fake.ts'));
// pdf.js needs a canvas: the viewer's drawing is tested in ViewerPanel.test.ts.
vi.mock('./lib/pdf/pdfjs.ts', () => ({
  openDocument: vi.fn(() => new Promise(() => {})),
  drawPage: vi.fn(),
  isSuperseded: () => false,
}));

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

  it('switches between the chat, explorer, dashboard and settings, keeping the chat', async () => {
    const user = userEvent.setup();
    render(App);
    const nav = screen.getByRole('navigation', { name: 'Views' });
    expect(nav.querySelector('[aria-current="page"]')?.textContent).toBe('Chat');
    const box = screen.getByLabelText('Your question') as HTMLTextAreaElement;
    await user.type(box, 'draft kept');

    for (const name of ['Explorer', 'Dashboard', 'Settings']) {
      await user.click(screen.getByRole('button', { name }));
      expect(screen.getByRole('button', { name }).getAttribute('aria-current')).toBe('page');
      expect(box.closest('[hidden]')).not.toBeNull();
    }
    await user.click(screen.getByRole('button', { name: 'Chat' }));
    expect(box.closest('[hidden]')).toBeNull();
    expect(box.value).toBe('draft kept');
  });

  it('opens a cited page in the viewer pane and closes it with Esc', async () => {
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
    const user = userEvent.setup();
    api.documents.mockResolvedValue([sampleDocument()]);
    render(App);
    await screen.findByText('lecture_sat.pdf');
    const box = screen.getByLabelText('Your question');
    await user.type(box, 'What is SAT?{Enter}');
    emitAnswer('ask-1', { type: 'done', answer: sampleAnswer() });
    await user.click(await screen.findByRole('button', { name: /Citation lecture_sat\.pdf p\.42, verified/ }));
    expect(await screen.findByRole('heading', { name: 'lecture_sat.pdf' })).toBeTruthy();
    expect(screen.getByText('Opening the PDF…')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('heading', { name: 'lecture_sat.pdf' })).toBeNull();
    // Focus is back on the chip that opened it.
    expect(document.activeElement?.className).toBe('cite verified');
  });
});
