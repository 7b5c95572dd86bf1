import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../test/api/fake.ts';
import { answerListeners, emitAnswer, resetFakeApi, sampleAnswer, sampleSource } from '../../test/api/fake.ts';
import { Chat, FLUSH_MS, type ScopeNow } from './chat.svelte.ts';
import { DEFAULT_ASK_OPTIONS } from './settings.svelte.ts';
import { locale } from './locale.svelte.ts';

vi.mock('../api/index.ts', () => import('../../test/api/fake.ts'));

beforeEach(() => {
  resetFakeApi();
  locale.set('en');
});
afterEach(() => {
  vi.useRealTimers();
});

async function asked(chat: Chat, question = 'What is SAT?'): Promise<string> {
  chat.draft = question;
  await chat.ask();
  return chat.turns.at(-1)?.id ?? '';
}

describe('Chat asking', () => {
  it('asks the next question with the ask box’s switches over the settings’ defaults', async () => {
    let defaults = { ...DEFAULT_ASK_OPTIONS, mode: 'bm25' as const, hyde: false, rerank: true };
    const chat = new Chat({ options: () => defaults });
    expect(chat.isOn('hyde')).toBe(false);
    chat.setToggle('hyde', true);
    chat.setToggle('rerank', false);
    expect(chat.isOn('hyde')).toBe(true);
    const id = await asked(chat);
    expect(api.ask).toHaveBeenLastCalledWith('ask-1', 'What is SAT?', { ...defaults, hyde: true, rerank: false });
    emitAnswer(id, { type: 'done', answer: sampleAnswer({ id }) });

    // A switch set back to the default follows the settings again.
    chat.setToggle('rerank', true);
    expect(chat.toggles).toEqual({ hyde: true });
    defaults = { ...defaults, rerank: false, multi_query: true };
    expect(chat.isOn('rerank')).toBe(false);
    expect(chat.isOn('multi_query')).toBe(true);
    await asked(chat, 'And DPLL?');
    expect(api.ask).toHaveBeenLastCalledWith('ask-2', 'And DPLL?', { ...defaults, hyde: true });
  });

  it('asks with the library’s scope, kept for the follow-ups until it changes, and shows it on each turn', async () => {
    let now: ScopeNow = { wire: { docs: ['aaa'], from: 10, to: 20 }, chips: [{ kind: 'doc', label: 'bert.pdf' }] };
    const chat = new Chat({ options: () => DEFAULT_ASK_OPTIONS, scope: () => now });
    const id = await asked(chat);
    expect(api.ask).toHaveBeenLastCalledWith('ask-1', 'What is SAT?', { ...DEFAULT_ASK_OPTIONS, scope: now.wire });
    expect(chat.turns[0]?.scope).toEqual(now.chips);
    emitAnswer(id, { type: 'done', answer: sampleAnswer({ id }) });
    await asked(chat, 'And on page 12?');
    expect(api.ask).toHaveBeenLastCalledWith('ask-2', 'And on page 12?', { ...DEFAULT_ASK_OPTIONS, scope: now.wire });
    emitAnswer('ask-2', { type: 'done', answer: sampleAnswer({ id: 'ask-2' }) });
    now = { wire: {}, chips: [] };
    await asked(chat, 'And elsewhere?');
    expect(api.ask).toHaveBeenLastCalledWith('ask-3', 'And elsewhere?', { ...DEFAULT_ASK_OPTIONS, scope: {} });
    expect(chat.turns.map((t) => t.scope.length)).toEqual([1, 1, 0]);
  });

  it('asks about a passage selected in the viewer: Explain and Define at once, Ask about this with the next question', async () => {
    const chat = new Chat({ options: () => DEFAULT_ASK_OPTIONS });
    const sel = { doc_id: 'fff', file: 'flajolet.pdf', page: 3, text: 'the bitmap of observed patterns' };
    const wire = { doc_id: 'fff', page: 3, text: 'the bitmap of observed patterns' };
    await chat.askAbout(sel, 'explain');
    expect(api.ask).toHaveBeenLastCalledWith('ask-1', 'Explain this passage.', { ...DEFAULT_ASK_OPTIONS, scope: {}, selection: wire });
    expect(chat.turns[0]?.selection).toEqual(sel);
    expect(chat.selection).toBeNull();
    await chat.askAbout(sel, 'define'); // busy: ignored
    expect(api.ask).toHaveBeenCalledTimes(1);
    emitAnswer('ask-1', { type: 'done', answer: sampleAnswer({ id: 'ask-1' }) });

    await chat.askAbout(sel, 'ask');
    expect(api.ask).toHaveBeenCalledTimes(1); // waits for the student's question
    expect(chat.selection).toEqual(sel);
    await asked(chat, 'Why a bitmap?');
    expect(api.ask).toHaveBeenLastCalledWith('ask-2', 'Why a bitmap?', { ...DEFAULT_ASK_OPTIONS, scope: {}, selection: wire });
    emitAnswer('ask-2', { type: 'done', answer: sampleAnswer({ id: 'ask-2' }) });
    await asked(chat, 'And the follow-up?'); // the selection went with its question
    expect(api.ask).toHaveBeenLastCalledWith('ask-3', 'And the follow-up?', { ...DEFAULT_ASK_OPTIONS, scope: {} });
    emitAnswer('ask-3', { type: 'done', answer: sampleAnswer({ id: 'ask-3' }) });

    locale.set('fr');
    await chat.askAbout(sel, 'define');
    expect(api.ask).toHaveBeenLastCalledWith('ask-4', 'Définis les termes de ce passage.', { ...DEFAULT_ASK_OPTIONS, scope: {}, selection: wire });
  });

  it('shows a past answer’s selection from its first source', async () => {
    const selected = { ...sampleSource(), chunk_id: 'selection', page: 4, text: 'a learnt clause', file: 'sat.pdf' };
    api.conversation.mockResolvedValue([sampleAnswer({ id: 'old', sources: [selected, sampleSource()] }), sampleAnswer({ id: 'plain' })]);
    const chat = new Chat();
    await chat.load();
    expect(chat.turns[0]?.selection).toMatchObject({ page: 4, text: 'a learnt clause', file: 'sat.pdf' });
    expect(chat.turns[1]?.selection).toBeUndefined();
  });

  it('asks with the settings’ options, then follows the answer’s events', async () => {
    const onAnswered = vi.fn();
    const options = { ...DEFAULT_ASK_OPTIONS, mode: 'bm25' as const, k: 5 };
    const chat = new Chat({ options: () => options, onAnswered });
    const id = await asked(chat, '  What is SAT?  ');
    expect(api.ask).toHaveBeenCalledWith('ask-1', 'What is SAT?', options);
    expect(id).toBe('ask-1');
    expect(chat.draft).toBe('');
    expect(chat.busy).toBe(true);
    expect(chat.turns[0]).toMatchObject({ question: 'What is SAT?', status: 'streaming', text: '' });

    emitAnswer(id, { type: 'status', stage: 'retrieving' });
    expect(chat.turns[0]?.stage).toBe('retrieving');
    emitAnswer(id, { type: 'sources', sources: [sampleSource()] });
    expect(chat.turns[0]?.sources).toEqual([sampleSource()]);
    emitAnswer(id, { type: 'delta', text: 'A formula ' });
    emitAnswer(id, { type: 'notice', notice: { kind: 'fallback', model: 'gemini-2.5-flash', reason: 'rate limited', message: 'm' } });
    // The notice flushed the text before it: order is kept.
    expect(chat.turns[0]?.text).toBe('A formula ');
    expect(chat.turns[0]?.notices).toHaveLength(1);

    const answer = sampleAnswer();
    emitAnswer(id, { type: 'done', answer });
    expect(chat.turns[0]).toMatchObject({ status: 'done', text: answer.answer, answer, stage: null });
    expect(chat.busy).toBe(false);
    expect(onAnswered).toHaveBeenCalledTimes(1);
    expect(answerListeners(id)).toBe(0);

    // Stale events change nothing.
    emitAnswer(id, { type: 'delta', text: 'late' });
    chat.flush();
    expect(chat.turns[0]?.text).toBe(answer.answer);
  });

  it('batches deltas and shows them at most every FLUSH_MS', async () => {
    vi.useFakeTimers();
    const chat = new Chat();
    const id = await asked(chat);
    for (const piece of ['A ', 'formula ', 'is ', 'satisfiable']) emitAnswer(id, { type: 'delta', text: piece });
    expect(chat.turns[0]?.text).toBe('');
    vi.advanceTimersByTime(FLUSH_MS - 1);
    expect(chat.turns[0]?.text).toBe('');
    vi.advanceTimersByTime(1);
    expect(chat.turns[0]?.text).toBe('A formula is satisfiable');
    emitAnswer(id, { type: 'delta', text: '.' });
    vi.advanceTimersByTime(FLUSH_MS);
    expect(chat.turns[0]?.text).toBe('A formula is satisfiable.');
  });

  it('keeps streamed text when done carries none, and previous turns stay', async () => {
    const chat = new Chat();
    const first = await asked(chat, 'one');
    emitAnswer(first, { type: 'delta', text: 'first answer' });
    emitAnswer(first, { type: 'done', answer: sampleAnswer({ answer: '' }) });
    const second = await asked(chat, 'two');
    emitAnswer(second, { type: 'done', answer: sampleAnswer({ question: 'two' }) });
    expect(chat.turns.map((t) => [t.question, t.status])).toEqual([
      ['one', 'done'],
      ['two', 'done'],
    ]);
    expect(chat.turns[0]?.text).toBe('first answer');
  });

  it('does nothing for a blank question or while an answer runs', async () => {
    const chat = new Chat();
    chat.draft = '  \n';
    expect(chat.canAsk).toBe(false);
    await chat.ask();
    expect(api.ask).not.toHaveBeenCalled();
    await asked(chat, 'first');
    chat.draft = 'second';
    expect(chat.canAsk).toBe(false);
    await chat.ask();
    expect(api.ask).toHaveBeenCalledTimes(1);
  });

  it('shows an error event on its turn, with what had arrived', async () => {
    const onAnswered = vi.fn();
    const chat = new Chat({ onAnswered });
    const id = await asked(chat);
    emitAnswer(id, { type: 'delta', text: 'partial' });
    emitAnswer(id, { type: 'error', error: 'every model failed: no API key is configured', answer: null });
    expect(chat.turns[0]).toMatchObject({
      status: 'error',
      text: 'partial',
      error: 'every model failed: no API key is configured',
    });
    expect(chat.busy).toBe(false);
    expect(onAnswered).toHaveBeenCalled();
  });

  it('shows a refused question on its turn and gives the question back', async () => {
    const chat = new Chat();
    api.ask.mockRejectedValueOnce(new Error('no documents in the session'));
    await asked(chat, 'What is SAT?');
    expect(chat.turns[0]).toMatchObject({ status: 'error', error: 'no documents in the session' });
    expect(chat.draft).toBe('What is SAT?');
    expect(chat.busy).toBe(false);
  });
});

