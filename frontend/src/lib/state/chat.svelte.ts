// The conversation: questions, the answers streaming in from "answer:<id>"
// events, and the conversation-wide actions (new conversation, export).
//
// Deltas are buffered and applied at most every FLUSH_MS, so a fast stream
// re-renders the answer's Markdown a few times a second, not per event; any
// other event flushes first, so the order of text and notices is kept.

import catalogue from '../api/catalogue.json';
import type { BridgeMessage } from '../i18n/index.ts';
import * as api from '../api/index.ts';
import type { Answer, AnswerEvent, AnswerStage, AskOptions, Notice, Source } from '../api/types.ts';
import { handleError } from '../errors.ts';
import { Export } from './export.svelte.ts';
import { Figures } from './figures.svelte.ts';
import { t } from './locale.svelte.ts';
import { DEFAULT_ASK_OPTIONS, MAX_FIGURE_DEPTH, MAX_K, MAX_RERANK_DEPTH, MIN_K } from './settings.svelte.ts';
import type { ScopeChip, ScopeWire } from './scope.svelte.ts';
import { SELECTION_ID, type PassageSelection, type SelectionAction } from './selection.ts';

/** How long deltas wait before they are shown, at most (ms). */
/** Go's batching interval of answer text (catalogue.json): one value for both sides. */
export const FLUSH_MS = catalogue.flush_ms;

export type TurnStatus = 'asking' | 'streaming' | 'done' | 'cancelled' | 'error';

export interface Turn {
  /** Local key, stable for the view. */
  key: number;
  /** Ask id from the backend; null until Ask returned (or for past turns). */
  id: string | null;
  question: string;
  /** The answer's Markdown so far. */
  text: string;
  stage: AnswerStage | null;
  sources: Source[];
  notices: Notice[];
  /** The backend's final record, once done (or with an error, when it has one). */
  answer: Answer | null;
  status: TurnStatus;
  error: string | null;
  /** Go's reason as a code, translated when shown (an error event's). */
  problem?: BridgeMessage;
  /** The user asked to stop; waiting for the backend. */
  cancelling: boolean;
  /** What the question searched, shown above its answer; empty = every document. */
  scope: ScopeChip[];
  /** The passage selected in the viewer that the question is about. */
  selection?: PassageSelection;
}

export type ExportFormat = 'html' | 'md';


/** The techniques the ask box switches for the next questions. */
export const ASK_TOGGLES = ['history', 'hyde', 'multi_query', 'rerank'] as const;
export type AskToggle = (typeof ASK_TOGGLES)[number];

/** The ask box's numbers for the next questions: passages from the text lists, figures from the image list
 * (0: off), candidates the reranker rescores; Settings keeps their defaults. */
export const ASK_NUMBERS = ['k', 'figure_depth', 'rerank_depth'] as const;
export type AskNumber = (typeof ASK_NUMBERS)[number];
/** Each number's range, from the catalogue. */
export const ASK_RANGES: Record<AskNumber, { min: number; max: number }> = {
  k: { min: MIN_K, max: MAX_K },
  figure_depth: { min: 0, max: MAX_FIGURE_DEPTH },
  rerank_depth: { min: 1, max: MAX_RERANK_DEPTH },
};

/** The scope of the next question: what Go reads, and its chips. */
export interface ScopeNow {
  wire: ScopeWire;
  chips: ScopeChip[];
}

export interface ChatHooks {
  options?: () => AskOptions;
  onAnswered?: () => void;
  /** The library's scope, read at each question (kept for follow-ups until changed there). */
  scope?: () => ScopeNow;
}

export class Chat {
  /** The crops and formulas of the answers' sources, fetched once each: answers keep their sources for the session. */
  readonly figures = new Figures();
  turns = $state<Turn[]>([]);
  draft = $state('');
  /** Conversation-wide error (loading, clearing, exporting), dismissable. */
  error = $state<string | null>(null);
  readonly #export = new Export<ExportFormat>();
  /** The format being exported; null when none is. */
  get exporting(): ExportFormat | null {
    return this.#export.running;
  }
  /** Where the last export was saved. */
  get exported(): string | null {
    return this.#export.path;
  }
  /** A passage selected in the viewer that the next question is about (Ask about this); null for none. */
  selection = $state<PassageSelection | null>(null);

  /**
   * The ask box's switches: a value set here overrides the Settings default for the next questions of
   * this window; one equal to the default is dropped, so the default rules again.
   */
  toggles = $state<Partial<Record<AskToggle, boolean>>>({});
  numbers = $state<Partial<Record<AskNumber, number>>>({});

  readonly active = $derived(this.turns.find((t) => t.status === 'asking' || t.status === 'streaming') ?? null);
  readonly busy = $derived(this.active !== null);
  readonly canAsk = $derived(!this.busy && this.draft.trim() !== '');

