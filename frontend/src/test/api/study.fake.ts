// The study part of the fake api module (fake.ts re-exports it): the study
// functions as vi.fn with an empty backend's defaults, emitStudy to drive a
// job's events, and sample guides, decks and quizzes shaped as Go sends them.

import { vi } from 'vitest';
import type * as real from '../../lib/api/index.ts';
import { BridgeError } from '../../lib/api/call.ts';
import type {
  QuizItem,
  ReviewCard,
  ReviewProgress,
  StudyCard,
  StudyDeck,
  StudyEvent,
  StudyGuide,
  StudyPlan,
  MindMap,
} from '../../lib/api/types.ts';

type Api = typeof real;

const studyHandlers = new Map<string, Set<(event: StudyEvent) => void>>();
let nextStudy = 0;

export const newStudyID = vi.fn<Api['newStudyID']>(() => `study-${++nextStudy}`);
export const studyPlan = vi.fn<Api['studyPlan']>(async () => samplePlan());
export const startStudyGuide = vi.fn<Api['startStudyGuide']>(async () => {});
export const startStudyCards = vi.fn<Api['startStudyCards']>(async () => {});
export const cancelStudy = vi.fn<Api['cancelStudy']>(async () => true);
export const studyGuideKept = vi.fn<Api['studyGuideKept']>(async () => null);
export const studySections = vi.fn<Api['studySections']>(async () => []);
/** No model by default: the StudyNeedsModel error, as Go sends it without one. */
export const suggestQuestions = vi.fn<Api['suggestQuestions']>(async () => {
  throw new BridgeError({ code: 'study.needs_model', message: 'flashcards and quizzes need a language model' });
});
export const exportStudyGuide = vi.fn<Api['exportStudyGuide']>(async () => '');
export const exportCards = vi.fn<Api['exportCards']>(async () => '');
export const mindMap = vi.fn<Api['mindMap']>(async () => sampleMindMap());
export const exportMindMap = vi.fn<Api['exportMindMap']>(async () => '');
export const onStudy = vi.fn<Api['onStudy']>((id, fn) => {
  const set = studyHandlers.get(id) ?? new Set();
  set.add(fn);
  studyHandlers.set(id, set);
  return () => set.delete(fn);
});

/** Delivers a "study:<id>" event to its subscribers. */
export function emitStudy(id: string, event: StudyEvent): void {
  for (const fn of studyHandlers.get(id) ?? []) fn(event);
}

/** How many handlers listen to one study job's events. */
export function studyListeners(id: string): number {
  return studyHandlers.get(id)?.size ?? 0;
}

export function resetStudyFake(): void {
  studyHandlers.clear();
  nextStudy = 0;
}

const LABEL = '[lecture_sat.pdf p.3]';

/** A document's mind map as Go sends it: two sections, a key term, a label carrying markup. */
export function sampleMindMap(): MindMap {
  const node = (label: string, kind: string, page: number, children: MindMap['root'][] = [], to = 0) =>
    ({ label, kind, doc_id: 'a3f1c9', file: 'lecture_sat.pdf', page, to, children }) as MindMap['root'];
  return {
    root: node('lecture_sat.pdf', 'document', 1, [
      node('1 Unit propagation', 'section', 2, [node('unit clause', 'term', 3)], 4),
      node('2 <b>DPLL</b> & backtracking', 'section', 5, [], 9),
    ], 9),
    nodes: 3,
    terms: 1,
    truncated: false,
  };
}

export function samplePlan(overrides: Partial<StudyPlan> = {}): StudyPlan {
  return {
    model: 'gemini/gemini-2.5-flash',
    model_name: 'Gemini 2.5 Flash',
    context: 1_048_576,
    batch_tokens: 12_000,
    documents: 1,
    passages: 40,
    pages: 42,
    batches: 2,
    reduces: 1,
    requests: 3,
    input_tokens: 26_500,
    output_tokens: 6_144,
    extractive: false,
    ...overrides,
  };
}

/** A checked line citing LABEL, verified or not (the checker's verdict on its one citation). */
export function sampleLine(text: string, verified = true) {
  const start = text.length + 1;
  const full = `${text} ${LABEL}`;
  const citation = {
    label: LABEL,
    raw: LABEL,
    file: 'lecture_sat.pdf',
    page: 3,
    doc_id: 'a3f1c9',
    source_index: 1,
    verified,
    ...(verified ? {} : { reason: 'cite.numbers' }),
    overlap: verified ? 0.9 : 0.2,
    claim: text,
    start,
    end: full.length,
  };
  return {
    text: full,
    check: {
      verified,
      ...(verified ? {} : { reason: 'cite.numbers' }),
      label: LABEL,
      doc_id: 'a3f1c9',
      page: 3,
      citations: [citation],
    },
  };
}

