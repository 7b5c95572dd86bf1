// pdf.js, loaded on first use (dynamic import) so the app's first paint does
// not wait for it. Its worker is bundled by Vite as a same-origin module
// file (the `new Worker(new URL(…, import.meta.url))` pattern), which the
// Content-Security-Policy's script-src 'self' allows: no blob: or eval.

import type * as PdfJs from 'pdfjs-dist';
import { backingRatio, LIMITS, watchdog } from './limits.ts';
import type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';

export type { PDFDocumentProxy, PDFPageProxy, RenderTask };

let loading: Promise<typeof PdfJs> | null = null;

export function loadPdfJs(): Promise<typeof PdfJs> {
  loading ??= import('pdfjs-dist').then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerPort = new Worker(
      new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url),
      { type: 'module' },
    );
    return pdfjs;
  });
  loading.catch(() => (loading = null));
  return loading;
}

/** Opens the PDF served at url (same origin). */
export async function openDocument(url: string): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfJs();
  return pdfjs.getDocument({
    url,
    // No code generated from the document (fonts): the CSP forbids eval anyway.
    isEvalSupported: false,
    // The PDF is already on this machine: no partial range requests needed.
    disableRange: true,
    disableStream: true,
    enableXfa: false,
    // Bounded, as the worker's renders are: no image of more pixels is
    // decoded, no canvas of pdf.js's larger than the viewer's cap.
    maxImageSize: LIMITS.max_image_pixels,
    canvasMaxAreaInBytes: LIMITS.max_canvas_pixels * 4,
  }).promise;
}

/** True for the errors pdf.js raises when a render or a load is superseded. */
export function isSuperseded(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name ?? '';
  return name === 'RenderingCancelledException' || name === 'AbortException';
}

export interface DrawnPage {
  scale: number;
  /** The text layer's spans and their strings, one to one. */
  divs: HTMLElement[];
  items: string[];
}

/**
 * Draws page at scale (or fitted to fitWidth CSS pixels when scale is
 * 'fit') into canvas, and its text layer into layer (emptied first).
 * signal aborts a draw that a newer one replaces.
 */
export async function drawPage(
  page: PDFPageProxy,
  canvas: HTMLCanvasElement,
  layer: HTMLElement,
  zoom: number | 'fit',
  fitWidth: number,
  signal: AbortSignal,
): Promise<DrawnPage> {
  const pdfjs = await loadPdfJs();
  const natural = page.getViewport({ scale: 1 });
  const scale = zoom === 'fit' ? Math.max(0.25, Math.min(4, fitWidth / natural.width)) : zoom;
  const viewport = page.getViewport({ scale });
  const ratio = backingRatio(viewport.width, viewport.height, window.devicePixelRatio || 1);

  canvas.width = Math.max(1, Math.floor(viewport.width * ratio));
  canvas.height = Math.max(1, Math.floor(viewport.height * ratio));
  canvas.style.width = `${Math.floor(viewport.width)}px`;
  canvas.style.height = `${Math.floor(viewport.height)}px`;
  const task = page.render({
    canvas,
    viewport,
    transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
  });
  signal.addEventListener('abort', () => task.cancel(), { once: true });
  const deadline = Date.now() + LIMITS.render_timeout_ms;
  await watchdog(task.promise, () => task.cancel(), LIMITS.render_timeout_ms);

  layer.replaceChildren();
  layer.style.setProperty('--total-scale-factor', String(scale));
  layer.style.setProperty('--scale-round-x', '1px');
  layer.style.setProperty('--scale-round-y', '1px');
  const text = new pdfjs.TextLayer({ textContentSource: page.streamTextContent(), container: layer, viewport });
  signal.addEventListener('abort', () => text.cancel(), { once: true });
  await watchdog(text.render(), () => text.cancel(), Math.max(1, deadline - Date.now()));
  return { scale, divs: text.textDivs, items: text.textContentItemsStr };
}
