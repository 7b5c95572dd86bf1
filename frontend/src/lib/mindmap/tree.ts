// A mind map from Go (mindmap.Map) as the tree markmap draws: each node's
// content is HTML that this module writes, its label (the documents' own
// text: escaped, never markup) and its page; its payload says what a click
// opens. Labels Go leaves empty (the course root, a run of pages) are said
// in the window's language.

import type { IPureNode } from 'markmap-common';
import type { MindMapNode } from '../api/types.ts';
import catalogue from '../api/catalogue.json';

const KINDS = catalogue.mindmap;

/** What a node opens: its document at its page (none for the course root). */
export interface NodeTarget {
  doc_id: string;
  file: string;
  page: number;
}

/** The words the tree needs, translated by the caller. */
export interface TreeWords {
  course: (documents: number) => string;
  pages: (from: number, to: number) => string;
}

/** Escapes text for HTML: the five characters that could make markup. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);
}

/** A node's label: its own, or the course's or a run of pages' in the window's words. */
export function nodeLabel(n: MindMapNode, words: TreeWords): string {
  if (n.kind === KINDS.course) return words.course((n.children ?? []).length);
  if (n.kind === KINDS.pages) return words.pages(n.page, n.to ?? n.page);
  return n.label;
}

/**
 * The markmap tree of a map's root. Branches start folded from depth 3 of a
 * document's map (its sub-subsections), and from depth 2 of a course's (each
 * document shows its top sections): a click on a circle unfolds them.
 */
export function toTree(n: MindMapNode, words: TreeWords, depth = 0, foldFrom = n.kind === KINDS.course ? 2 : 3): IPureNode {
  const label = `<span class="mm-label mm-${escapeHtml(n.kind)}">${escapeHtml(nodeLabel(n, words))}</span>`;
  const page = n.doc_id && n.kind !== KINDS.document && n.kind !== KINDS.pages ? `<span class="mm-page">p.${n.page}</span>` : '';
  const target: NodeTarget | null = n.doc_id ? { doc_id: n.doc_id, file: n.file, page: n.page } : null;
  return {
    content: label + page,
    payload: { target, kind: n.kind, fold: depth >= foldFrom && (n.children ?? []).length > 0 ? 1 : 0 },
    children: (n.children ?? []).map((c) => toTree(c, words, depth + 1, foldFrom)),
  };
}

/** The target of the node an event happened on (markmap keeps each node's data on its <g>); null for none or the course root. */
export function targetOf(event: Event): NodeTarget | null {
  const el = event.target instanceof Element ? event.target : null;
  if (!el || el.closest('circle')) return null; // the circle folds and unfolds
  const g = el.closest('g.markmap-node') as (Element & { __data__?: IPureNode }) | null;
  const target = g?.__data__?.payload?.target as NodeTarget | null | undefined;
  return target ?? null;
}
