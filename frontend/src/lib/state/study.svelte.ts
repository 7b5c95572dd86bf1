// The Study view's state: the document (and outline section) studied, or
// several documents, or the whole library; the plan announced before a
// guide starts, the running job's progress and its
// cancel, the guide (kept by Go for the session), the flashcards and the
// quiz, and the exports. Jobs report on study:<id> (api.onStudy).

import * as api from '../api/index.ts';
import type {
  OutlineEntry,
  QuizItem,
  StudyDeck,
  StudyEvent,
  StudyGuide,
  StudyPlan,
  StudyProgress,
  StudyScope,
} from '../api/types.ts';
import { handleError } from '../errors.ts';
import type { BridgeMessage } from '../i18n/index.ts';
import { isCancelled } from '../i18n/messages.ts';
import { Export } from './export.svelte.ts';
import { MindMaps } from './mindmap.svelte.ts';
import { t, tm } from './locale.svelte.ts';
import type { PassageSelection } from './selection.ts';

export type StudyTab = 'guide' | 'cards' | 'quiz' | 'map' | 'review' | 'progress';
/** What is studied: one document (docID), the documents picked, or every document. */
export type StudyWidth = 'one' | 'several' | 'all';
export type JobKind = 'guide' | 'cards';
export type GuideFormat = 'html' | 'md';
export type CardsFormat = 'csv' | 'tsv' | 'apkg';

export interface StudyJob {
  id: string;
  kind: JobKind;
  progress: StudyProgress | null;
  cancelling: boolean;
}

/** What a quiz question's student did: the option picked (choice) or the answer typed (short). */
export interface QuizAttempt {
  picked: number | null;
  typed: string;
  revealed: boolean;
  /** A short answer, once revealed: the student's own verdict (recorded), null until given. */
  judged: boolean | null;
}

export class Study {
  docID = $state('');
  section = $state('');
  width = $state<StudyWidth>('one');
  /** The documents studied together when width is 'several', in the order ticked. */
  picked = $state<string[]>([]);
  /** A passage selected in the viewer: flashcards are made from it alone while it is set. */
  selection = $state<PassageSelection | null>(null);
  /** Flashcards are made from the student's own highlights and notes of the scope (study.Scope.Mine). */
  mine = $state(false);
  sections = $state<OutlineEntry[]>([]);
  plan = $state<StudyPlan | null>(null);
  job = $state<StudyJob | null>(null);
  guide = $state<StudyGuide | null>(null);
  deck = $state<StudyDeck | null>(null);
  quiz = $state<QuizItem[]>([]);
  attempts = $state<QuizAttempt[]>([]);
  /** The quiz question shown. */
  current = $state(0);
  tab = $state<StudyTab>('guide');
  error = $state<string | null>(null);
  readonly #exports = new Export();
  /** The mind map of the scope's documents (the Map tab). */
  readonly maps = new MindMaps();
  /** The format being exported; null when none is. */
  get exporting(): string | null {
    return this.#exports.running;
  }
  /** Where the last export was saved. */
  get exported(): string | null {
    return this.#exports.path;
  }

  #stop: (() => void) | null = null;
  #seq = 0;

  /** No model is configured: the guide is the extractive outline, cards need a model. */
  get offline(): boolean {
    return this.plan?.extractive ?? false;
  }

  /** The document or its section, the documents picked, or all: what the plan and the guide cover. */
  get scope(): StudyScope {
    if (this.width === 'all') return { doc_id: '', all: true };
    if (this.width === 'several') return { doc_id: '', docs: [...this.picked] };
    return this.section ? { doc_id: this.docID, section: this.section } : { doc_id: this.docID };
  }

  /** Something to study is chosen. */
  get ready(): boolean {
    return this.width === 'all' || (this.width === 'several' ? this.picked.length > 0 : this.docID !== '');
  }

  /** What flashcards are made from: the selection when one is set, else the scope. */
  get cardsScope(): StudyScope {
    const sel = this.selection;
    if (this.width === 'one' && sel && sel.doc_id === this.docID) return { doc_id: sel.doc_id, page: sel.page, text: sel.text };
    return this.mine ? { ...this.scope, mine: true } : this.scope;
  }

