// The viewer with pdf.js replaced by a fake (jsdom has no canvas): the test
// checks what the viewer asks pdf.js for and what it shows back.

import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import * as fake from '../../../test/api/fake.ts';
import { resetFakeApi } from '../../../test/api/fake.ts';
import * as pdf from '../../pdf/pdfjs.ts';
import { locale } from '../../state/locale.svelte.ts';
import { Notes } from '../../state/notes.svelte.ts';
import { Viewer } from '../../state/viewer.svelte.ts';
import ViewerPanel from './ViewerPanel.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));
vi.mock('../../pdf/pdfjs.ts', () => ({
  openDocument: vi.fn(),
  drawPage: vi.fn(),
  isSuperseded: (err: unknown) => (err as { name?: string })?.name === 'RenderingCancelledException',
}));

const PAGES: Record<number, string[]> = {
  1: ['Lecture 3'],
  2: ['Intro. A formula is satis-', 'fiable if some assignment', 'makes it true.'],
  3: ['References'],
};

function fakeDocument(numPages = 3) {
  return {
    numPages,
    getPage: vi.fn(async (n: number) => ({ n })),
    destroy: vi.fn(async () => {}),
  } as unknown as Awaited<ReturnType<typeof pdf.openDocument>>;
}

/** drawPage: fills the text layer with one span per item, like pdf.js. */
function fakeDraw() {
  vi.mocked(pdf.drawPage).mockImplementation(async (page, _canvas, layer, zoom) => {
    const items = PAGES[(page as unknown as { n: number }).n] ?? [];
    const divs = items.map((s) => {
      const span = document.createElement('span');
      span.textContent = s;
      return span;
    });
    layer.replaceChildren(...divs);
    return { scale: zoom === 'fit' ? 0.9 : zoom, divs, items };
  });
}

beforeEach(() => {
  resetFakeApi();
  locale.set('en');
  // jsdom lays nothing out and has no ResizeObserver: give the pane a width
  // and report it once observed, so "fit" can draw.
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(600);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly fn: ResizeObserverCallback) {}
      observe(target: Element) {
        queueMicrotask(() =>
          this.fn([{ target, contentRect: target.getBoundingClientRect() } as ResizeObserverEntry], this as never),
        );
      }
      unobserve() {}
      disconnect() {}
    },
  );
});

function setup() {
  const viewer = new Viewer();
  const notes = new Notes();
  const onCards = vi.fn();
  render(ViewerPanel, { viewer, notes, documents: [], onCards });
  return { viewer, notes, onCards, user: userEvent.setup() };
}

