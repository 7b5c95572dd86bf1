// The explorer: one document's pages and passages as the engine holds them,
// and a passage lookup that runs retrieval alone (no LLM) with scores and
// statistics.
//
// App.svelte builds the window's one instance and passes it to ExplorerPanel,
// so the chosen document and the last lookup survive switching views.

import catalogue from '../api/catalogue.json';
import * as api from '../api/index.ts';
import type { Chunk, Fusion, Page, Region, RegionKind, RetrievalMode, SearchResult } from '../api/types.ts';
import { handleError } from '../errors.ts';
import { keeps, parsePageRange, type PageRange } from '../explorerFilter.ts';
import { t } from './locale.svelte.ts';

/** Pages, passages, or one kind of region (tables, figures, formulas). */
export type ExplorerTab = 'pages' | 'chunks' | RegionKind;

/** The kinds of regions found on a page's layout, in the tabs' order (corpus.LayoutKinds, catalogue.json). */
export const REGION_KINDS = catalogue.kinds.layout as readonly RegionKind[];

/** Rows shown at first, and added by "show more" (a thesis has hundreds of pages). */
export const PAGE_STEP = 50;

export const DEFAULT_LOOKUP_K = 10;

/** Opens a document's web link in the system browser (Go opens http(s) only). */
export function openLink(url: string): void {
  api.openExternal(url);
}

export class Explorer {
  docID = $state('');
  tab = $state<ExplorerTab>('pages');
  pages = $state.raw<Page[]>([]);
  chunks = $state.raw<Chunk[]>([]);
  /** The document's tables, figures and formulas in page order. */
  regions = $state.raw<Region[]>([]);
  loading = $state(false);
  error = $state<string | null>(null);
  /** How many rows of the current tab are shown. */
  limit = $state(PAGE_STEP);
  /** The passages' and regions' filters: words, and pages ("3-5"). */
  keyword = $state('');
  pageFilter = $state('');

  query = $state('');
  mode = $state<RetrievalMode>('');
  k = $state(DEFAULT_LOOKUP_K);
  result = $state.raw<SearchResult | null>(null);
  /** The query the result answers. */
  asked = $state('');
  searching = $state(false);
  lookupError = $state<string | null>(null);

  #docGeneration = 0;
  #lookupGeneration = 0;
  readonly #rerank: () => boolean;
  readonly #fusion: () => Fusion;

  /**
   * rerank: whether lookups use the cross-encoder when one is installed (the settings' toggle); fusion: how a
   * hybrid lookup fuses keywords and meaning (the settings' choice, "" the embedding model's profile).
   */
  constructor(rerank: () => boolean, fusion: () => Fusion = () => '') {
    this.#rerank = rerank;
    this.#fusion = fusion;
  }

  get canLookup(): boolean {
    return this.query.trim() !== '' && !this.searching;
  }

  /** Shows a document's pages and passages ("" shows none). */
  async select(docID: string): Promise<void> {
    const generation = ++this.#docGeneration;
    this.docID = docID;
    this.pages = [];
    this.chunks = [];
    this.regions = [];
    this.error = null;
    this.limit = PAGE_STEP;
    if (docID === '') {
      this.loading = false;
      return;
    }
    this.loading = true;
    try {
      const [pages, chunks, regions] = await Promise.all([api.pages(docID), api.chunks(docID), api.regions(docID)]);
      if (generation !== this.#docGeneration) return;
      this.pages = [...pages].sort((a, b) => a.page - b.page);
      this.chunks = chunks;
      this.regions = regions;
    } catch (err) {
      if (generation !== this.#docGeneration) return;
      this.error = handleError(err, t('error.generic'));
    } finally {
      if (generation === this.#docGeneration) this.loading = false;
    }
  }

  /** The document's regions of one kind, in page order. */
  regionsOf(kind: RegionKind): Region[] {
    return this.regions.filter((r) => r.kind === kind);
  }

  /** The page filter as a range; null when it cannot be read (nothing is then filtered by page). */
  get pageRange(): PageRange | null {
    return parsePageRange(this.pageFilter);
  }

  get filtering(): boolean {
    return this.keyword.trim() !== '' || this.pageFilter.trim() !== '';
  }

  /** The passages the filters keep. */
  filteredChunks(): Chunk[] {
    const range = this.pageRange ?? { from: 0, to: 0 };
    return this.chunks.filter((c) => keeps({ page: c.page, pages: c.pages, texts: [c.text, c.section_title] }, this.keyword, range));
  }

  /** The regions of one kind the filters keep. */
  filteredRegions(kind: RegionKind): Region[] {
    const range = this.pageRange ?? { from: 0, to: 0 };
    return this.regionsOf(kind).filter((r) => keeps({ page: r.page, texts: [r.caption, r.text, r.description] }, this.keyword, range));
  }

  /** How many rows a tab has. */
  count(tab: ExplorerTab): number {
    if (tab === 'pages') return this.pages.length;
    if (tab === 'chunks') return this.chunks.length;
    return this.regionsOf(tab).length;
  }

  /** Forgets the document when it left the session. */
  keepOnly(docIDs: readonly string[]): void {
    if (this.docID !== '' && !docIDs.includes(this.docID)) void this.select('');
  }

  showTab(tab: ExplorerTab): void {
    this.tab = tab;
    this.limit = PAGE_STEP;
  }

  showMore(): void {
    this.limit += PAGE_STEP;
  }

  async lookup(): Promise<void> {
    const query = this.query.trim();
    if (query === '') return;
    const generation = ++this.#lookupGeneration;
    this.searching = true;
    this.lookupError = null;
    try {
      const result = await api.search(query, this.mode, this.#fusion(), this.k, this.#rerank());
      if (generation !== this.#lookupGeneration) return;
      this.result = { hits: result.hits ?? [], stats: result.stats };
      this.asked = query;
    } catch (err) {
      if (generation !== this.#lookupGeneration) return;
      this.lookupError = handleError(err, t('error.generic'));
    } finally {
      if (generation === this.#lookupGeneration) this.searching = false;
    }
  }
}