  /**
   * Studies several documents together ('several': the document studied
   * and the next of the library ticked to begin with) or the whole library
   * ('all'), or one document again ('one').
   */
  async widen(width: StudyWidth, library: string[]): Promise<void> {
    if (this.job || width === this.width) return;
    if (width === 'one') {
      await this.choose(this.docID || (library[0] ?? ''));
      return;
    }
    this.width = width;
    this.section = '';
    this.selection = null;
    this.mine = false;
    if (width === 'several') {
      const next = library.find((id) => id !== this.docID);
      this.picked = [this.docID || library[0], next].filter((id): id is string => !!id);
    }
    this.#clearDeck();
    await this.#refresh(++this.#seq);
  }

  /** Ticks or unticks a document of several studied together. */
  async toggleDoc(id: string, on: boolean): Promise<void> {
    if (this.job || this.width !== 'several' || this.picked.includes(id) === on) return;
    this.picked = on ? [...this.picked, id] : this.picked.filter((x) => x !== id);
    await this.#refresh(++this.#seq);
  }

  /** Follows the library: a document removed is dropped from those picked; the whole library's plan is made again. */
  async libraryChanged(library: string[]): Promise<void> {
    if (this.job || this.width === 'one') return;
    if (this.width === 'several') this.picked = this.picked.filter((id) => library.includes(id));
    await this.#refresh(++this.#seq);
  }

