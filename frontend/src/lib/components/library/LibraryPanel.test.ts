import { fireEvent, render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { tick } from 'svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../../test/api/fake.ts';
import { emitProgress, progress, resetFakeApi, sampleDocument } from '../../../test/api/fake.ts';
import { Library } from '../../state/library.svelte.ts';
import { locale } from '../../state/locale.svelte.ts';
import { Scope } from '../../state/scope.svelte.ts';
import LibraryPanel from './LibraryPanel.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

function setup(scope = new Scope()) {
  const library = new Library();
  library.start();
  render(LibraryPanel, { library, scope });
  return library;
}

beforeEach(() => {
  resetFakeApi();
  locale.set('en');
});

describe('LibraryPanel', () => {
  it('teaches the first step when empty', () => {
    setup();
    expect(screen.getByText('Drop lecture notes, papers or slides here…')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add PDFs…' })).toBeTruthy();
    expect(screen.getByLabelText('Choose PDF files to add')).toHaveProperty('multiple', true);
  });

  it('shows a running job with its stage, progress and a cancel button', async () => {
    setup();
    emitProgress(progress({ job_id: 'j1', stage: 'extracting', done: 3, total: 42 }));
    await tick();

    expect(screen.getByText('lecture_sat.pdf')).toBeTruthy();
    expect(screen.getByText('Extracting text…')).toBeTruthy();
    expect(screen.getByText('3 of 42')).toBeTruthy();
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('3');
    expect(bar.getAttribute('aria-valuemax')).toBe('42');

    await userEvent.click(screen.getByRole('button', { name: 'Cancel adding lecture_sat.pdf' }));
    expect(api.cancel).toHaveBeenCalledWith('j1');
  });

  it('shows a failure on its own row and keeps the other documents', async () => {
    setup();
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc: sampleDocument() }));
    emitProgress(
      progress({ job_id: 'j2', file: 'cours.pdf', stage: 'failed', error: 'already added as lecture_sat.pdf' }),
    );
    await tick();

    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('already added as lecture_sat.pdf');
    expect(alert.closest('li')?.textContent).toContain('cours.pdf');
    expect(screen.getByText('42 pages · 180 passages ·', { exact: false })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Dismiss the message about cours.pdf' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('lecture_sat.pdf')).toBeTruthy();
  });

  it('lists documents with a remove button', async () => {
    api.documents.mockResolvedValue([
      sampleDocument({ doc_id: 'a', label: 'a.pdf', pages: 1, chunks: 1 }),
      sampleDocument({ doc_id: 'b', label: 'b.pdf' }),
    ]);
    const library = setup();
    await library.load();
    await tick();

    const list = screen.getByRole('list', { name: /Documents/ });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('1 page · 1 passage ·', { exact: false })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Remove a.pdf' }));
    expect(api.removeDocument).toHaveBeenCalledWith('a');
    await tick();
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
  });

  it('says which pages of a document could not be read', async () => {
    api.documents.mockResolvedValue([
      sampleDocument({ doc_id: 'a', label: 'a.pdf', failed_pages: [3] }),
      sampleDocument({ doc_id: 'b', label: 'b.pdf', failed_pages: [1, 2, 3, 4, 5, 6, 7, 8] }),
    ]);
    const library = setup();
    await library.load();
    await tick();
    expect(screen.getByText('Page 3 could not be read')).toBeTruthy();
    expect(screen.getByText('8 pages could not be read: 1, 2, 3, 4, 5, 6, …')).toBeTruthy();
  });

  it('says a document is searched by the pages read so far while OCR reads the others', async () => {
    api.documents.mockResolvedValue([
      sampleDocument({ doc_id: 'a', label: 'scan.pdf', embedding: true, reading: 12 }),
      sampleDocument({ doc_id: 'b', label: 'notes.pdf', embedding: true }),
    ]);
    const library = setup();
    await library.load();
    await tick();
    const scan = screen.getByText('scan.pdf').closest('li');
    expect(scan?.textContent).toContain('Reading 12 more pages: its pages read so far are searched by keywords');
    expect(scan?.textContent).not.toContain('Searching by keywords until ready');
    expect(screen.getByText('notes.pdf').closest('li')?.textContent).toContain('Searching by keywords until ready');
    locale.set('fr');
    await tick();
    expect(scan?.textContent).toContain('Encore 12 pages à lire : ses pages déjà lues sont cherchées par mots-clés');
  });

  it('translates the warning of a truncated document', async () => {
    api.documents.mockResolvedValue([sampleDocument({ label: 'cut.pdf', warning: { code: 'ingest.truncated' } })]);
    const library = setup();
    await library.load();
    await tick();
    expect(screen.getByText(/seems cut short/)).toBeTruthy();
    locale.set('fr');
    await tick();
    expect(screen.getByText(/Le fichier semble coupé/)).toBeTruthy();
    expect(screen.queryByText(/%%EOF|cut short/)).toBeNull();
  });

  it('lists a slide deck by its slides and format, and translates the warning of one read without LibreOffice', async () => {
    api.documents.mockResolvedValue([
      sampleDocument({ doc_id: 'a', label: 'cours3.pptx', format: 'pptx', unit: 'slide', pages: 3, chunks: 3 }),
      sampleDocument({ doc_id: 'b', label: 'fiche.docx', format: 'docx', pages: 1, chunks: 2, warning: { code: 'convert.reflowed', params: { format: 'docx' } } }),
    ]);
    const library = setup();
    await library.load();
    await tick();
    expect(screen.getByText('3 slides · 3 passages ·', { exact: false })).toBeTruthy();
    expect(screen.getByText('PPTX')).toBeTruthy();
    expect(screen.getByText(/Read without LibreOffice: the text of this docx file only/)).toBeTruthy();
    locale.set('fr');
    await tick();
    expect(screen.getByText('3 diapositives · 3 passages ·', { exact: false })).toBeTruthy();
    expect(screen.getByText(/Lu sans LibreOffice : seul le texte de ce fichier docx/)).toBeTruthy();
  });

  it('takes slides, Word files, EPUBs and images in its file input', () => {
    setup();
    const accept = screen.getByLabelText('Choose PDF files to add').getAttribute('accept') ?? '';
    for (const ext of ['.pdf', '.pptx', '.odp', '.docx', '.epub', '.png', '.jpg']) expect(accept.split(',')).toContain(ext);
  });

  it('sends files chosen with the file input', async () => {
    setup();
    const file = new File(['%PDF-1.7'], 'cours.pdf', { type: 'application/pdf' });
    await userEvent.upload(screen.getByLabelText('Choose PDF files to add'), file);
    await vi.waitFor(() => expect(api.addFile).toHaveBeenCalledWith(file));
  });

  it('opens the file input in a browser and the native dialog in the app', async () => {
    setup();
    const input = screen.getByLabelText<HTMLInputElement>('Choose PDF files to add');
    const click = vi.spyOn(input, 'click');
    await userEvent.click(screen.getByRole('button', { name: 'Add PDFs…' }));
    expect(click).toHaveBeenCalled();
    expect(api.pickFiles).not.toHaveBeenCalled();

    click.mockClear();
    api.nativeWindow.mockReturnValue(true);
    await userEvent.click(screen.getByRole('button', { name: 'Add PDFs…' }));
    expect(api.pickFiles).toHaveBeenCalled();
    expect(click).not.toHaveBeenCalled();
  });

  it('accepts files dropped on the window, unless the native window reports them', async () => {
    setup();
    const file = new File(['%PDF-1.7'], 'dropped.pdf', { type: 'application/pdf' });
    const dataTransfer = { types: ['Files'], files: [file], dropEffect: 'none' };

    await fireEvent.dragEnter(window, { dataTransfer });
    expect(screen.getByText('Release to add')).toBeTruthy();
    await fireEvent.drop(window, { dataTransfer });
    await vi.waitFor(() => expect(api.addFile).toHaveBeenCalledWith(file));
    expect(screen.queryByText('Release to add')).toBeNull();

    api.addFile.mockClear();
    api.nativeFileDrop.mockReturnValue(true);
    await fireEvent.drop(window, { dataTransfer });
    expect(api.addFile).not.toHaveBeenCalled();
  });

  it('ticks every document for the questions, and keeps what the student unticks and the pages', async () => {
    api.documents.mockResolvedValue([
      sampleDocument({ doc_id: 'aaa', label: 'devlin2019_bert.pdf', file: 'devlin2019_bert.pdf' }),
      sampleDocument({ doc_id: 'bbb', label: 'he2015_resnet.pdf', file: 'he2015_resnet.pdf' }),
    ]);
    const scope = new Scope();
    const library = setup(scope);
    await library.load();
    await tick();
    const bert = await screen.findByRole('checkbox', { name: 'Search devlin2019_bert.pdf when answering' });
    const resnet = screen.getByRole('checkbox', { name: 'Search he2015_resnet.pdf when answering' });
    expect([bert, resnet].map((c) => (c as HTMLInputElement).checked)).toEqual([true, true]);
    await userEvent.click(resnet);
    await userEvent.type(screen.getByRole('textbox', { name: 'First page searched' }), '3');
    await userEvent.type(screen.getByRole('textbox', { name: 'Last page searched' }), '5');
    expect(scope.wire(library.documents)).toEqual({ docs: ['aaa'], from: 3, to: 5 });
    await userEvent.click(bert);
    expect(screen.getByRole('alert').textContent).toContain('No document is ticked');
    await userEvent.clear(screen.getByRole('textbox', { name: 'Last page searched' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Last page searched' }), '1');
    expect(screen.getByRole('alert').textContent).toContain('not a range');
    await userEvent.click(screen.getByRole('button', { name: 'Search everything' }));
    expect(scope.wire(library.documents)).toEqual({});

    locale.set('fr');
    await tick();
    expect(screen.getByRole('checkbox', { name: 'Chercher dans devlin2019_bert.pdf pour répondre' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Première page cherchée' })).toBeTruthy();
  });

  it('offers the sections of a ticked document with an outline, and forgets one when its document is unticked', async () => {
    const outline = [
      { title: '1 Introduction', page: 1, depth: 0 },
      { title: '3 Model Architecture', page: 3, depth: 0 },
      { title: '3.2 Attention', page: 4, depth: 1 },
    ];
    api.documents.mockResolvedValue([
      sampleDocument({ doc_id: 'aaa', label: 'vaswani.pdf', file: 'vaswani.pdf', pages: 15, outline }),
      sampleDocument({ doc_id: 'bbb', label: 'he2015_resnet.pdf', file: 'he2015_resnet.pdf' }),
    ]);
    const scope = new Scope();
    const library = setup(scope);
    await library.load();
    await tick();
    const select = (await screen.findByRole('combobox', { name: /section of a document/ })) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent?.trim())).toEqual([
      'Whole documents',
      '1 Introduction · p. 1',
      '3 Model Architecture · p. 3',
      '3.2 Attention · p. 4',
    ]);
    await userEvent.selectOptions(select, '3.2 Attention');
    expect(scope.wire(library.documents)).toEqual({ section: '3.2 Attention' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Search vaswani.pdf when answering' }));
    expect(scope.wire(library.documents)).toEqual({ docs: ['bbb'] });
    await userEvent.click(screen.getByRole('button', { name: 'Search everything' }));
    expect(scope.section).toBe('');
    locale.set('fr');
    await tick();
    expect(screen.getByRole('combobox', { name: /section du plan/ })).toBeTruthy();
  });
});
