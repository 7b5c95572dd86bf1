import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../../test/api/fake.ts';
import {
  resetAdminFake,
  sampleChunk,
  sampleDocument,
  samplePage,
  sampleHit,
  sampleRegion,
  sampleSearchResult,
  sampleStats,
} from '../../../test/api/fake.ts';
import type { Document } from '../../api/types.ts';
import { Explorer } from '../../state/explorer.svelte.ts';
import { locale } from '../../state/locale.svelte.ts';
import ExplorerPanel from './ExplorerPanel.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

function setup(documents: Document[] = [sampleDocument()]) {
  const onOpenPage = vi.fn<(docID: string, page: number, text: string, box?: number[], kind?: string) => void>();
  const explorer = new Explorer(() => true);
  render(ExplorerPanel, { documents, onOpenPage, explorer });
  return { onOpenPage, explorer };
}

beforeEach(() => {
  resetAdminFake();
  locale.set('en');
  api.pages.mockResolvedValue([
    samplePage({ page: 1, text: 'Lecture 3.   Satisfiability.\n\nA formula…' }),
    samplePage({ page: 2, type: 'scanned', lang: 'fr', ocr_confidence: 0.873, text: 'Exercice scanné' }),
  ]);
  api.chunks.mockResolvedValue([
    sampleChunk({ chunk_id: 'c1', page: 1, section_title: 'Satisfiability', text: 'A formula is satisfiable…' }),
    sampleChunk({ chunk_id: 'c2', page: 5, pages: [4, 5, 6], kind: 'references', section_title: '', text: '[1] Cook, 1971.' }),
  ]);
});