  readonly #options: () => AskOptions;
  readonly #onAnswered: () => void;
  readonly #scope: () => ScopeNow;
  readonly #listeners = new Map<number, () => void>();
  readonly #buffer = new Map<number, string>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #nextKey = 0;

  /**
   * options: the per-question options (from the settings). onAnswered: called when an answer ends (done or
   * error), e.g. to refresh the metrics.
   */
  constructor({ options = () => DEFAULT_ASK_OPTIONS, onAnswered = () => {}, scope = () => ({ wire: {}, chips: [] }) }: ChatHooks = {}) {
    this.#options = options;
    this.#onAnswered = onAnswered;
    this.#scope = scope;
  }

  /** Whether a technique is on for the next question: the ask box's switch, else the Settings default. */
  isOn(key: AskToggle): boolean {
    return this.toggles[key] ?? this.#options()[key];
  }

  /** Switches a technique for the next questions. */
  setToggle(key: AskToggle, on: boolean): void {
    const next = { ...this.toggles };
    if (on === this.#options()[key]) delete next[key];
    else next[key] = on;
    this.toggles = next;
  }

  /** A number of the next question: the ask box's, else the Settings default. */
  numberOf(key: AskNumber): number {
    return this.numbers[key] ?? this.#options()[key] ?? DEFAULT_ASK_OPTIONS[key] ?? 0;
  }

  /** Sets a number for the next questions; false (nothing changed) when it is out of its range. */
  setNumber(key: AskNumber, value: number): boolean {
    const { min, max } = ASK_RANGES[key];
    if (!Number.isInteger(value) || value < min || value > max) return false;
    const next = { ...this.numbers };
    if (value === this.#options()[key]) delete next[key];
    else next[key] = value;
    this.numbers = next;
    return true;
  }

  /** The options the next question is asked with: the settings, with the ask box's switches and numbers. */
  askOptions(): AskOptions {
    return { ...this.#options(), ...this.toggles, ...this.numbers, scope: this.#scope().wire };
  }

  /**
   * Shows the session's finished turns that this window does not show yet: all of them after a reload of the
   * page, and those a course file brought (start() listens for them).
   */
  async load(): Promise<void> {
    try {
      const answers = await api.conversation();
      const shown = new Set(this.turns.map((t) => t.answer?.id ?? t.id));
      const added = answers.filter((a) => !shown.has(a.id)).map((a) => this.#pastTurn(a));
      if (added.length > 0) this.turns = [...this.turns, ...added];
    } catch (err) {
      this.#report(err);
    }
  }

  /** Listens for the conversations of course files opened into the session; returns the unsubscribe. */
  start(): () => void {
    return api.onConversationRestored(() => void this.load());
  }

  /**
   * Acts on a passage selected in the viewer: Explain and Define ask at once about it; Ask about this keeps it
   * for the question the student types next. Does nothing while another answer runs.
   */
  async askAbout(sel: PassageSelection, action: Exclude<SelectionAction, 'cards'>): Promise<void> {
    if (this.busy) return;
    this.selection = sel;
    if (action === 'ask') return;
    this.draft = t(action === 'explain' ? 'chat.selection.explainQuestion' : 'chat.selection.defineQuestion');
    await this.ask();
  }

  /** Asks the draft (about the selection, if one is kept); does nothing while another answer runs. */
  async ask(): Promise<void> {
    const question = this.draft.trim();
    if (question === '' || this.busy) return;
    const key = ++this.#nextKey;
    const options = this.askOptions();
    const selection = this.selection;
    if (selection) options.selection = { doc_id: selection.doc_id, page: selection.page, text: selection.text };
    this.turns.push({ ...this.#newTurn(key, question), scope: this.#scope().chips, ...(selection ? { selection } : {}) });
    this.draft = '';
    this.selection = null;
    this.error = null;
    // Listen before asking: the backend may send the first events before
    // Ask returns.
    const id = api.newAskID();
    this.#listeners.set(
      key,
      api.onAnswer(id, (event) => this.apply(key, event)),
    );
    try {
      await api.ask(id, question, options);
    } catch (err) {
      this.#listeners.get(key)?.();
      this.#listeners.delete(key);
      const turn = this.#turn(key);
      if (!turn) return;
      const message = handleError(err, t('error.generic'));
      if (message === null || turn.cancelling) {
        turn.status = 'cancelled';
      } else {
        Object.assign(turn, { status: 'error', error: message });
        if (this.draft === '') this.draft = question; // ready to try again
        if (selection && this.selection === null) this.selection = selection; // about the same passage
      }
      return;
    }
    const turn = this.#turn(key);
    if (!turn) {
      // The conversation was cleared while Ask was on its way: stop the answer.
      void api.cancelAsk(id).catch(() => {});
      return;
    }
    turn.id = id;
    if (turn.status === 'asking') turn.status = 'streaming';
    if (turn.cancelling) await this.#cancel(turn);
  }

  /** Applies one event of the answer of turn key. */
  apply(key: number, event: AnswerEvent): void {
    const turn = this.#turn(key);
    if (!turn || turn.status === 'done' || turn.status === 'error' || turn.status === 'cancelled') return;
    if (event.type === 'delta') {
      this.#buffer.set(key, (this.#buffer.get(key) ?? '') + event.text);
      this.#timer ??= setTimeout(() => this.flush(), FLUSH_MS);
      return;
    }
    this.flush();
    switch (event.type) {
      case 'status':
        turn.stage = event.stage;
        return;
      case 'sources':
        turn.sources = event.sources ?? [];
        return;
      case 'notice':
        turn.notices.push(event.notice);
        return;
      case 'done':
        this.#settle(turn, event.answer);
        turn.status = event.answer.cancelled ? 'cancelled' : 'done';
        this.#finish(key);
        return;
      case 'error':
        if (event.answer) this.#settle(turn, event.answer);
        turn.error = event.error.trim() || t('error.generic');
        turn.problem = event.problem;
        turn.status = 'error';
        this.#finish(key);
        return;
    }
  }

  /** Shows the buffered deltas now. */
  flush(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    for (const [key, text] of this.#buffer) {
      const turn = this.#turn(key);
      if (turn) turn.text += text;
    }
    this.#buffer.clear();
  }

  /** Stops the running answer; what arrived stays. */
  async cancel(): Promise<void> {
    const turn = this.active;
    if (!turn || turn.cancelling) return;
    turn.cancelling = true;
    if (turn.id !== null) await this.#cancel(turn);
  }

  /** Forgets the conversation, here and in the backend (a new conversation). */
  async clear(): Promise<void> {
    try {
      if (this.active) await this.cancel();
      await api.clearConversation();
      this.stop();
      this.turns = [];
      this.#export.path = null;
      this.error = null;
    } catch (err) {
      this.#report(err);
    }
  }

  /** Saves the conversation through the native dialog. */
  async export(format: ExportFormat): Promise<void> {
    await this.#export.run(format, () => api.exportConversation(format), (err) => this.#report(err));
  }

  /** Opens a link of an answer in the system browser (http(s) only). */
  openLink(url: string): void {
    api.openExternal(url);
  }

  dismissError(): void {
    this.error = null;
  }

  /** Unsubscribes from every answer (the view is going away). */
  stop(): void {
    this.flush();
    for (const off of this.#listeners.values()) off();
    this.#listeners.clear();
  }

  async #cancel(turn: Turn): Promise<void> {
    const key = turn.key;
    try {
      const running = await api.cancelAsk(turn.id ?? '');
      const now = this.#turn(key);
      // Already over, and its last event was missed: keep what arrived.
      if (!running && now && (now.status === 'asking' || now.status === 'streaming')) {
        this.flush();
        now.status = 'cancelled';
        this.#finish(key);
      }
    } catch (err) {
      const now = this.#turn(key);
      if (now) now.cancelling = false;
      this.#report(err);
    }
  }

  #settle(turn: Turn, answer: Answer): void {
    turn.answer = answer;
    if (answer.answer !== '' || turn.text === '') turn.text = answer.answer;
    if (answer.sources) turn.sources = answer.sources;
    if (answer.notices) turn.notices = answer.notices;
    turn.stage = null;
    turn.cancelling = false;
  }

  #finish(key: number): void {
    this.#listeners.get(key)?.();
    this.#listeners.delete(key);
    this.#onAnswered();
  }

  #turn(key: number): Turn | undefined {
    return this.turns.find((t) => t.key === key);
  }

  #newTurn(key: number, question: string): Turn {
    return {
      key,
      id: null,
      question,
      text: '',
      stage: null,
      sources: [],
      notices: [],
      answer: null,
      status: 'asking',
      error: null,
      cancelling: false,
      scope: [],
    };
  }

  #pastTurn(answer: Answer): Turn {
    const turn = this.#newTurn(++this.#nextKey, answer.question);
    // A past answer's scope is Go's record of it: files and pages in one label.
    if (answer.metrics.scope) turn.scope = [{ kind: 'doc', label: answer.metrics.scope }];
    // A question about a selection has it as its first source.
    const first = answer.sources?.[0];
    if (first?.chunk_id === SELECTION_ID) {
      turn.selection = { doc_id: first.doc_id, page: first.page, text: first.text, file: first.file };
    }
    this.#settle(turn, answer);
    turn.status = answer.cancelled ? 'cancelled' : 'done';
    return turn;
  }

  #report(err: unknown): void {
    const message = handleError(err, t('error.generic'));
    if (message !== null) this.error = message;
  }
}
