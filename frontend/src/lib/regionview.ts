// How the window shows a table, figure or formula passage: a table's
// Markdown rendered as a table by the chat's safe renderer (raw HTML
// escaped, no remote images, links only http(s)), with no citation chips.

import { renderMarkdown, type MarkdownStrings } from './markdown.ts';

/** Renders a table passage (caption and Markdown table) to safe HTML. */
export function tableHTML(markdown: string, image: (alt: string) => string): string {
  const strings: MarkdownStrings = { image, chipTitle: () => '', chipLabel: () => '' };
  return renderMarkdown(markdown, [], strings);
}

/** True for the passages shown as a rendered table. */
export function isTable(kind: string | undefined): boolean {
  return kind === 'table';
}

/** True for the passages shown with their figure's thumbnail. */
export function isFigure(kind: string | undefined): boolean {
  return kind === 'figure';
}
