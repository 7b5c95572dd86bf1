// Draws a mind map tree with markmap in an element, under the window's
// Content-Security-Policy (style-src 'self'): markmap appends a <style>
// block of its own to its SVG, which that policy refuses (and reports).
// The SVG is therefore made detached, markmap's <style> removed before
// the SVG joins the page (a detached style block is never applied nor
// checked), and markmap's rules come from the app's stylesheet
// (MindMapView.svelte). Node contents are the HTML tree.ts writes, labels
// escaped.

import type { IPureNode } from 'markmap-common';
import { Markmap } from 'markmap-view';

const SVG_NS = 'http://www.w3.org/2000/svg';

export interface Drawn {
  /** Fits the whole map in the view. */
  fit(): void;
  /** Draws another tree in place. */
  update(tree: IPureNode): void;
  destroy(): void;
}

export function draw(container: HTMLElement, tree: IPureNode): Drawn {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'mindmap-svg');
  const mm = new Markmap(svg, {
    embedGlobalCSS: false,
    autoFit: true,
    duration: 300,
    maxWidth: 320,
    spacingHorizontal: 60,
    spacingVertical: 6,
    paddingX: 8,
    initialExpandLevel: -1,
  });
  mm.styleNode.remove();
  container.replaceChildren(svg);
  void mm.setData(tree).then(() => mm.fit());
  return {
    fit: () => void mm.fit(),
    update: (t) => void mm.setData(t).then(() => mm.fit()),
    destroy: () => {
      mm.destroy();
      svg.remove();
    },
  };
}