describe('ViewerPanel', () => {
  it('shows the cited page with the passage highlighted', async () => {
    vi.mocked(pdf.openDocument).mockResolvedValue(fakeDocument());
    fakeDraw();
    const { viewer } = setup();
    viewer.open({ doc_id: 'a3f1c9', file: 'lecture_sat.pdf', page: 2, passage: 'A formula is satisfiable if some assignment makes it true.' });

    expect(await screen.findByText('The cited passage is highlighted.')).toBeTruthy();
    expect(pdf.openDocument).toHaveBeenCalledWith('/docs/a3f1c9');
    expect(vi.mocked(pdf.drawPage).mock.calls.at(-1)?.[3]).toBe('fit');
    const marks = [...document.querySelectorAll('mark.passage')].map((m) => m.textContent);
    expect(marks).toEqual(['A formula is satis-', 'fiable if some assignment', 'makes it true']);
    expect(screen.getByRole('heading', { name: 'lecture_sat.pdf' })).toBeTruthy();
    expect(screen.getByText('of 3')).toBeTruthy();
    expect((screen.getByLabelText('Page number') as HTMLInputElement).value).toBe('2');
    expect(screen.getByText('90 %')).toBeTruthy();
  });

  it('shows a page the PDF reader failed as failed, without drawing it', async () => {
    vi.mocked(pdf.openDocument).mockResolvedValue(fakeDocument());
    fakeDraw();
    fake.documents.mockResolvedValue([{ doc_id: 'd', file: 'odd.pdf', failed_pages: [2] } as never]);
    const { viewer, user } = setup();
    viewer.open({ doc_id: 'd', file: 'odd.pdf', page: 2, passage: '' });
    expect(await screen.findByText('Page 2 could not be read when the PDF was added, so it is not drawn here.')).toBeTruthy();
    expect(pdf.drawPage).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(pdf.drawPage).toHaveBeenCalledTimes(1));
    expect(vi.mocked(pdf.drawPage).mock.calls[0]?.[0]).toEqual({ n: 3 });
    expect(screen.queryByText(/could not be read when the PDF was added/)).toBeNull();
  });

  it('says so when the passage is not in the page’s text', async () => {
    vi.mocked(pdf.openDocument).mockResolvedValue(fakeDocument());
    fakeDraw();
    const { viewer } = setup();
    viewer.open({ doc_id: 'd', file: 'scan.pdf', page: 1, passage: 'Residual networks ease the training of deep networks.' });
    expect(await screen.findByText(/could not be located in this page’s text/)).toBeTruthy();
  });

  it('highlights a passage on a scanned page (no text layer) by its OCR box', async () => {
    vi.mocked(pdf.openDocument).mockResolvedValue(fakeDocument(4));
    fakeDraw(); // page 4 has no text items, like a scan
    const { viewer } = setup();
    viewer.open({
      doc_id: 'd',
      file: 'scan.pdf',
      page: 4,
      passage: 'Residual networks ease the training of deep networks.',
      box: [60, 80, 540, 300],
      kind: 'body',
    });
    expect(await screen.findByText('The cited passage is highlighted.')).toBeTruthy();
    expect(screen.queryByText(/could not be located/)).toBeNull();
    expect(screen.queryByText(/table, figure or formula/)).toBeNull();
    const el = document.querySelector('.region-box') as HTMLElement;
    expect([el.style.left, el.style.top, el.style.width, el.style.height]).toEqual(['54px', '72px', '432px', '198px']);
  });

  it('says a table is outlined when the box is a table’s, and cannot highlight a scan without one', async () => {
    vi.mocked(pdf.openDocument).mockResolvedValue(fakeDocument(4));
    fakeDraw();
    const { viewer } = setup();
    viewer.open({ doc_id: 'd', file: 'scan.pdf', page: 4, passage: 'Table 1: errors', box: [60, 80, 540, 300], kind: 'table' });
    expect(await screen.findByText('The cited table, figure, formula, form field or note is outlined.')).toBeTruthy();
    viewer.open({ doc_id: 'd', file: 'scan.pdf', page: 4, passage: 'Residual networks ease the training of deep networks.' });
    expect(await screen.findByText(/could not be located in this page’s text/)).toBeTruthy();
    expect(document.querySelector('.region-box')).toBeNull();
  });

  it('moves between pages, jumps to a typed page, and zooms', async () => {
    vi.mocked(pdf.openDocument).mockResolvedValue(fakeDocument());
    fakeDraw();
    const { viewer, user } = setup();
    viewer.open({ doc_id: 'd', file: 'a.pdf', page: 2, passage: '' });
    await screen.findByText('of 3');

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(viewer.page).toBe(3));
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(document.querySelector('.textLayer')?.textContent).toBe('References'));

    const input = screen.getByLabelText('Page number');
    await user.clear(input);
    await user.type(input, '1{Enter}');
    await waitFor(() => expect(document.querySelector('.textLayer')?.textContent).toBe('Lecture 3'));

    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    await waitFor(() => expect(vi.mocked(pdf.drawPage).mock.calls.at(-1)?.[3]).toBe(1));
    await user.click(screen.getByRole('button', { name: 'Fit to width' }));
    await waitFor(() => expect(vi.mocked(pdf.drawPage).mock.calls.at(-1)?.[3]).toBe('fit'));
  });

  it('shows a readable error when the PDF cannot be opened', async () => {
    vi.mocked(pdf.openDocument).mockRejectedValue(new Error('Unexpected server response (404)'));
    const { viewer } = setup();
    viewer.open({ doc_id: 'gone', file: 'gone.pdf', page: 1, passage: '' });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This PDF could not be opened: Unexpected server response (404)',
    );
  });

  it('closes on Esc and with the back button', async () => {
    vi.mocked(pdf.openDocument).mockResolvedValue(fakeDocument());
    fakeDraw();
    const { viewer, user } = setup();
    viewer.open({ doc_id: 'd', file: 'a.pdf', page: 1, passage: '' });
    await screen.findByText('of 3');
    await user.keyboard('{Escape}');
    expect(viewer.isOpen).toBe(false);
    expect(screen.queryByRole('heading', { name: 'a.pdf' })).toBeNull();

    viewer.open({ doc_id: 'd', file: 'a.pdf', page: 1, passage: '' });
    await user.click(await screen.findByRole('button', { name: 'Back to the answer (Esc)' }));
    expect(viewer.isOpen).toBe(false);
  });
  it('offers the selection menu for a drag that ends outside the text layer, on what lies inside it', async () => {
    vi.mocked(pdf.openDocument).mockResolvedValue(fakeDocument());
    fakeDraw();
    // jsdom lays nothing out and gives a range no box: the menu goes under the range's box.
    Range.prototype.getBoundingClientRect = () => new DOMRect(40, 60, 200, 14);
    onTestFinished(() => {
      delete (Range.prototype as Partial<Range>).getBoundingClientRect;
    });
    const { viewer } = setup();
    viewer.open({ doc_id: 'd', file: 'lecture_sat.pdf', page: 2, passage: '' });
    await waitFor(() => expect(document.querySelector('.textLayer')?.textContent).toContain('makes it true.'));
    const layer = document.querySelector('.textLayer') as HTMLElement;
    const pageEl = layer.parentElement as HTMLElement;
    const spans = [...layer.querySelectorAll('span')];
    const sel = document.getSelection()!;
    const draws = vi.mocked(pdf.drawPage).mock.calls.length;

    // Inside the layer: the menu shows, and the page is not drawn again (which would drop the selection).
    sel.setBaseAndExtent(spans[1]!.firstChild!, 0, spans[1]!.firstChild!, 8);
    await fireEvent.pointerUp(pageEl);
    expect(await screen.findByRole('toolbar', { name: 'Ask about the selected passage' })).toBeTruthy();
    expect(viewer.selection).toMatchObject({ page: 2, text: 'fiable i' });
    expect(vi.mocked(pdf.drawPage).mock.calls.length).toBe(draws);

    // From "assignment" on the second line down past the last line and out of the page (the end of the document).
    sel.setBaseAndExtent(spans[1]!.firstChild!, 15, document.body, document.body.childNodes.length);
    await fireEvent.pointerUp(pageEl);
    expect(await screen.findByRole('toolbar', { name: 'Ask about the selected passage' })).toBeTruthy();
    expect(viewer.selection).toMatchObject({ doc_id: 'd', page: 2, text: 'assignmentmakes it true.' });
    expect(sel.toString()).toBe('assignmentmakes it true.'); // the page shows what is kept

    // From "formula" on the first line up to the bar above the page (the file's heading), backwards.
    const heading = screen.getByRole('heading', { name: 'lecture_sat.pdf' }).firstChild as Text;
    sel.setBaseAndExtent(spans[0]!.firstChild!, 16, heading, 0);
    await fireEvent.pointerUp(pageEl);
    await waitFor(() => expect(viewer.selection?.text).toBe('Intro. A formula'));

    // A selection that misses the layer altogether offers nothing.
    sel.setBaseAndExtent(heading, 0, heading, 7);
    await fireEvent.pointerUp(pageEl);
    await waitFor(() => expect(viewer.selection).toBeNull());
    expect(screen.queryByRole('toolbar', { name: 'Ask about the selected passage' })).toBeNull();
  });

  it('notes a page, lists the document’s notes and draws its highlights over the page', async () => {
    vi.mocked(pdf.openDocument).mockResolvedValue(fakeDocument());
    fakeDraw();
    await fake.addNote({ doc_id: 'a3f1c9', page: 2, kind: 'highlight', color: 'green', quote: 'A formula is satisfiable', boxes: [[10, 20, 110, 32]], text: '' });
    const { viewer, user } = setup();
    viewer.open({ doc_id: 'a3f1c9', file: 'lecture_sat.pdf', page: 2, passage: '' });
    await waitFor(() => expect(document.querySelectorAll('.note-box')).toHaveLength(1));
    const box = document.querySelector<HTMLElement>('.note-box')!;
    expect([box.style.left, box.style.top, box.style.width, box.style.height]).toEqual(['9px', '18px', '90px', '10.8px']);
    await user.click(screen.getByRole('button', { name: /Note on this page/ }));
    await user.type(screen.getByRole('textbox', { name: 'Your note' }), 'Revise <b>this</b>');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.addNote).toHaveBeenLastCalledWith(expect.objectContaining({ kind: 'page', page: 2, text: 'Revise <b>this</b>' })));
    await user.click(screen.getByRole('button', { name: 'My notes (2)' }));
    expect(screen.getByText('Revise <b>this</b>')).toBeTruthy();
    expect(screen.getByText('A formula is satisfiable')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Save a copy with my notes/ }));
    expect(fake.saveAnnotatedCopy).toHaveBeenCalledWith('a3f1c9');
  });
});