describe('Chat early events', () => {
  it('listens before asking: events sent before Ask returns are not lost', async () => {
    const chat = new Chat();
    api.ask.mockImplementationOnce(async (id: string) => {
      emitAnswer(id, { type: 'status', stage: 'retrieving' });
      emitAnswer(id, { type: 'sources', sources: [sampleSource()] });
      return id;
    });
    await asked(chat);
    expect(chat.turns[0]).toMatchObject({ stage: 'retrieving', sources: [sampleSource()], status: 'streaming' });
  });

  it('stops listening when Ask refuses the question', async () => {
    const chat = new Chat();
    api.ask.mockRejectedValueOnce(new Error('no documents in the session'));
    await asked(chat);
    expect(answerListeners('ask-1')).toBe(0);
  });
});

describe('Chat cancel', () => {
  it('cancels the running answer; the done event marks it stopped and keeps the text', async () => {
    const chat = new Chat();
    const id = await asked(chat);
    emitAnswer(id, { type: 'delta', text: 'A formula' });
    await chat.cancel();
    expect(api.cancelAsk).toHaveBeenCalledWith(id);
    expect(chat.turns[0]?.cancelling).toBe(true);
    emitAnswer(id, { type: 'done', answer: sampleAnswer({ answer: 'A formula', cancelled: true, partial: true }) });
    expect(chat.turns[0]).toMatchObject({ status: 'cancelled', text: 'A formula', cancelling: false });
  });

  it('cancels as soon as the id is known when stopped before Ask returned', async () => {
    const chat = new Chat();
    let resolve!: (id: string) => void;
    api.ask.mockReturnValueOnce(new Promise((r) => (resolve = r)));
    chat.draft = 'q';
    const asking = chat.ask();
    expect(chat.turns[0]?.status).toBe('asking');
    await chat.cancel();
    expect(api.cancelAsk).not.toHaveBeenCalled();
    resolve('ask-1');
    await asking;
    expect(api.cancelAsk).toHaveBeenCalledWith('ask-1');
  });

  it('ends the turn itself when the answer had already finished', async () => {
    const chat = new Chat();
    const id = await asked(chat);
    emitAnswer(id, { type: 'delta', text: 'kept' });
    api.cancelAsk.mockResolvedValueOnce(false);
    await chat.cancel();
    expect(chat.turns[0]).toMatchObject({ status: 'cancelled', text: 'kept' });
    expect(answerListeners(id)).toBe(0);
  });

  it('reports a failed cancel and lets the user try again', async () => {
    const chat = new Chat();
    await asked(chat);
    api.cancelAsk.mockRejectedValueOnce(new Error('no such answer'));
    await chat.cancel();
    expect(chat.error).toBe('no such answer');
    expect(chat.turns[0]?.cancelling).toBe(false);
  });
});