  #clearDeck(): void {
    this.deck = null;
    this.quiz = [];
    this.attempts = [];
  }

  /** Picks the document studied: its sections, the plan, the guide kept this session. */
  async choose(docID: string): Promise<void> {
    if (this.job) return;
    this.width = 'one';
    this.picked = [];
    this.docID = docID;
    this.section = '';
    this.selection = null;
    this.mine = false;
    this.sections = [];
    this.#clearDeck();
    if (!docID) {
      this.plan = null;
      this.guide = null;
      return;
    }
    const seq = ++this.#seq;
    try {
      const sections = await api.studySections(docID);
      if (seq !== this.#seq) return;
      this.sections = sections;
    } catch (err) {
      this.#report(err);
    }
    await this.#refresh(seq);
  }

  /** Picks an outline section ('' for the whole document). */
  async chooseSection(section: string): Promise<void> {
    if (this.job) return;
    this.section = section;
    this.selection = null;
    await this.#refresh(++this.#seq);
  }

  async #refresh(seq: number): Promise<void> {
    this.error = null;
    if (!this.ready) {
      this.plan = null;
      this.guide = null;
      return;
    }
    try {
      const [plan, kept] = await Promise.all([api.studyPlan(this.scope, {}), api.studyGuideKept(this.scope)]);
      if (seq !== this.#seq) return;
      this.plan = plan;
      this.guide = kept;
    } catch (err) {
      if (seq === this.#seq) this.#report(err);
    }
  }

  /**
   * Flashcards from a passage selected in the viewer (its menu's
   * Flashcards): the passage's document is studied, and the cards are made
   * from the passage alone until another document, a section or the whole
   * document is chosen.
   */
  async cardsFrom(sel: PassageSelection): Promise<void> {
    if (this.job) return;
    if (sel.doc_id !== this.docID) await this.choose(sel.doc_id);
    this.selection = sel;
    this.tab = 'cards';
    await this.startCards();
  }

  /** Flashcards from the student's highlights and notes of a document ('' for the whole library). */
  async cardsFromNotes(docID: string): Promise<void> {
    if (this.job) return;
    if (docID === '') await this.widen('all', []);
    else {
      if (this.width !== 'one') await this.widen('one', []);
      if (docID !== this.docID) await this.choose(docID);
    }
    this.selection = null;
    this.mine = true;
    this.tab = 'cards';
    await this.startCards();
  }

  /** Back to the whole document (or its section) after cards from a selection or from the notes. */
  clearSelection(): void {
    if (this.job) return;
    this.selection = null;
    this.mine = false;
  }

  /** Starts the guide (or the extractive outline without a model). */
  startGuide(): Promise<void> {
    return this.#start('guide');
  }

  /** Starts flashcards and their quiz; without a model it says what to add instead. */
  startCards(): Promise<void> {
    if (this.offline) {
      this.error = tm({ code: 'study.needs_model' });
      return Promise.resolve();
    }
    return this.#start('cards');
  }

  async #start(kind: JobKind): Promise<void> {
    if (this.job || !this.ready) return;
    const id = api.newStudyID();
    this.error = null;
    this.#exports.path = null;
    this.job = { id, kind, progress: null, cancelling: false };
    this.#stop = api.onStudy(id, (e) => this.#event(id, e));
    try {
      await (kind === 'guide'
        ? api.startStudyGuide(id, this.scope, {})
        : api.startStudyCards(id, this.cardsScope, {}));
    } catch (err) {
      this.#end();
      this.#report(err);
    }
  }

  #event(id: string, e: StudyEvent): void {
    const job = this.job;
    if (!job || job.id !== id) return;
    if (e.type === 'progress') {
      job.progress = e.progress;
      return;
    }
    this.#end();
    if (e.type === 'error') {
      if (!isCancelled(e.error)) this.error = tm(e.error as BridgeMessage);
      return;
    }
    if (job.kind === 'guide' && e.guide) {
      this.guide = e.guide;
      this.tab = 'guide';
    } else if (e.deck) {
      this.deck = e.deck;
      this.quiz = e.quiz ?? [];
      this.#attempts();
      this.tab = 'cards';
    }
  }

  /** A quiz made elsewhere (a weak section studied again: api.reviewQuiz). */
  useQuiz(quiz: QuizItem[]): void {
    this.quiz = quiz;
    this.#attempts();
  }

  #attempts(): void {
    this.attempts = this.quiz.map(() => ({ picked: null, typed: '', revealed: false, judged: null }));
    this.current = 0;
  }

  #end(): void {
    this.#stop?.();
    this.#stop = null;
    this.job = null;
  }

  /** Stops the running job; what was made so far is dropped. */
  async cancel(): Promise<void> {
    const job = this.job;
    if (!job || job.cancelling) return;
    job.cancelling = true;
    try {
      const running = await api.cancelStudy(job.id);
      if (!running && this.job?.id === job.id) this.#end();
    } catch (err) {
      this.#report(err);
    }
  }

  /** Picks an option of the current multiple-choice question (reveals it); the answer is recorded. */
  pick(i: number): void {
    const a = this.attempts[this.current];
    const q = this.quiz[this.current];
    if (!a || !q || a.revealed) return;
    a.picked = i;
    a.revealed = true;
    this.#record(q, i === q.correct);
  }

  /** The student's verdict on a revealed short answer, recorded once. */
  judge(right: boolean): void {
    const a = this.attempts[this.current];
    const q = this.quiz[this.current];
    if (!a || !q || !a.revealed || a.judged !== null) return;
    a.judged = right;
    this.#record(q, right);
  }

  /** Records a quiz answer on its card (the review log; progress counts it). */
  #record(q: QuizItem, right: boolean): void {
    if (!q.card.id) return;
    api.answerQuiz(q.card.id, right).catch((err: unknown) => this.#report(err));
  }

  reveal(): void {
    const a = this.attempts[this.current];
    if (a) a.revealed = true;
  }

  go(step: number): void {
    this.current = Math.min(Math.max(this.current + step, 0), Math.max(this.quiz.length - 1, 0));
  }

  /** Right answers among the revealed multiple-choice questions. */
  get score(): { right: number; answered: number } {
    let right = 0;
    let answered = 0;
    this.quiz.forEach((q, i) => {
      const a = this.attempts[i];
      if (q.kind !== 'choice' || a?.picked == null) return;
      answered++;
      if (a.picked === q.correct) right++;
    });
    return { right, answered };
  }

  async exportGuide(format: GuideFormat): Promise<void> {
    const g = this.guide;
    if (!g) return;
    // The guide's own documents: the library may have changed since it was made.
    const scope: StudyScope = g.doc_id
      ? { doc_id: g.doc_id, section: g.section ?? '' }
      : { doc_id: '', docs: (g.docs ?? []).map((d) => d.doc_id) };
    await this.#export(format, () => api.exportStudyGuide(scope, format));
  }

  async exportCards(format: CardsFormat): Promise<void> {
    if (!this.deck) return;
    const deck = this.deck;
    await this.#export(format, () => api.exportCards(deck, format));
  }

  async #export(format: string, run: () => Promise<string>): Promise<void> {
    await this.#exports.run(format, run, (err) => this.#report(err));
  }

  dismissError(): void {
    this.error = null;
  }

  /** Unsubscribes from a running job's events (the window closes). */
  stop(): void {
    this.#stop?.();
    this.#stop = null;
  }

  #report(err: unknown): void {
    const text = handleError(err, t('study.failed'));
    if (text !== null) this.error = text;
  }
}
