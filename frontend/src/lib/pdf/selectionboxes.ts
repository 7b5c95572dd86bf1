// Where a selection lies on a drawn page, as a highlight keeps it: the
// selected text's client rectangles, relative to the page and divided by
// the scale the page was drawn at, in PDF points from the top left (the
// space of the session's line boxes and of the PDF annotations Go writes).
// Pieces of one line are merged; slivers and boxes off the page are left
// out; at most MAX_BOXES are kept.

import type { Box } from '../api/types.ts';

/** Go's bound on a highlight's boxes (notes.MaxBoxes). */
export const MAX_BOXES = 200;

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The boxes of rects (client rectangles) on a page whose top left is at origin, drawn at scale, of size (points). */
export function selectionBoxes(rects: Iterable<Rect>, origin: { left: number; top: number }, scale: number, size: { width: number; height: number }): Box[] {
  if (!(scale > 0)) return [];
  const boxes: Box[] = [];
  for (const r of rects) {
    const x0 = Math.max(0, (r.left - origin.left) / scale);
    const y0 = Math.max(0, (r.top - origin.top) / scale);
    const x1 = Math.min(size.width, (r.right - origin.left) / scale);
    const y1 = Math.min(size.height, (r.bottom - origin.top) / scale);
    if (![x0, y0, x1, y1].every(Number.isFinite) || x1 - x0 < 0.5 || y1 - y0 < 0.5) continue;
    const line = boxes.find((b) => overlapV(b, y0, y1) && x0 <= (b[2] ?? 0) + 3 && x1 >= (b[0] ?? 0) - 3);
    if (line) {
      line[0] = Math.min(line[0] ?? x0, x0);
      line[1] = Math.min(line[1] ?? y0, y0);
      line[2] = Math.max(line[2] ?? x1, x1);
      line[3] = Math.max(line[3] ?? y1, y1);
    } else boxes.push([x0, y0, x1, y1]);
  }
  boxes.sort((a, b) => (a[1] ?? 0) - (b[1] ?? 0) || (a[0] ?? 0) - (b[0] ?? 0));
  return boxes.slice(0, MAX_BOXES).map((b) => b.map((v) => Math.round(v * 100) / 100));
}

/** Whether [y0, y1] overlaps box b's rows by more than half of the smaller height: the same line. */
function overlapV(b: Box, y0: number, y1: number): boolean {
  const top = Math.max(b[1] ?? 0, y0);
  const bottom = Math.min(b[3] ?? 0, y1);
  const smaller = Math.min((b[3] ?? 0) - (b[1] ?? 0), y1 - y0);
  return bottom - top > smaller / 2;
}

/** Draws the student's highlights of a page into layer (replacing the earlier ones): a tinted box each, in its colour. */
export function drawHighlights(layer: HTMLElement, notes: readonly { id: string; color: string; boxes?: Box[] | null }[], scale: number, css: (color: string) => string): number {
  layer.replaceChildren();
  let n = 0;
  for (const note of notes) {
    for (const b of note.boxes ?? []) {
      const [x0, y0, x1, y1] = b;
      if (x0 === undefined || y0 === undefined || x1 === undefined || y1 === undefined || !(x1 > x0 && y1 > y0)) continue;
      const el = document.createElement('div');
      el.className = 'note-box';
      el.dataset.note = note.id;
      el.style.left = `${x0 * scale}px`;
      el.style.top = `${y0 * scale}px`;
      el.style.width = `${(x1 - x0) * scale}px`;
      el.style.height = `${(y1 - y0) * scale}px`;
      el.style.backgroundColor = css(note.color);
      layer.append(el);
      n++;
    }
  }
  return n;
}