describe('ExplorerPanel', () => {
  it('says what to do when there is no document', () => {
    setup([]);
    expect(screen.getByText('Nothing to explore yet')).toBeTruthy();
    expect(api.pages).not.toHaveBeenCalled();
  });

  it('opens the first document and lists its pages with type, language and OCR confidence', async () => {
    const { onOpenPage } = setup();
    expect(await screen.findByText('Lecture 3. Satisfiability. A formula…')).toBeTruthy();
    expect(api.pages).toHaveBeenCalledWith('a3f1c9');
    const scanned = screen.getByText('Exercice scanné').closest('button') as HTMLElement;
    expect(within(scanned).getByText('p. 2')).toBeTruthy();
    expect(within(scanned).getByText('scanned')).toBeTruthy();
    expect(within(scanned).getByText('fr')).toBeTruthy();
    expect(within(scanned).getByText('OCR 87%')).toBeTruthy();

    await userEvent.click(scanned);
    expect(onOpenPage).toHaveBeenCalledWith('a3f1c9', 2, '');
  });

  it('names a slide deck’s pages slides, and its passages’ too, in both languages', async () => {
    setup([sampleDocument({ label: 'cours3.pptx', format: 'pptx', unit: 'slide' })]);
    const scanned = (await screen.findByText('Exercice scanné')).closest('button') as HTMLElement;
    expect(within(scanned).getByText('slide 2')).toBeTruthy();
    locale.set('fr');
    expect(await within(scanned).findByText('diapo 2')).toBeTruthy();
    locale.set('en');
    await userEvent.click(await screen.findByRole('button', { name: '2 passages' }));
    expect(await screen.findByText('slides 4–6')).toBeTruthy();
  });

  it('says why a page failed, from its code, in the window’s language', async () => {
    api.pages.mockResolvedValue([
      samplePage({ page: 1, text: 'Readable.' }),
      samplePage({ page: 2, text: '', problem: { code: 'page.timeout', params: { page: 2, limit: '30s' } } }),
      samplePage({ page: 3, text: '', problem: { code: 'page.truncated', params: { page: 3 } } }),
    ]);
    setup();
    expect(await screen.findByText('Reading this page took too long (more than 30s): it was skipped.')).toBeTruthy();
    locale.set('fr');
    expect(
      await screen.findByText('La lecture de cette page a pris trop de temps (plus de 30s) : elle a été ignorée.'),
    ).toBeTruthy();
    const truncated = screen.getByText(/le fichier est tronqué/).closest('button') as HTMLElement;
    expect(within(truncated).getByText('p. 3')).toBeTruthy();
    expect(screen.queryByText(/took too long|truncated/)).toBeNull();
  });

  it('lists passages with kind, pages and section, and opens one highlighted', async () => {
    const { onOpenPage } = setup();
    await userEvent.click(await screen.findByRole('button', { name: '2 passages' }));
    const refs = screen.getByText('[1] Cook, 1971.').closest('button') as HTMLElement;
    expect(within(refs).getByText('pp. 4–6')).toBeTruthy();
    expect(within(refs).getByText('references')).toBeTruthy();
    expect(screen.getByText('Satisfiability')).toBeTruthy();

    await userEvent.click(screen.getByText('A formula is satisfiable…'));
    expect(onOpenPage).toHaveBeenCalledWith('a3f1c9', 1, 'A formula is satisfiable…');
  });

  it('filters passages by words (accents and case aside) and by pages, and says a page range it cannot read', async () => {
    setup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '2 passages' }));
    await user.type(screen.getByLabelText('Filter by words'), 'SATISFIABLE');
    expect(screen.getByText('A formula is satisfiable…')).toBeTruthy();
    expect(screen.queryByText('[1] Cook, 1971.')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('1 of 2 shown');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await user.type(screen.getByLabelText('Pages'), '5-');
    expect(screen.getByText('[1] Cook, 1971.')).toBeTruthy();
    expect(screen.queryByText('A formula is satisfiable…')).toBeNull();
    await user.clear(screen.getByLabelText('Pages'));
    await user.type(screen.getByLabelText('Pages'), '9-3');
    expect(screen.getByRole('alert').textContent).toBe('Write a page (7) or a range (3-5, 10-, -4).');
    expect(screen.getByText('A formula is satisfiable…')).toBeTruthy(); // an unreadable range filters nothing
  });

  it('filters tables by a word of their cells and figures by page, in French too', async () => {
    api.regions.mockResolvedValue([
      sampleRegion(),
      sampleRegion({ kind: 'table', page: 6, caption: 'Table 4: Error rates (%).', text: '| method | top-5 err. |\n| --- | --- |\n| ResNet-152 | 4.49 |\n', image: '' }),
      sampleRegion({ kind: 'table', page: 5, caption: 'Tableau 2 – Résultats', text: '| a | b |\n| --- | --- |\n| 1 | 2 |\n', image: '' }),
    ]);
    locale.set('fr');
    setup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '2 tableaux' }));
    await user.type(screen.getByLabelText('Filtrer par mots'), 'resnet-152');
    expect(screen.getByRole('button', { name: /Table 4: Error rates/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Tableau 2/ })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('1 sur 2 affichés');
    await user.clear(screen.getByLabelText('Filtrer par mots'));
    await user.type(screen.getByLabelText('Filtrer par mots'), 'resultats');
    expect(screen.getByRole('button', { name: /Tableau 2/ })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Effacer les filtres' }));
    await user.click(screen.getByRole('button', { name: '1 figure' }));
    await user.type(screen.getByLabelText('Pages'), '4');
    expect(screen.queryByRole('button', { name: /Figure 2/ })).toBeNull();
    api.regions.mockResolvedValue([]);
  });

  it('opens a passage of a scanned page with its OCR box and kind', async () => {
    api.chunks.mockResolvedValue([
      sampleChunk({ chunk_id: 'c3', page: 2, page_type: 'scanned', bbox: [60, 80, 540, 300], text: 'Exercice scanné, suite…' }),
    ]);
    const { onOpenPage } = setup();
    await userEvent.click(await screen.findByRole('button', { name: '1 passage' }));
    await userEvent.click(screen.getByText('Exercice scanné, suite…'));
    expect(onOpenPage).toHaveBeenCalledWith('a3f1c9', 2, 'Exercice scanné, suite…', [60, 80, 540, 300], 'body');
  });

  it('has Tables, Figures and Formulas tabs: a figure with its crop, a rendered table, a formula; each opens its box', async () => {
    api.regions.mockResolvedValue([
      sampleRegion(),
      sampleRegion({
        kind: 'table',
        page: 6,
        bbox: [60, 80, 540, 300],
        caption: 'Table 4: Error rates (%).',
        text: 'Table 4: Error rates (%).\n\n| method | top-5 err. |\n| --- | --- |\n| ResNet-152 | 4.49 |\n',
        image: '',
      }),
      sampleRegion({ kind: 'formula', page: 2, bbox: [100, 300, 400, 330], caption: '', text: 'F(x) = H(x) − x', image: '' }),
    ]);
    const { onOpenPage } = setup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '1 figure' }));
    const img = screen.getByAltText('Figure 2: Residual learning: a building block.') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/crops/d1/3/0');
    await user.click(screen.getByRole('button', { name: 'Open page 3 at Figure 2: Residual learning: a building block.' }));
    expect(onOpenPage).toHaveBeenLastCalledWith('a3f1c9', 3, '', [72, 90, 520, 400]);

    await user.click(screen.getByRole('button', { name: '1 table' }));
    expect(screen.getByRole('columnheader', { name: 'top-5 err.' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: '4.49' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Open page 6 at Table 4: Error rates (%).' }));
    expect(onOpenPage).toHaveBeenLastCalledWith('a3f1c9', 6, '', [60, 80, 540, 300]);

    await user.click(screen.getByRole('button', { name: '1 formula' }));
    expect(screen.getByText('F(x) = H(x) − x')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open page 2 at (no caption)' })).toBeTruthy();
    api.regions.mockResolvedValue([]);
  });

  it("shows a formula's LaTeX rendered as MathML and as code, never interpreted as HTML", async () => {
    const tex = '\\mathcal{F}(x) = \\frac{H(x)}{2} - x <img src=x>';
    api.regions.mockResolvedValue([
      sampleRegion({ kind: 'formula', page: 2, bbox: [100, 300, 400, 330], caption: '(1)', text: 'F(x) = H(x)/2 − x', description: tex, image: '' }),
    ]);
    setup();
    await userEvent.click(await screen.findByRole('button', { name: '1 formula' }));
    expect(screen.getByText('LaTeX (transcribed by the vision model)')).toBeTruthy();
    const code = screen.getAllByText(tex).find((el) => el.tagName === 'CODE');
    expect(code).toBeTruthy();
    expect(document.querySelector('.rendered math[display="block"] mfrac')).not.toBeNull();
    expect(document.querySelector('.rendered img, code img')).toBeNull();
    expect(screen.queryByText(/^Description:/)).toBeNull();
    api.regions.mockResolvedValue([]);
  });

  it('says why a formula’s LaTeX was refused and by which model, in English and French', async () => {
    api.regions.mockResolvedValue([
      sampleRegion({
        kind: 'formula',
        page: 2,
        bbox: [100, 300, 400, 330],
        caption: '(2)',
        text: 'P = s(p) + c',
        image: '',
        refusal: { model: 'gemini/gemini-2.5-flash', reason: { code: 'refused.prose', params: { words: 7 } } },
      }),
    ]);
    setup();
    await userEvent.click(await screen.findByRole('button', { name: '1 formula' }));
    expect(
      screen.getByText(
        'Refused: the answer of gemini/gemini-2.5-flash was not kept (the answer holds 7 words of prose). Describing again with this model skips it; another model chosen in Settings tries again.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('LaTeX (transcribed by the vision model)')).toBeNull();
    locale.set('fr');
    expect(
      await screen.findByText(
        'Refusé : la réponse de gemini/gemini-2.5-flash n’a pas été gardée (la réponse contient 7 mots de prose). Décrire de nouveau avec ce modèle l’ignore ; un autre modèle choisi dans les Réglages réessaie.',
      ),
    ).toBeTruthy();
    api.regions.mockResolvedValue([]);
  });

  it('switches documents', async () => {
    setup([sampleDocument(), sampleDocument({ doc_id: 'b7', label: 'paper.pdf' })]);
    await screen.findByText('Exercice scanné');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Document' }), 'b7');
    expect(api.pages).toHaveBeenLastCalledWith('b7');
  });

  it('looks passages up without an LLM and shows every score, the cosine’s band and the stats', async () => {
    api.search.mockResolvedValue(
      sampleSearchResult({
        hits: [
          sampleHit({ score: 1.234, dense_score: 0.512, band: 'fair', lexical_score: 7.25, rerank_score: 3.5 }),
          sampleHit({ chunk_id: 'x', label: '[paper.pdf p.3]', found_by: 'bm25', dense_score: null, lexical_score: 7.25, rerank_score: null, page: 3, doc_id: 'b7', text: 'Second.' }),
        ],
        stats: sampleStats({
          mode: 'hybrid',
          fusion: 'rrf',
          latency_ns: 3_400_000,
          candidates: 212,
          dense_candidates: 0,
          lexical_candidates: 212,
          reranker: 'ms-marco-MiniLM-L-6-v2',
          reranked: 2,
        }),
      }),
    );
    const { onOpenPage } = setup();
    expect(screen.getAllByRole('option', { name: /Keywords|Meaning|Hybrid/ }).map((o) => o.getAttribute('value'))).toEqual([
      'dense',
      'bm25',
      'hybrid',
    ]);
    await userEvent.selectOptions(screen.getByLabelText('Search mode'), 'hybrid');
    await userEvent.type(screen.getByLabelText('Look up passages (no AI model)'), 'satisfiable{Enter}');
    expect(api.search).toHaveBeenCalledWith('satisfiable', 'hybrid', '', 10, true);

    expect(
      (await screen.findByText(/^2 passages · Hybrid · 3\.4 ms · 212 candidates \(meaning 0, keywords 212\)/)).textContent,
    ).toMatch(/· fusion: Reciprocal rank fusion \(RRF\)\s*· 2 reordered by ms-marco-MiniLM-L-6-v2\s*$/);
    const first = screen.getByText('[lecture_sat.pdf p.42]').closest('button') as HTMLElement;
    expect(first.textContent).toMatch(/score\s*1\.23/);
    expect(within(first).getByText('cosine 0.512').getAttribute('title')).toBe('Fair match for this embedding model');
    expect(first.textContent).toMatch(/BM25\s*7\.25/);
    expect(first.textContent).toMatch(/rerank\s*3\.5/);
    expect(within(first).getByText('keywords + meaning')).toBeTruthy();

    const second = screen.getByText('[paper.pdf p.3]').closest('button') as HTMLElement;
    expect(second.textContent).not.toMatch(/rerank/);
    expect(second.textContent).not.toMatch(/cosine/);
    await userEvent.click(second);
    expect(onOpenPage).toHaveBeenCalledWith('b7', 3, 'Second.');
  });

  it('shows a lookup error on the lookup', async () => {
    api.search.mockRejectedValue(new Error('dense retrieval unavailable: no embedding model'));
    setup();
    await userEvent.type(screen.getByLabelText('Look up passages (no AI model)'), 'x{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('dense retrieval unavailable: no embedding model');
  });

  it('shows the PDF’s information (only the fields it has) and its outline, indented, each bookmark opening its page', async () => {
    const doc = sampleDocument({
      meta: { title: 'Attention Is All You Need', author: 'A. Vaswani', created: '2017-12-07', producer: '' },
      outline: [
        { title: '1 Introduction', page: 1, depth: 0 },
        { title: '3.2 Attention', page: 3, depth: 1 },
        { title: 'Project page', page: 0, depth: 0 },
      ],
    });
    const { onOpenPage } = setup([doc]);
    const info = await screen.findByLabelText('Document information');
    expect(within(info).getByText('Attention Is All You Need')).toBeTruthy();
    expect(within(info).getByText('A. Vaswani')).toBeTruthy();
    expect(within(info).getByText('2017-12-07')).toBeTruthy();
    expect(within(info).getAllByRole('term').map((e) => e.textContent)).toEqual(['Title', 'Author', 'Created']);

    await userEvent.click(screen.getByRole('button', { name: '3 bookmarks' }));
    const attention = screen.getByRole('button', { name: /3\.2 Attention/ });
    expect(attention.closest('li')?.style.paddingInlineStart).toBe('18px');
    expect(screen.getByText('Project page').closest('button')).toBeNull();
    await userEvent.click(attention);
    expect(onOpenPage).toHaveBeenCalledWith('a3f1c9', 3, '');

    await userEvent.click(screen.getByRole('button', { name: '2 pages' }));
    expect(await screen.findByText('Exercice scanné')).toBeTruthy();
    expect(screen.queryByText('3.2 Attention')).toBeNull();
  });

  it('says when a PDF has no outline, in French too, and shows no information block without metadata', async () => {
    locale.set('fr');
    setup();
    await userEvent.click(await screen.findByRole('button', { name: '0 signet' }));
    expect(screen.getByText('Ce PDF n’a pas de table des signets.')).toBeTruthy();
    expect(screen.queryByLabelText('Informations du document')).toBeNull();
  });
});
