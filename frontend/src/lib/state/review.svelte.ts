// The review's state, shared by the Study view and the dashboard: the
// flashcards due today (Go's queue, each with its four grades' next
// intervals), the card shown and whether its answer is, the grades given
// this sitting, the progress per document and section with the weak
// sections, and a weak section studied again (its cards, its guide, a
// quiz on it, through the Study view's section scope). Go owns the deck,
// the log and the FSRS schedule; this class only asks and shows.

import * as api from '../api/index.ts';
import type { Grade, ReviewCard, ReviewProgress, WeakSection } from '../api/types.ts';
import { handleError } from '../errors.ts';
import { t } from './locale.svelte.ts';
import type { Study } from './study.svelte.ts';

/** A section studied again: its document and title. */
export interface Again {
  doc_id: string;
  file: string;
  section: string;
}

export class Review {
  /** Today's queue, or the cards of the section studied again. */
  queue = $state<ReviewCard[]>([]);
  /** The section studied again; null for the cards due today. */
  again = $state<Again | null>(null);
  revealed = $state(false);
  /** Grades given since the queue was loaded. */
  graded = $state(0);
  progress = $state<ReviewProgress | null>(null);
  grading = $state(false);
  error = $state<string | null>(null);

  #study: Study;
  #seq = 0;

  constructor(study: Study) {
    this.#study = study;
  }

  /** The card shown: the head of the queue. */
  get current(): ReviewCard | null {
    return this.queue[0] ?? null;
  }

  /** Loads today's queue (or the section's cards) and the progress. */
  async load(): Promise<void> {
    const seq = ++this.#seq;
    const again = this.again;
    try {
      const scope = again ? { doc_id: again.doc_id, section: again.section } : {};
      const [queue, progress] = await Promise.all([
        again ? api.reviewCards(scope) : api.reviewQueue(scope),
        api.reviewProgress(),
      ]);
      if (seq !== this.#seq) return;
      this.queue = queue;
      this.progress = progress;
      this.revealed = false;
    } catch (err) {
      if (seq === this.#seq) this.#report(err);
    }
  }

  /** Loads the progress alone (the dashboard). */
  async loadProgress(): Promise<void> {
    try {
      this.progress = await api.reviewProgress();
    } catch (err) {
      this.#report(err);
    }
  }

  reveal(): void {
    this.revealed = true;
  }

  /**
   * Grades the card shown. Today's queue is asked again (a card missed
   * comes back in minutes, Go says when); a section studied again goes on
   * with its next card.
   */
  async grade(g: Grade): Promise<void> {
    const card = this.current;
    if (!card || this.grading) return;
    this.grading = true;
    this.error = null;
    try {
      await api.gradeCard(card.id, g);
      this.graded++;
      if (this.again) {
        this.queue = this.queue.slice(1);
        this.progress = await api.reviewProgress();
      } else {
        const seq = ++this.#seq;
        const [queue, progress] = await Promise.all([api.reviewQueue({}), api.reviewProgress()]);
        if (seq === this.#seq) {
          // A card graded Again that is due at once waits behind the others.
          this.queue = queue.length > 1 && queue[0]?.id === card.id ? [...queue.slice(1), queue[0]!] : queue;
          this.progress = progress;
        }
      }
      this.revealed = false;
    } catch (err) {
      this.#report(err);
    } finally {
      this.grading = false;
    }
  }

  /**
   * Studies a weak section again: the Study view takes its scope (its
   * guide, if one was made), the review tab its cards, the quiz tab a
   * quiz on them.
   */
  async studyAgain(w: WeakSection | Again): Promise<void> {
    const again = { doc_id: w.doc_id, file: w.file, section: w.section };
    const study = this.#study;
    if (study.job) return;
    this.again = again;
    this.graded = 0;
    if (study.docID !== again.doc_id) await study.choose(again.doc_id);
    if (again.section && study.sections.some((s) => s.title === again.section)) await study.chooseSection(again.section);
    try {
      study.useQuiz(await api.reviewQuiz({ doc_id: again.doc_id, section: again.section }));
    } catch (err) {
      this.#report(err);
    }
    study.tab = 'review';
    await this.load();
  }

  /** The Study view's tab of the cards due today, loaded. */
  async showToday(): Promise<void> {
    this.#study.tab = 'review';
    await this.today();
  }

  /** Back to the cards due today. */
  async today(): Promise<void> {
    this.again = null;
    this.graded = 0;
    await this.load();
  }

  dismissError(): void {
    this.error = null;
  }

  #report(err: unknown): void {
    const text = handleError(err, t('review.failed'));
    if (text !== null) this.error = text;
  }
}

const UNITS: [number, string][] = [
  [365 * 86400, 'year'],
  [30 * 86400, 'month'],
  [86400, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
];

/** An interval in seconds as the grade buttons show it: "10 min", "3 d", "1.5 mo". */
export function formatInterval(seconds: number, lang: string): string {
  const s = Math.max(seconds, 60);
  for (const [size, unit] of UNITS) {
    if (s >= size || unit === 'minute') {
      const n = s / size;
      const value = n >= 10 || unit === 'minute' || unit === 'hour' || unit === 'day' ? Math.round(n) : Math.round(n * 10) / 10;
      return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
    }
  }
  return '';
}
