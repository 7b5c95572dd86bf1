import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as fake from '../../../test/api/fake.ts';
import { locale } from '../../state/locale.svelte.ts';
import { Review } from '../../state/review.svelte.ts';
import { Study } from '../../state/study.svelte.ts';
import StudyPanel from './StudyPanel.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

const flush = async () => {
  for (let i = 0; i < 5; i++) await tick();
};

async function setup() {
  const study = new Study();
  const onOpen = vi.fn();
  const onSettings = vi.fn();
  const review = new Review(study);
  render(StudyPanel, { study, review, documents: [fake.sampleDocument()], onOpen, onSettings });
  await flush();
  return { study, review, onOpen, onSettings };
}

const cards = () => [
  fake.sampleCard('What does DPLL add?', 'unit propagation'),
  fake.sampleCard('What is a clause?', 'a disjunction of literals'),
  fake.sampleCard('What is x?', 'a literal', false),
];

beforeEach(() => {
  vi.clearAllMocks();
  fake.resetFakeApi();
  locale.set('en');
});

describe('the Study view', () => {
  it('announces the plan before starting, shows progress, and cancels', async () => {
    const { study } = await setup();
    expect(fake.studyPlan).toHaveBeenCalledWith({ doc_id: 'a3f1c9' }, {});
    expect(screen.getByText(/3 requests to Gemini 2\.5 Flash: about 26,500 tokens sent, at most 6,144 written\./)).toBeTruthy();
    expect(screen.getByText(/batches of 40 passages \(at most 12,000 tokens/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Make the study guide' }));
    expect(fake.startStudyGuide).toHaveBeenCalledWith('study-1', { doc_id: 'a3f1c9' }, {});
    fake.emitStudy('study-1', { type: 'progress', progress: { stage: 'map', done: 1, total: 3 } });
    await flush();
    expect(screen.getByText('Reading the passages: 1 of 3 requests')).toBeTruthy();
    fake.emitStudy('study-1', { type: 'progress', progress: { stage: 'map', done: 1, total: 3, waiting: 20 } });
    await flush();
    expect(screen.getByText('Waiting 20 s for the provider’s rate limit')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(fake.cancelStudy).toHaveBeenCalledWith('study-1');
    fake.emitStudy('study-1', { type: 'error', error: { code: 'error.cancelled' } });
    await flush();
    expect(study.job).toBeNull();
    expect(fake.studyListeners('study-1')).toBe(0);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Make the study guide' })).toBeTruthy();
  });

  it('ends a guide whose replies followed no format with the reason and no guide', async () => {
    const { study } = await setup();
    const error = { code: 'study.unformatted', params: { models: ['Gemini 2.5 Flash-Lite', 'Llama 3.1 8B (Groq)'] } };
    await fireEvent.click(screen.getByRole('button', { name: 'Make the study guide' }));
    fake.emitStudy('study-1', { type: 'error', error });
    await flush();
    expect(study.job).toBeNull();
    expect(study.guide).toBeNull();
    expect(screen.queryByText('Summary')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain(
      'The model’s reply did not follow the format asked for (no SUMMARY:, TERM: or Q:/A: line; tried: Gemini 2.5 Flash-Lite and Llama 3.1 8B (Groq)), so nothing was made.',
    );
  });

  it('shows the guide with the chat’s chips, the unverified line marked, a chip opening the viewer', async () => {
    const { onOpen } = await setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Make the study guide' }));
    fake.emitStudy('study-1', { type: 'done', guide: fake.sampleGuide() });
    await flush();
    expect(screen.getByText('Summary')).toBeTruthy();
    expect(screen.getByText('Key terms')).toBeTruthy();
    expect(screen.getByText('1 line is not verified by its cited page: its chip is marked, as in the chat.')).toBeTruthy();
    const chips = document.querySelectorAll('button.cite');
    expect(chips.length).toBe(4);
    expect(document.querySelectorAll('button.cite.unverified').length).toBe(1);
    expect(document.querySelector('button.cite.unverified')?.getAttribute('title')).toContain('its numbers are not in the cited passage');
    await fireEvent.click(chips[0]!);
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ doc_id: 'a3f1c9', page: 3, state: 'verified' }));
    fake.exportStudyGuide.mockResolvedValueOnce('/tmp/guide.html');
    await fireEvent.click(screen.getByRole('button', { name: 'HTML' }));
    await flush();
    expect(fake.exportStudyGuide).toHaveBeenCalledWith({ doc_id: 'a3f1c9', section: '' }, 'html');
    expect(screen.getByRole('status').textContent).toContain('/tmp/guide.html');
  });

  it('offline: the outline is offered, flashcards say they need a model and how to add one', async () => {
    fake.studyPlan.mockResolvedValue(fake.samplePlan({ extractive: true, model: undefined, model_name: undefined, requests: 0 }));
    const { onSettings } = await setup();
    expect(screen.getByText(/No model is configured/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Make flashcards and a quiz' }));
    expect(fake.startStudyCards).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toContain('Settings');
    await fireEvent.click(screen.getByRole('button', { name: 'Open Settings' }));
    expect(onSettings).toHaveBeenCalled();
    await fireEvent.click(screen.getByRole('button', { name: 'Make the outline' }));
    const quote = 'Satisfiability asks whether some assignment makes the formula true';
    fake.emitStudy('study-1', {
      type: 'done',
      guide: fake.sampleGuide({
        summary: [],
        terms: [],
        questions: [],
        outline: [{ title: '2 Background', depth: 0, from: 2, to: 5, quote, label: '[lecture_sat.pdf p.3]', doc_id: 'a3f1c9', file: 'lecture_sat.pdf', page: 3 }],
      }),
    });
    await flush();
    expect(screen.getByText('2 Background')).toBeTruthy();
    const chip = document.querySelector('button.cite.verified');
    expect(chip).toBeTruthy();
  });

  it('lists the cards with verdicts, exports them, and runs the quiz', async () => {
    const { study, onOpen } = await setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Make flashcards and a quiz' }));
    const deck = fake.sampleDeck(cards());
    fake.emitStudy('study-1', { type: 'done', deck, quiz: fake.sampleQuiz(deck.cards ?? []) });
    await flush();
    expect(screen.getByText('3 flashcards · lecture_sat.pdf')).toBeTruthy();
    expect(screen.getAllByText('Verified by its page').length).toBe(2);
    expect(screen.getByText('Not verified: its numbers are not in the cited passage')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Anki package' }));
    expect(fake.exportCards).toHaveBeenCalledWith(deck, 'apkg');

    await fireEvent.click(screen.getByRole('tab', { name: 'Quiz' }));
    expect(screen.getByText('Question 1 of 3 · Multiple choice')).toBeTruthy();
    expect(document.querySelector('button.cite')).toBeNull(); // the source hides until revealed
    await fireEvent.click(screen.getByRole('button', { name: /unit propagation/ }));
    expect(screen.getByText('Right.')).toBeTruthy();
    expect(study.score).toEqual({ right: 1, answered: 1 });
    await fireEvent.click(document.querySelector('button.cite')!);
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ page: 3 }));

    await fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Question 2 of 3 · Short answer')).toBeTruthy();
    await fireEvent.input(screen.getByRole('textbox'), { target: { value: 'literals' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Reveal the answer' }));
    expect(within(document.querySelector('.reveal') as HTMLElement).getByText(/a disjunction of literals/)).toBeTruthy();

    await fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await fireEvent.click(screen.getByRole('button', { name: /a clause/ }));
    expect(screen.getByText('Not quite.')).toBeTruthy();
    expect(screen.getByText('Score: 1 of 2 multiple-choice questions right')).toBeTruthy();
  });

  it('says when the embedding model failed and the cards merged on text only', async () => {
    await setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Make flashcards and a quiz' }));
    const deck = { ...fake.sampleDeck(cards()), merged: 1, dedup: 'text_fallback', dedup_model: '' };
    fake.emitStudy('study-1', { type: 'done', deck, quiz: fake.sampleQuiz(deck.cards ?? []) });
    await flush();
    expect(screen.getByText(/The embedding model failed: only cards with the same question and answer were merged \(1\)/)).toBeTruthy();
    expect(screen.getByText('3 flashcards · lecture_sat.pdf')).toBeTruthy();
  });

  it('shows the guide kept this session for the document and section chosen', async () => {
    fake.studySections.mockResolvedValue([{ title: '2 Background', page: 2, depth: 0 }]);
    fake.studyGuideKept.mockImplementation(async (scope) => (scope.section === '2 Background' ? fake.sampleGuide({ section: scope.section }) : null));
    await setup();
    expect(screen.getByText('No guide yet for this document or section.')).toBeTruthy();
    await fireEvent.change(screen.getByRole('combobox', { name: 'Section' }), { target: { value: '2 Background' } });
    await flush();
    expect(fake.studyPlan).toHaveBeenLastCalledWith({ doc_id: 'a3f1c9', section: '2 Background' }, {});
    expect(screen.getByRole('heading', { name: '2 Background' })).toBeTruthy();
  });

  it('makes flashcards from a passage selected in the viewer, then goes back to the whole document', async () => {
    const { study } = await setup();
    const sel = { doc_id: 'a3f1c9', page: 4, text: 'Unit propagation assigns the literal of every unit clause.', file: 'lecture.pdf' };
    await study.cardsFrom(sel);
    await flush();
    expect(fake.startStudyCards).toHaveBeenCalledWith('study-1', { doc_id: 'a3f1c9', page: 4, text: sel.text }, {});
    const note = screen.getByText(/Flashcards from your selection on p\.4: “Unit propagation assigns/);
    expect(note).toBeTruthy();
    fake.emitStudy('study-1', { type: 'done', deck: fake.sampleDeck(cards()), quiz: fake.sampleQuiz(cards()) });
    await flush();
    expect(study.tab).toBe('cards');
    // The guide still covers the document; the cards' next run, after "The whole document", does too.
    await fireEvent.click(screen.getByRole('button', { name: 'Make the study guide' }));
    expect(fake.startStudyGuide).toHaveBeenCalledWith('study-2', { doc_id: 'a3f1c9' }, {});
    fake.emitStudy('study-2', { type: 'error', error: { code: 'error.cancelled' } });
    await flush();
    await fireEvent.click(screen.getByRole('button', { name: 'The whole document' }));
    expect(screen.queryByText(/Flashcards from your selection/)).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Make flashcards and a quiz' }));
    expect(fake.startStudyCards).toHaveBeenLastCalledWith('study-3', { doc_id: 'a3f1c9' }, {});
  });

  it('studies several documents or the whole library: the plan, the guide citing each, the cards merged', async () => {
    const study = new Study();
    const onOpen = vi.fn();
    const docs = [
      fake.sampleDocument(),
      fake.sampleDocument({ doc_id: 'b7e2', file: 'graphs.pdf', label: 'graphs.pdf' }),
      fake.sampleDocument({ doc_id: 'c9d4', file: 'logic.pdf', label: 'logic.pdf' }),
    ];
    render(StudyPanel, { study, review: new Review(study), documents: docs, onOpen, onSettings: vi.fn() });
    await flush();
    const pick = screen.getByRole('combobox', { name: 'Document' });
    expect(within(pick).getByRole('option', { name: 'The whole library (3 documents)' })).toBeTruthy();
    await fireEvent.change(pick, { target: { value: '\u0000several' } });
    await flush();
    expect(fake.studyPlan).toHaveBeenLastCalledWith({ doc_id: '', docs: ['a3f1c9', 'b7e2'] }, {});
    expect(fake.studyGuideKept).toHaveBeenLastCalledWith({ doc_id: '', docs: ['a3f1c9', 'b7e2'] });
    expect(screen.queryByRole('combobox', { name: 'Section' })).toBeNull();
    await fireEvent.click(screen.getByRole('checkbox', { name: 'logic.pdf' }));
    await flush();
    expect(fake.studyPlan).toHaveBeenLastCalledWith({ doc_id: '', docs: ['a3f1c9', 'b7e2', 'c9d4'] }, {});
    fake.studyPlan.mockResolvedValue(fake.samplePlan({ documents: 3, pages: 120, requests: 5 }));
    await fireEvent.change(pick, { target: { value: '\u0000all' } });
    await flush();
    expect(fake.studyPlan).toHaveBeenLastCalledWith({ doc_id: '', all: true }, {});
    expect(screen.getByText(/3 documents, 120 pages\. 5 requests to Gemini 2\.5 Flash/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Make the study guide' }));
    expect(fake.startStudyGuide).toHaveBeenCalledWith('study-1', { doc_id: '', all: true }, {});
    const twoDocs = [
      { doc_id: 'a3f1c9', file: 'lecture_sat.pdf', label: 'lecture_sat.pdf', from: 1, to: 42, passages: 40 },
      { doc_id: 'b7e2', file: 'graphs.pdf', label: 'graphs.pdf', from: 1, to: 12, passages: 20 },
    ];
    fake.emitStudy('study-1', { type: 'done', guide: fake.sampleGuide({ doc_id: '', file: 'lecture_sat.pdf, graphs.pdf', from: 0, to: 0, docs: twoDocs }) });
    await flush();
    expect(screen.getByRole('heading', { name: 'Course-wide study guide' })).toBeTruthy();
    expect(screen.getByText(/2 documents, each line citing its own/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'HTML' }));
    expect(fake.exportStudyGuide).toHaveBeenCalledWith({ doc_id: '', docs: ['a3f1c9', 'b7e2'] }, 'html');
    // Flashcards: two near duplicates merged, the card kept citing the other document's page too.
    const [first, ...rest] = cards();
    const merged = { ...first!, also: [{ label: '[graphs.pdf p.7]', doc_id: 'b7e2', page: 7, verified: true }] };
    await fireEvent.click(screen.getByRole('button', { name: 'Make flashcards and a quiz' }));
    fake.emitStudy('study-2', { type: 'done', deck: { ...fake.sampleDeck([merged, ...rest]), doc_id: '', docs: twoDocs, merged: 2 }, quiz: [] });
    await flush();
    expect(screen.getByText(/2 near-duplicate cards were merged \(embedding similarity, bge-small-en-v1\.5\)/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'graphs.pdf p.7' }));
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ doc_id: 'b7e2', page: 7, file: 'graphs.pdf', state: 'verified' }));
    // Back to one document: its sections and its own scope again.
    await fireEvent.change(pick, { target: { value: 'b7e2' } });
    await flush();
    expect(fake.studyPlan).toHaveBeenLastCalledWith({ doc_id: 'b7e2' }, {});
    expect(study.width).toBe('one');
  });

  it('speaks French', async () => {
    locale.set('fr');
    await setup();
    expect(screen.getByRole('button', { name: 'Faire la fiche de révision' })).toBeTruthy();
    expect(screen.getByText(/3 requêtes à Gemini 2\.5 Flash/)).toBeTruthy();
  });
});

describe('the review', () => {
  it('shows the cards due today, the four grades with their next intervals, and the queue after grading', async () => {
    const first = fake.sampleReviewCard();
    const second = fake.sampleReviewCard({ id: 'c2', question: 'What is a clause?', section: 'Clauses' });
    fake.reviewQueue.mockResolvedValue([first, second]);
    fake.reviewProgress.mockResolvedValue({ ...fake.sampleProgress(), total: { ...fake.sampleProgress().total, cards: 2, due: 2 } });
    await setup();
    await fireEvent.click(screen.getByRole('tab', { name: /Due today/ }));
    await flush();
    expect(screen.getByText(/^2 cards left today/)).toBeTruthy();
    expect(screen.getByText('What does DPLL add to backtracking?')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Show the answer' }));
    const grades = within(screen.getByRole('group', { name: 'How well did you remember it?' })).getAllByRole('button');
    expect(grades.map((b) => b.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'Again next in 1 min',
      'Hard next in 6 min',
      'Good next in 10 min',
      'Easy next in 8 days',
    ]);
    fake.reviewQueue.mockResolvedValue([second]);
    await fireEvent.click(grades[2]!);
    await flush();
    expect(fake.gradeCard).toHaveBeenCalledWith('c1', 3);
    expect(screen.getByText('What is a clause?')).toBeTruthy();
    expect(screen.getByText(/^1 card left today/)).toBeTruthy();
    fake.reviewQueue.mockResolvedValue([]);
    // The keys: Space shows the answer, 1 grades it Again.
    await fireEvent.keyDown(window, { key: ' ' });
    expect(screen.getByRole('group', { name: 'How well did you remember it?' })).toBeTruthy();
    await fireEvent.keyDown(window, { key: '1' });
    await flush();
    expect(fake.gradeCard).toHaveBeenLastCalledWith('c2', 1);
    expect(screen.getByRole('status').textContent).toContain('Done for today: 2 reviews.');
  });

  it('lists the progress with the weak sections, and studies one again: its cards, its section, a quiz on it', async () => {
    fake.reviewProgress.mockResolvedValue(fake.sampleProgress(true));
    fake.studySections.mockResolvedValue([
      { title: 'Backtracking', page: 3, depth: 0 },
      { title: 'Clauses', page: 9, depth: 0 },
    ]);
    const card = fake.sampleReviewCard();
    fake.reviewCards.mockResolvedValue([card]);
    fake.reviewQuiz.mockResolvedValue(fake.sampleQuiz(cards()));
    const { study } = await setup();
    await fireEvent.click(screen.getByRole('tab', { name: 'Progress' }));
    await flush();
    expect(screen.getByText('Weak sections')).toBeTruthy();
    expect(screen.getByText('75% missed (3 of 4)')).toBeTruthy();
    const rows = screen.getAllByRole('row').map((r) => [...r.children].map((c) => c.textContent?.trim()).join(' '));
    expect(rows).toContain('Backtracking 2 1 3 1 2 0 / 1');
    await fireEvent.click(screen.getByRole('button', { name: 'Study again' }));
    await flush();
    expect(study.section).toBe('Backtracking');
    expect(fake.reviewCards).toHaveBeenCalledWith({ doc_id: 'a3f1c9', section: 'Backtracking' });
    expect(fake.reviewQuiz).toHaveBeenCalledWith({ doc_id: 'a3f1c9', section: 'Backtracking' });
    expect(study.quiz).toHaveLength(3);
    expect(screen.getByText('Studying again: Backtracking')).toBeTruthy();
    expect(screen.getByText(/^1 card left in this section/)).toBeTruthy();
  });

  it('records quiz answers: a choice picked, a short answer judged', async () => {
    const { study } = await setup();
    study.useQuiz(fake.sampleQuiz(cards()));
    study.tab = 'quiz';
    await flush();
    await fireEvent.click(screen.getByRole('button', { name: /a clause/ }));
    expect(fake.answerQuiz).toHaveBeenCalledWith('id-What does DPLL add?', false);
    await fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Reveal the answer' }));
    await fireEvent.click(screen.getByRole('button', { name: 'I had it right' }));
    expect(fake.answerQuiz).toHaveBeenLastCalledWith('id-What is a clause?', true);
    expect(screen.getByText('Recorded as right.')).toBeTruthy();
  });
});
