// The PDF viewer: which document and page it shows, at what zoom, and
// whether the cited passage was found on the page. The drawing itself (pdf.js)
// belongs to the view; it reports back through loaded / failed / rendered.

import * as api from '../api/index.ts';
import catalogue from '../api/catalogue.json';
import type { Box, Page } from '../api/types.ts';
import type { Chip } from '../citations.ts';
import { handleError } from '../errors.ts';
import { RenderTimeout } from '../pdf/limits.ts';
import { t } from './locale.svelte.ts';
import type { PassageSelection, SelectionAction } from './selection.ts';

/** What a citation or a passage opens. */
export interface ViewerTarget {
  doc_id: string;
  /** File name shown in the header. */
  file: string;
  /** 1-based page to show first (the cited page). */
  page: number;
  /** Text to highlight on that page; "" for none. */
  passage: string;
  /**
   * The box to highlight on that page (a table, figure or formula, or a
   * passage on a scanned page, boxed from its OCR lines), in PDF points from
   * the top left; when set it is highlighted instead of the text.
   */
  box?: Box | null;
  /** The cited chunk's kind (body, front, references, table, figure, formula, form, note); unknown when absent. */
  kind?: string;
}

/** Chunk kinds whose box outlines a passage of text (a scanned page's), not a table, figure or formula. */
const PASSAGE_KINDS: ReadonlySet<string> = new Set(catalogue.kinds.text);

/** "fit": the page's width fits the pane; a number: a fixed scale (1 = 100 %). */
export type Zoom = 'fit' | number;

export const ZOOM_STEPS = [0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3, 4] as const;

export type ViewerStatus = 'idle' | 'loading' | 'ready' | 'error';

/** Whether the passage was located on the page shown ("none": nothing to look for). */
export type HighlightState = 'none' | 'pending' | 'found' | 'missing';

export class Viewer {
  target = $state<ViewerTarget | null>(null);
  page = $state(1);
  pageCount = $state(0);
  zoom = $state<Zoom>('fit');
  /** The scale the page was last drawn at (fit resolves to one). */
  scale = $state(1);
  status = $state<ViewerStatus>('idle');
  error = $state<string | null>(null);
  highlight = $state<HighlightState>('none');
  /** The pages of the open document the PDF reader failed when it was added: shown as failed, never drawn. */
  failedPages = $state<number[]>([]);
  /** Whether the open document is a slide deck (a pptx or odp converted to PDF): its pages are slides. */
  slides = $state(false);
  /** The passage selected on the page shown (text layer or OCR lines); null for none. */
  selection = $state<PassageSelection | null>(null);
  /** Whether the selection was longer than Go takes and was shortened. */
  selectionClipped = $state(false);
  /** The session's pages of one document (their OCR lines), fetched when one of its scanned pages is first shown. */
  #pages: { doc: string; pages: Promise<Page[]> } | null = null;
  readonly #actions = new Set<(action: SelectionAction, sel: PassageSelection) => void>();

  readonly isOpen = $derived(this.target !== null);
  /** Where pdf.js loads the document from. */
  readonly url = $derived(this.target ? api.documentURL(this.target.doc_id) : '');
  /** The passage to find on the page shown: only on the cited page. */
  readonly passage = $derived(this.target && this.page === this.target.page ? this.target.passage : '');
  /** The box to highlight on the page shown: only on the cited page. */
  readonly box = $derived<Box | null>(this.target && this.page === this.target.page ? (this.target.box ?? null) : null);
  /** The box outlines a passage of text (on a scanned page) rather than a table, figure or formula. */
  readonly boxIsPassage = $derived(this.box !== null && PASSAGE_KINDS.has(this.target?.kind ?? ''));
  /** The page shown is one the PDF reader failed. */
  readonly pageFailed = $derived(this.failedPages.includes(this.page));
  readonly canPrev = $derived(this.page > 1);
  readonly canNext = $derived(this.pageCount === 0 || this.page < this.pageCount);

  /** Opens a citation chip's page (an answer's, a study line's); a chip of no document of the session opens nothing. */
  openChip(chip: Chip): void {
    if (chip.doc_id === '') return;
    this.open({ doc_id: chip.doc_id, file: chip.file, page: chip.page, passage: chip.passage, box: chip.box ?? null, ...(chip.kind ? { kind: chip.kind } : {}) });
  }