describe('Chat conversation', () => {
  it('loads the session’s turns', async () => {
    api.conversation.mockResolvedValueOnce([sampleAnswer(), sampleAnswer({ id: 'a2', question: 'Next?', cancelled: true })]);
    const chat = new Chat();
    await chat.load();
    expect(chat.turns.map((t) => [t.question, t.status])).toEqual([
      ['What is SAT?', 'done'],
      ['Next?', 'cancelled'],
    ]);
    expect(chat.turns[0]?.sources).toEqual([sampleSource()]);
  });

  it('shows the turns a course file brings, once each', async () => {
    const chat = new Chat();
    const stop = chat.start();
    const id = await asked(chat);
    const mine = sampleAnswer({ id });
    emitAnswer(id, { type: 'done', answer: mine });
    const restored = [sampleAnswer({ id: 'c1', question: 'From the course?' }), sampleAnswer({ id: 'c2', question: 'And then?' })];
    api.conversation.mockResolvedValue([mine, ...restored]);
    api.restoreConversation(2);
    await vi.waitFor(() => expect(chat.turns).toHaveLength(3));
    await chat.load(); // a second load (the page's own, say) adds nothing
    expect(chat.turns.map((t) => t.question)).toEqual([mine.question, 'From the course?', 'And then?']);
    stop();
    api.conversation.mockResolvedValue([mine, ...restored, sampleAnswer({ id: 'c3' })]);
    api.restoreConversation(1);
    await Promise.resolve();
    expect(chat.turns).toHaveLength(3);
  });

  it('starts a new conversation', async () => {
    const chat = new Chat();
    const id = await asked(chat);
    emitAnswer(id, { type: 'done', answer: sampleAnswer() });
    await chat.clear();
    expect(api.clearConversation).toHaveBeenCalled();
    expect(chat.turns).toEqual([]);
  });

  it('stops a running answer before clearing', async () => {
    const chat = new Chat();
    const id = await asked(chat);
    await chat.clear();
    expect(api.cancelAsk).toHaveBeenCalledWith(id);
    expect(answerListeners(id)).toBe(0);
    expect(chat.turns).toEqual([]);
  });

  it('stops an answer whose Ask was still on its way when the conversation was cleared', async () => {
    const chat = new Chat();
    let resolve!: (id: string) => void;
    api.ask.mockReturnValueOnce(new Promise((r) => (resolve = r)));
    chat.draft = 'q';
    const asking = chat.ask();
    await chat.clear();
    resolve('ask-1');
    await asking;
    expect(api.cancelAsk).toHaveBeenCalledWith('ask-1');
    expect(chat.turns).toEqual([]);
  });

  it('exports, says where, and stays quiet when the dialog is cancelled', async () => {
    const chat = new Chat();
    api.exportConversation.mockResolvedValueOnce('/home/ana/vika.html');
    await chat.export('html');
    expect(api.exportConversation).toHaveBeenCalledWith('html');
    expect(chat.exported).toBe('/home/ana/vika.html');
    expect(chat.exporting).toBeNull();

    api.exportConversation.mockResolvedValueOnce('');
    await chat.export('md');
    expect(chat.exported).toBeNull();
    expect(chat.error).toBeNull();

    api.exportConversation.mockRejectedValueOnce(new Error('permission denied'));
    await chat.export('md');
    expect(chat.error).toBe('permission denied');
  });

  it('opens links through the api only', () => {
    const chat = new Chat();
    chat.openLink('https://example.org');
    expect(api.openExternal).toHaveBeenCalledWith('https://example.org');
  });
});
