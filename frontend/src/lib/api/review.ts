// Spaced repetition: the flashcards due today, a section's cards and its
// quiz (a weak section studied again), a grade, a quiz answer, the
// progress per document and section. Go owns the deck, its log and the
// FSRS schedule (backend/review, backend/srs); the page only shows them.
// Part of the API (index.ts re-exports every domain module).

import * as App from '../../../wailsjs/go/main/App';
import type { review } from '../../../wailsjs/go/models';
import { call } from './call.ts';
import type { Grade, QuizItem, ReviewCard, ReviewProgress, ReviewScope } from './types.ts';

/** The cards of scope due today, the longest overdue first, with each grade's next interval. */
export async function reviewQueue(scope: ReviewScope, limit = 0): Promise<ReviewCard[]> {
  return ((await call(() => App.ReviewQueue({ ...scope } as review.Scope, limit))) ?? []) as ReviewCard[];
}

/** Every card of scope under review, due or not. */
export async function reviewCards(scope: ReviewScope): Promise<ReviewCard[]> {
  return ((await call(() => App.ReviewCards({ ...scope } as review.Scope))) ?? []) as ReviewCard[];
}

/** A quiz on the cards of scope under review. */
export async function reviewQuiz(scope: ReviewScope): Promise<QuizItem[]> {
  return ((await call(() => App.ReviewQuiz({ ...scope } as review.Scope))) ?? []) as unknown as QuizItem[];
}

/** Records a grade of a card (1 again … 4 easy); the card as scheduled. */
export async function gradeCard(id: string, grade: Grade): Promise<ReviewCard> {
  return (await call(() => App.GradeCard(id, grade))) as ReviewCard;
}

/** Records a quiz answer on a card, right or wrong. */
export async function answerQuiz(id: string, right: boolean): Promise<void> {
  await call(() => App.AnswerQuiz(id, right));
}

/** Progress per document and outline section, with the weak sections. */
export async function reviewProgress(): Promise<ReviewProgress> {
  return (await call(() => App.ReviewProgress())) as ReviewProgress;
}