  open(target: ViewerTarget): void {
    const sameDoc = this.target?.doc_id === target.doc_id && this.status !== 'error';
    this.target = { ...target, page: Math.max(1, Math.floor(target.page) || 1) };
    this.page = this.target.page;
    this.zoom = 'fit';
    this.highlight = target.passage.trim() === '' && !target.box ? 'none' : 'pending';
    if (!sameDoc) {
      this.status = 'loading';
      this.pageCount = 0;
      this.error = null;
      this.failedPages = [];
      this.slides = false;
      void this.readFailed(target.doc_id);
    }
  }

  /** Reads which pages of the document failed when it was added, and whether they are slides. */
  private async readFailed(docID: string): Promise<void> {
    try {
      const doc = (await api.documents()).find((d) => d.doc_id === docID);
      if (this.target?.doc_id !== docID) return;
      this.failedPages = doc?.failed_pages ?? [];
      this.slides = doc?.unit === 'slide';
    } catch {
      // Unknown: every page is drawn, within the viewer's bounds.
    }
  }

  /** The session's page n of document docID (its text and OCR lines); undefined when it has none. */
  sessionPage(docID: string, n: number): Promise<Page | undefined> {
    if (this.#pages?.doc !== docID) this.#pages = { doc: docID, pages: api.pages(docID).catch(() => []) };
    return this.#pages.pages.then((ps) => ps.find((p) => p.page === n));
  }

  /** The student selected text on page page of the open document (''/null: the selection is gone). */
  select(text: string, page: number, clipped = false): void {
    // Reads no state but the target: the page's draw effect calls this to clear the selection, and must not
    // come to depend on the selection it clears (a new selection would redraw the page and drop itself).
    const target = this.target;
    const sel = target && text !== '' ? { doc_id: target.doc_id, file: target.file, page, text } : null;
    this.selection = sel;
    this.selectionClipped = sel !== null && clipped;
  }

  /**
   * Listens for the selection menu's actions (the chat answers Explain, Ask about this and Define; another view
   * may add its own); returns the unsubscribe.
   */
  onSelectionAction(fn: (action: SelectionAction, sel: PassageSelection) => void): () => void {
    this.#actions.add(fn);
    return () => this.#actions.delete(fn);
  }

  /** The menu's action on the selection: every listener gets it, and the menu closes. */
  act(action: SelectionAction): void {
    const sel = this.selection;
    if (!sel) return;
    this.selection = null;
    for (const fn of this.#actions) fn(action, sel);
  }

  close(): void {
    this.selection = null;
    this.target = null;
    this.status = 'idle';
    this.error = null;
    this.pageCount = 0;
    this.highlight = 'none';
  }

  /** Shows page n (clamped to the document once its length is known). */
  goTo(n: number): void {
    if (!Number.isFinite(n)) return;
    let page = Math.max(1, Math.round(n));
    if (this.pageCount > 0) page = Math.min(page, this.pageCount);
    if (page === this.page) return;
    this.page = page;
    this.highlight = this.passage.trim() === '' && this.box === null ? 'none' : 'pending';
  }

  next(): void {
    if (this.canNext) this.goTo(this.page + 1);
  }

  prev(): void {
    if (this.canPrev) this.goTo(this.page - 1);
  }

  zoomIn(): void {
    this.zoom = ZOOM_STEPS.find((s) => s > this.scale + 0.01) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1] ?? 4;
  }

  zoomOut(): void {
    this.zoom = [...ZOOM_STEPS].reverse().find((s) => s < this.scale - 0.01) ?? ZOOM_STEPS[0] ?? 0.5;
  }

  fit(): void {
    this.zoom = 'fit';
  }

  /** The document is open: it has pageCount pages. */
  loaded(pageCount: number): void {
    this.pageCount = pageCount;
    this.status = 'ready';
    if (this.page > pageCount) this.goTo(pageCount);
  }

  /** Loading or drawing failed. */
  failed(err: unknown): void {
    if (err instanceof RenderTimeout) {
      this.status = 'error';
      this.error = t('viewer.renderTimeout', { page: this.page });
      return;
    }
    const reason = handleError(err, '');
    if (reason === null) return;
    this.status = 'error';
    this.error = reason === '' ? t('viewer.loadFailed') : t('viewer.loadFailedBecause', { reason });
  }

  /** A page was drawn at scale; found: whether the passage was located (null: none sought). */
  rendered(scale: number, found: boolean | null): void {
    this.scale = scale;
    this.highlight = found === null ? 'none' : found ? 'found' : 'missing';
  }
}
