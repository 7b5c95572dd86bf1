// How the window shows a table, figure or formula passage: a table's
// Markdown rendered as a table by the chat's safe renderer (raw HTML
// escaped, no remote images, links only http(s)), with no citation chips;
// a formula's LaTeX rendered as MathML (lib/math.ts).

import { renderMarkdown, type MarkdownStrings } from './markdown.ts';
import { formulaHTML } from './math.ts';

/** Texts the passage views need, in the UI's language. */
export interface PassageStrings {
  image: (alt: string) => string;
  /** Tooltip of a formula that does not parse. */
  mathError: string;
}

/** Renders a table passage (caption and Markdown table) to safe HTML. */
export function tableHTML(markdown: string, s: PassageStrings): string {
  const strings: MarkdownStrings = { image: s.image, mathError: s.mathError, chipTitle: () => '', chipLabel: () => '' };
  return renderMarkdown(markdown, [], strings, false); // the PDF's text: no live links
}

/** A formula's LaTeX (no delimiters) as display MathML, or its source when it does not parse. */
export function displayFormulaHTML(tex: string, mathError: string): string {
  return formulaHTML(tex, true, tex, mathError);
}

// The line of a formula passage that holds its LaTeX (engine's formulaPassage).
const latexLine = /^LaTeX: (.+)$/m;

/** The LaTeX a formula passage holds, or '' when it holds none (not transcribed). */
export function passageLaTeX(text: string): string {
  return latexLine.exec(text)?.[1]?.trim() ?? '';
}

/** True for the passages shown as a rendered table. */
export function isTable(kind: string | undefined): boolean {
  return kind === 'table';
}

/** True for the passages shown with their figure's thumbnail. */
export function isFigure(kind: string | undefined): boolean {
  return kind === 'figure';
}
