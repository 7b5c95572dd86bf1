import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../../test/api/fake.ts';
import { emitAnswer, resetFakeApi, sampleAnswer, sampleCitation, sampleSource } from '../../../test/api/fake.ts';
import { Chat } from '../../state/chat.svelte.ts';
import { locale } from '../../state/locale.svelte.ts';
import { Viewer } from '../../state/viewer.svelte.ts';
import ChatPanel from './ChatPanel.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

beforeEach(() => {
  resetFakeApi();
  locale.set('en');
});

function setup(hasDocuments = true) {
  const chat = new Chat();
  const viewer = new Viewer();
  render(ChatPanel, { chat, viewer, hasDocuments, preparing: false });
  return { chat, viewer, user: userEvent.setup() };
}

async function ask(user: ReturnType<typeof userEvent.setup>, question: string) {
  const box = screen.getByLabelText('Your question');
  await user.click(box);
  await user.keyboard(question);
  await user.keyboard('{Enter}');
}

describe('ChatPanel', () => {
  it('switches the techniques of the next question from the ask box, in French too', async () => {
    const { user } = setup();
    const switches = within(screen.getByRole('group', { name: /Techniques for the next question/ }));
    const names = switches.getAllByRole('checkbox').map((c) => c.parentElement?.textContent?.trim());
    expect(names).toEqual(['History', 'HyDE', 'Multi-query', 'Rerank']);
    expect((switches.getByRole('checkbox', { name: 'History' }) as HTMLInputElement).checked).toBe(true);
    await user.click(switches.getByRole('checkbox', { name: 'HyDE' }));
    await user.click(switches.getByRole('checkbox', { name: 'Rerank' }));
    await ask(user, 'What is SAT?');
    expect(api.ask).toHaveBeenLastCalledWith(
      expect.any(String),
      'What is SAT?',
      expect.objectContaining({ history: true, hyde: true, multi_query: false, rerank: false }),
    );

    locale.set('fr');
    const fr = within(await screen.findByRole('group', { name: /Techniques pour la prochaine question/ }));
    expect(fr.getAllByRole('checkbox').map((c) => c.parentElement?.textContent?.trim())).toEqual([
      'Historique',
      'HyDE',
      'Multi-requêtes',
      'Reclasser',
    ]);
    expect((fr.getByRole('checkbox', { name: 'HyDE' }) as HTMLInputElement).checked).toBe(true);
  });

  it('teaches adding a PDF first, and cannot ask without one', () => {
    setup(false);
    expect(screen.getByText('Add a PDF first')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Ask' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('asks on Enter, keeps Shift+Enter as a new line, and streams the answer with chips', async () => {
    const { chat, user } = setup();
    const box = screen.getByLabelText('Your question') as HTMLTextAreaElement;
    await user.click(box);
    await user.keyboard('What is{Shift>}{Enter}{/Shift}SAT?');
    expect(box.value).toBe('What is\nSAT?');
    await user.keyboard('{Enter}');
    expect(api.ask).toHaveBeenCalledWith(expect.any(String), 'What is\nSAT?', expect.objectContaining({ history: true, rerank: true }));
    const id = chat.turns[0]?.id ?? '';

    emitAnswer(id, { type: 'status', stage: 'retrieving' });
    expect(await screen.findByText('Searching your documents…')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();

    emitAnswer(id, { type: 'sources', sources: [sampleSource()] });
    emitAnswer(id, { type: 'delta', text: 'A formula is **satisfiable** [lecture_sat.pdf p.42].' });
    chat.flush();
    const pending = await screen.findByRole('button', { name: /Citation lecture_sat\.pdf p\.42\. Open page 42/ });
    expect(pending.className).toContain('pending');

    emitAnswer(id, { type: 'done', answer: sampleAnswer({ answer: 'A formula is **satisfiable** [lecture_sat.pdf p.42].' }) });
    const chip = await screen.findByRole('button', { name: /Citation lecture_sat\.pdf p\.42, verified/ });
    expect(chip.className).toBe('cite verified');
    expect(chip.textContent).toBe('lecture_sat.pdf p.42');
    expect(screen.getByText('satisfiable').tagName).toBe('STRONG');
    expect(screen.getByText('Model used: Gemini 2.5 Flash (gemini)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ask' })).toBeTruthy();
  });

  it('opens the viewer at the cited page with the cited passage', async () => {
    const { chat, viewer, user } = setup();
    await ask(user, 'What is SAT?');
    emitAnswer(chat.turns[0]?.id ?? '', { type: 'done', answer: sampleAnswer() });
    await user.click(await screen.findByRole('button', { name: /Citation lecture_sat\.pdf p\.42/ }));
    expect(viewer.target).toEqual({
      doc_id: 'a3f1c9',
      file: 'lecture_sat.pdf',
      page: 42,
      passage: sampleSource().text,
      box: null,
    });
  });

  it('opens a cited figure with its box, shows its crop and renders a cited table', async () => {
    const { chat, viewer, user } = setup();
    api.sourceRegion.mockResolvedValue({
      kind: 'figure',
      page: 3,
      bbox: [72, 90, 520, 400],
      caption: 'Figure 2: Residual learning: a building block.',
      text: 'weight layer',
      description: '',
      image: '/crops/d1/3/0',
    });
    await ask(user, 'What does figure 2 show?');
    const figure = sampleSource({
      chunk_id: 'fig',
      page: 3,
      label: '[resnet.pdf p.3]',
      file: 'resnet.pdf',
      kind: 'figure',
      bbox: [72, 90, 520, 400],
      text: 'Figure 2: Residual learning: a building block. weight layer',
    });
    const table = sampleSource({
      index: 2,
      chunk_id: 'tab',
      page: 6,
      label: '[resnet.pdf p.6]',
      file: 'resnet.pdf',
      kind: 'table',
      bbox: [60, 80, 540, 300],
      text: 'Table 4: Error rates (%).\n\n| method | top-5 err. |\n| --- | --- |\n| ResNet-152 | <b>4.49</b> |\n',
    });
    const text = 'A shortcut adds the input [resnet.pdf p.3]; ResNet-152 reaches 4.49 [resnet.pdf p.6].';
    emitAnswer(chat.turns[0]?.id ?? '', {
      type: 'done',
      answer: sampleAnswer({
        answer: text,
        sources: [figure, table],
        citations: [
          sampleCitation({ label: '[resnet.pdf p.3]', raw: '[resnet.pdf p.3]', file: 'resnet.pdf', page: 3, start: 26, end: 42 }),
          sampleCitation({ label: '[resnet.pdf p.6]', raw: '[resnet.pdf p.6]', file: 'resnet.pdf', page: 6, source_index: 2, start: 68, end: 84 }),
        ],
      }),
    });
    await user.click(await screen.findByRole('button', { name: /Citation resnet\.pdf p\.3/ }));
    expect(viewer.target).toMatchObject({ page: 3, box: [72, 90, 520, 400] });

    await user.click(screen.getByRole('button', { name: /2 sources/ }));
    const img = (await screen.findByAltText('The figure cited as [resnet.pdf p.3]')) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/crops/d1/3/0');
    expect(api.sourceRegion).toHaveBeenCalledWith('fig');
    expect(api.sourceRegion).not.toHaveBeenCalledWith('tab');
    const rendered = screen.getByRole('group', { name: 'The table cited as [resnet.pdf p.6]' });
    expect(within(rendered).getByRole('columnheader', { name: 'top-5 err.' })).toBeTruthy();
    expect(within(rendered).getByRole('cell', { name: '<b>4.49</b>' })).toBeTruthy();
    expect(rendered.querySelector('b')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open [resnet.pdf p.6] in the viewer' }));
    expect(viewer.target).toMatchObject({ page: 6, box: [60, 80, 540, 300] });
  });

  it('renders a formula source’s LaTeX, from its passage or, for the extracted text alone, from its region’s transcription', async () => {
    const { chat, user } = setup();
    await ask(user, 'q');
    api.sourceRegion.mockImplementation(async (id: string) =>
      id === 'eq1'
        ? { kind: 'formula', page: 4, bbox: [220, 436, 504, 462], caption: '(1)', text: 'Attention(Q, K, V ) = softmax(QKT\n√dk )V (1)', description: '\\mathrm{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V', image: '' }
        : null,
    );
    const eq = (index: number, chunk_id: string, text: string) =>
      sampleSource({ index, chunk_id, page: 4, label: '[vaswani.pdf p.4]', file: 'vaswani.pdf', kind: 'formula', text });
    const sources = [
      eq(1, 'eq1', '(1)\nAttention(Q, K, V ) = softmax(QKT\n√dk )V (1)'),
      eq(2, 'eq2', 'PE\nLaTeX: PE_{(pos,2i)} = \\sin(pos/10000^{2i/d})'),
    ];
    emitAnswer(chat.turns[0]?.id ?? '', { type: 'done', answer: sampleAnswer({ sources }) });
    await user.click(await screen.findByRole('button', { name: /2 sources/ }));
    await vi.waitFor(() => expect(document.querySelectorAll('.formula math')).toHaveLength(2));
    const tex = [...document.querySelectorAll('.formula annotation')].map((a) => a.textContent);
    expect(tex).toEqual(['\\mathrm{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V', 'PE_{(pos,2i)} = \\sin(pos/10000^{2i/d})']);
    expect(api.sourceRegion).toHaveBeenCalledWith('eq1');
    expect(api.sourceRegion).not.toHaveBeenCalledWith('eq2');
  });

  it('marks an unverified citation with an icon and says why', async () => {
    const { chat, user } = setup();
    await ask(user, 'q');
    const text = 'Wrong [lecture_sat.pdf p.42].';
    emitAnswer(chat.turns[0]?.id ?? '', {
      type: 'done',
      answer: sampleAnswer({
        answer: text,
        citations: [sampleCitation({ start: 6, end: 28, verified: false, reason: 'cite.no_overlap' })],
      }),
    });
    const chip = await screen.findByRole('button', {
      name: 'Citation lecture_sat.pdf p.42, not verified: the sentence does not match the cited passage. Open page 42 of lecture_sat.pdf',
    });
    expect(chip.className).toBe('cite unverified');
    expect(chip.getAttribute('title')).toBe('Not verified: the sentence does not match the cited passage');
    expect(chip.querySelector('.cite-icon')).not.toBeNull();
    // The reason is a code from Go: the French window says it in French.
    locale.set('fr');
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: /la phrase ne correspond pas au passage cité/ }).getAttribute('title')).toContain(
        'la phrase ne correspond pas au passage cité',
      ),
    );
  });

  it('renders a hostile answer inert, and opens http links only through the system browser', async () => {
    const { chat, user } = setup();
    await ask(user, 'q');
    const hostile =
      'Hi <script>window.pwned = 1</script><img src="http://evil.example/t.png" onerror="window.pwned = 2">\n\n' +
      '![tracker](http://evil.example/pixel.png) [click](javascript:window.pwned=3) [docs](https://example.org/doc)';
    emitAnswer(chat.turns[0]?.id ?? '', { type: 'done', answer: sampleAnswer({ answer: hostile, citations: [] }) });
    const answer = await screen.findByRole('article', { name: 'Answer' });
    expect(answer.querySelector('script, img, iframe, [onerror]')).toBeNull();
    expect(within(answer).getByText('Image: tracker')).toBeTruthy();
    expect(answer.querySelector('a[href^="javascript"]')).toBeNull();
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();

    const link = within(answer).getByRole('link', { name: 'docs' });
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(api.openExternal).toHaveBeenCalledWith('https://example.org/doc');
  });

  it('labels extractive answers, notices and stopped answers', async () => {
    const { chat, user } = setup();
    await ask(user, 'q');
    const id = chat.turns[0]?.id ?? '';
    emitAnswer(id, { type: 'notice', notice: { kind: 'fallback', model: 'gemini-2.5-flash', reason: 'rate limited', message: '' } });
    emitAnswer(id, {
      type: 'done',
      answer: sampleAnswer({ kind: 'extractive', model_used: '', model_name: '', notices: null }),
    });
    expect(await screen.findByText(/Passages only: no language model answered/)).toBeTruthy();
    expect(screen.getByText('gemini-2.5-flash could not answer (rate limited); the next model was asked.')).toBeTruthy();
    expect(screen.queryByText(/Model used/)).toBeNull();

    await ask(user, 'again');
    const id2 = chat.turns[1]?.id ?? '';
    emitAnswer(id2, { type: 'delta', text: 'half' });
    await user.keyboard('{Escape}');
    expect(api.cancelAsk).toHaveBeenCalledWith(id2);
    emitAnswer(id2, { type: 'done', answer: sampleAnswer({ answer: 'half', cancelled: true, partial: true, citations: [] }) });
    expect(await screen.findByText('Stopped: this answer is incomplete.')).toBeTruthy();
  });

  it('shows an error on the answer it concerns', async () => {
    const { chat, user } = setup();
    await ask(user, 'q');
    emitAnswer(chat.turns[0]?.id ?? '', { type: 'error', error: 'every model failed: no API key', answer: null });
    expect((await screen.findByRole('alert')).textContent).toBe('No answer: every model failed: no API key');
  });

  it('lists the sources with their scores, collapsed, and opens one', async () => {
    const { chat, viewer, user } = setup();
    await ask(user, 'q');
    const sources = [
      sampleSource(),
      sampleSource({ index: 2, chunk_id: 'c2', page: 7, label: '[lecture_sat.pdf p.7]', found_by: 'bm25', page_type: 'scanned', score: 3.14159, rerank_score: 0.912, text: 'Page seven.' }),
    ];
    emitAnswer(chat.turns[0]?.id ?? '', { type: 'done', answer: sampleAnswer({ sources }) });
    const toggle = await screen.findByRole('button', { name: /2 sources/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('Page seven.')).toBeNull();
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const second = screen.getByRole('button', { name: 'Open [lecture_sat.pdf p.7] in the viewer' });
    expect(second.textContent).toContain('scanned page (OCR)');
    expect(second.textContent).toContain('found by keywords');
    expect(second.textContent).toContain('score 3.14');
    expect(second.textContent).toContain('rerank 0.912');
    const first = screen.getByRole('button', { name: 'Open [lecture_sat.pdf p.42] in the viewer' });
    expect(first.textContent).not.toContain('rerank');
    await user.click(second);
    expect(viewer.target).toMatchObject({ page: 7, passage: 'Page seven.' });
  });

  it('exports and starts a new conversation', async () => {
    const { chat, user } = setup();
    await ask(user, 'q');
    emitAnswer(chat.turns[0]?.id ?? '', { type: 'done', answer: sampleAnswer() });
    api.exportConversation.mockResolvedValueOnce('/tmp/vika.md');
    await user.click(await screen.findByRole('button', { name: 'Export Markdown' }));
    expect(api.exportConversation).toHaveBeenCalledWith('md');
    expect(await screen.findByText('Saved to /tmp/vika.md')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'New conversation' }));
    expect(api.clearConversation).toHaveBeenCalled();
    expect(await screen.findByText('Ask a question about your PDFs')).toBeTruthy();
  });

  it('speaks French', async () => {
    locale.set('fr');
    setup();
    expect(screen.getByText('Posez une question sur vos PDF')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Demander' })).toBeTruthy();
  });
});
