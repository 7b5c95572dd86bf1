// The viewer's bounds (docserve.Viewer, through the catalogue): pdf.js runs
// in the window, outside the worker's budgets, so a page's canvas, its
// images and its drawing time are capped here.

import catalogue from '../api/catalogue.json';

export const LIMITS = catalogue.viewer;

/** A page that was not drawn within LIMITS.render_timeout_ms: cancelled, shown as failed. */
export class RenderTimeout extends Error {
  constructor() {
    super('the page took too long to draw');
    this.name = 'RenderTimeout';
  }
}

/**
 * The device pixels per CSS pixel of a page's canvas: devicePixelRatio,
 * lowered so that the backing store stays within LIMITS (a 14,400 pt page
 * at high zoom would otherwise ask for gigabytes).
 */
export function backingRatio(cssWidth: number, cssHeight: number, devicePixelRatio: number): number {
  const w = Math.max(1, cssWidth);
  const h = Math.max(1, cssHeight);
  return Math.min(devicePixelRatio, Math.sqrt(LIMITS.max_canvas_pixels / (w * h)), LIMITS.max_canvas_side / Math.max(w, h));
}

/**
 * Waits for work, cancelling it (cancel) and failing with RenderTimeout
 * when it takes longer than ms: the render watchdog.
 */
export async function watchdog<T>(work: Promise<T>, cancel: () => void, ms: number): Promise<T> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    cancel();
  }, ms);
  try {
    return await work;
  } catch (err) {
    throw timedOut ? new RenderTimeout() : err;
  } finally {
    clearTimeout(timer);
  }
}
