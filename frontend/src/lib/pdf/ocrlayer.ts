// A text layer for a scanned page: its OCR lines (corpus.Line, placed from
// Tesseract's word boxes, in points from the top left) become invisible,
// selectable spans over the canvas, as pdf.js's text layer does for a PDF's
// own text, so that a passage of a scanned page can be selected and asked
// about. Bounded: at most MAX_OCR_LINES lines of MAX_OCR_LINE_CHARS each.

import type { Page } from '../api/types.ts';

export const MAX_OCR_LINES = 600;
export const MAX_OCR_LINE_CHARS = 400;

/** The OCR lines of page to lay out: their text (from the page's text, by rune offsets) and box. */
export function ocrLines(page: Pick<Page, 'text' | 'lines'>): { text: string; box: [number, number, number, number] }[] {
  const runes = [...(page.text ?? '')];
  const out: { text: string; box: [number, number, number, number] }[] = [];
  for (const l of page.lines ?? []) {
    if (out.length >= MAX_OCR_LINES) break;
    if (l.size !== 0) continue; // a text-layer line: pdf.js draws those
    const [x0, y0, x1, y1] = l.bbox ?? [];
    if (x0 === undefined || y0 === undefined || x1 === undefined || y1 === undefined) continue;
    if (![x0, y0, x1, y1].every(Number.isFinite) || x1 <= x0 || y1 <= y0) continue;
    const text = runes
      .slice(Math.max(0, l.start), Math.min(l.end, l.start + MAX_OCR_LINE_CHARS))
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
    if (text !== '') out.push({ text, box: [x0, y0, x1, y1] });
  }
  return out;
}

/**
 * Fills layer (emptied) with page's OCR lines at scale, each line stretched to its box's width; returns how many
 * lines it laid out. A line ends with a space so that a selection across lines keeps its words apart.
 */
export function drawOCRLayer(layer: HTMLElement, page: Pick<Page, 'text' | 'lines'>, scale: number): number {
  const lines = ocrLines(page);
  layer.replaceChildren();
  const spans: { el: HTMLSpanElement; width: number }[] = [];
  for (const { text, box } of lines) {
    const [x0, y0, x1, y1] = box;
    const el = document.createElement('span');
    el.className = 'ocr-line';
    el.textContent = text + ' ';
    el.style.left = `${x0 * scale}px`;
    el.style.top = `${y0 * scale}px`;
    el.style.setProperty('--font-height', `${(y1 - y0) * 0.9}px`);
    layer.append(el);
    spans.push({ el, width: (x1 - x0) * scale });
  }
  // Stretch each line to its box (read all widths first: one layout, not one per line).
  const drawn = spans.map((s) => s.el.getBoundingClientRect().width);
  spans.forEach((s, i) => {
    const w = drawn[i] ?? 0;
    if (w > 0) s.el.style.setProperty('--scale-x', String(s.width / w));
  });
  return lines.length;
}
