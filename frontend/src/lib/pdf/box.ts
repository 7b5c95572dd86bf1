// Highlights a table, figure or formula on a drawn page: a box given in PDF
// points (origin at the top left, as MuPDF measures it) becomes an outlined
// element over the canvas, at the scale the page was drawn.

import type { Box } from '../api/types.ts';

/** Where a box in points sits on a page drawn at scale, in CSS pixels; null for an empty or invalid box. */
export function boxRect(box: Box, scale: number): { left: number; top: number; width: number; height: number } | null {
  const [x0, y0, x1, y1] = box;
  if (![x0, y0, x1, y1, scale].every(Number.isFinite) || scale <= 0) return null;
  const width = (x1 - x0) * scale;
  const height = (y1 - y0) * scale;
  if (width <= 0 || height <= 0) return null;
  return { left: x0 * scale, top: y0 * scale, width, height };
}

/** Puts a highlighted box over the page (replacing any earlier one in layer); returns it, or null for an invalid box. */
export function markBox(layer: HTMLElement, box: Box, scale: number): HTMLElement | null {
  for (const old of layer.querySelectorAll(':scope > .region-box')) old.remove();
  const rect = boxRect(box, scale);
  if (!rect) return null;
  const el = document.createElement('div');
  el.className = 'region-box';
  el.style.left = `${rect.left}px`;
  el.style.top = `${rect.top}px`;
  el.style.width = `${rect.width}px`;
  el.style.height = `${rect.height}px`;
  layer.append(el);
  return el;
}