export function sampleGuide(overrides: Partial<StudyGuide> = {}): StudyGuide {
  return {
    doc_id: 'a3f1c9',
    file: 'lecture_sat.pdf',
    from: 1,
    to: 42,
    docs: [{ doc_id: 'a3f1c9', file: 'lecture_sat.pdf', label: 'lecture_sat.pdf', from: 1, to: 42, passages: 40 }],
    lang: 'en',
    summary: [sampleLine('SAT is the problem of deciding whether a formula is satisfiable'), sampleLine('DPLL solves 12 of 10 cases', false)],
    terms: [{ term: 'Clause', definition: sampleLine('a disjunction of literals') }],
    questions: [{ question: 'What does DPLL add to backtracking?', answer: sampleLine('unit propagation and pure literal elimination') }],
    plan: samplePlan(),
    models: ['gemini/gemini-2.5-flash'],
    ...overrides,
  } as StudyGuide;
}

export function sampleCard(question: string, answer: string, verified = true): StudyCard {
  const line = sampleLine(answer, verified);
  return { id: `id-${question}`, question, answer: line.text, label: LABEL, doc_id: 'a3f1c9', page: 3, check: line.check } as StudyCard;
}

export function sampleDeck(cards: StudyCard[]): StudyDeck {
  return {
    doc_id: 'a3f1c9',
    file: 'lecture_sat.pdf',
    docs: [{ doc_id: 'a3f1c9', file: 'lecture_sat.pdf', label: 'lecture_sat.pdf', from: 1, to: 42, passages: 40 }],
    lang: 'en',
    cards,
    refused: [],
    merged: 0,
    dedup: 'embedding',
    dedup_model: 'bge-small-en-v1.5',
  } as StudyDeck;
}

export function sampleQuiz(cards: StudyCard[]): QuizItem[] {
  const [a, b, c] = cards;
  return [
    { kind: 'choice', question: a!.question, answer: 'unit propagation', options: ['a clause', 'unit propagation', 'a literal'], correct: 1, card: a! },
    { kind: 'short', question: b!.question, answer: 'a disjunction of literals', correct: 0, card: b! },
    { kind: 'choice', question: c!.question, answer: 'a literal', options: ['a literal', 'a clause'], correct: 0, card: c! },
  ];
}

// --- the review (api/review.ts): an empty deck by default ---

export const reviewQueue = vi.fn<Api['reviewQueue']>(async () => []);
export const reviewCards = vi.fn<Api['reviewCards']>(async () => []);
export const reviewQuiz = vi.fn<Api['reviewQuiz']>(async () => []);
export const gradeCard = vi.fn<Api['gradeCard']>(async (id) => sampleReviewCard({ id }));
export const answerQuiz = vi.fn<Api['answerQuiz']>(async () => {});
export const reviewProgress = vi.fn<Api['reviewProgress']>(async () => sampleProgress());

/** A card under review, new, as Go sends it (intervals of a new card: 1 min, 6 min, 10 min, 8 days). */
export function sampleReviewCard(overrides: Partial<ReviewCard> = {}): ReviewCard {
  return {
    id: 'c1',
    doc_id: 'a3f1c9',
    file: 'lecture_sat.pdf',
    page: 3,
    section: 'Backtracking',
    question: 'What does DPLL add to backtracking?',
    answer: `Unit propagation and pure literal elimination ${LABEL}`,
    label: LABEL,
    added: '2026-03-02T09:00:00Z',
    memory: { state: 0 },
    next: [60, 360, 600, 691200],
    ...overrides,
  } as ReviewCard;
}

const zero = { cards: 0, due: 0, new: 0, reviewed: 0, recalled: 0, missed: 0, quiz_right: 0, quiz_wrong: 0 };

/** Progress: an empty deck, or one document with a weak section. */
export function sampleProgress(withWeak = false): ReviewProgress {
  if (!withWeak) return { total: zero, docs: [], weak: [] };
  const weakCounts = { ...zero, cards: 2, due: 1, reviewed: 3, recalled: 1, missed: 2, quiz_wrong: 1 };
  const good = { ...zero, cards: 3, reviewed: 3, recalled: 3, quiz_right: 2 };
  return {
    total: { ...zero, cards: 5, due: 1, reviewed: 6, recalled: 4, missed: 2, quiz_right: 2, quiz_wrong: 1 },
    docs: [
      {
        doc_id: 'a3f1c9',
        file: 'lecture_sat.pdf',
        ...{ ...zero, cards: 5, due: 1, reviewed: 6, recalled: 4, missed: 2, quiz_right: 2, quiz_wrong: 1 },
        sections: [
          { section: 'Backtracking', ...weakCounts },
          { section: 'Clauses', ...good },
        ],
      },
    ],
    weak: [{ doc_id: 'a3f1c9', file: 'lecture_sat.pdf', section: 'Backtracking', counts: weakCounts, missed: 0.75 }],
  };
}
