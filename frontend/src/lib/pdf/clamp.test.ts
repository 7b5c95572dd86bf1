// The selection menu's acceptance rule: a selection is kept for what of it lies in a page's text layer.

import { afterEach, describe, expect, it } from 'vitest';
import { clampSelection, clampToLayer } from './clamp.ts';

/** A page as the viewer draws it: a margin before and after the text layer's spans. */
function page(lines: string[]): { root: HTMLElement; layer: HTMLElement; before: Text; after: Text } {
  const root = document.createElement('div');
  const before = document.createTextNode('Page 2 of 3');
  const layer = document.createElement('div');
  layer.className = 'textLayer';
  for (const l of lines) {
    const span = document.createElement('span');
    span.textContent = l;
    layer.append(span, document.createElement('br'));
  }
  const after = document.createTextNode('Back to the answer');
  root.append(before, layer, after);
  document.body.append(root);
  return { root, layer, before, after };
}

const text = (layer: HTMLElement, i: number) => layer.children[2 * i]!.firstChild as Text;

afterEach(() => {
  document.getSelection()?.removeAllRanges();
  document.body.replaceChildren();
});

describe('clampToLayer', () => {
  it('keeps a range inside the layer as it is', () => {
    const { layer } = page(['The estimate of the', 'number of distinct']);
    const r = document.createRange();
    r.setStart(text(layer, 0), 4);
    r.setEnd(text(layer, 1), 6);
    const kept = clampToLayer(r, layer)!;
    expect([kept.startContainer, kept.startOffset, kept.endContainer, kept.endOffset]).toEqual([text(layer, 0), 4, text(layer, 1), 6]);
  });

  it('cuts a range that ends past the last line, or starts in the margin above, to the layer', () => {
    const { layer, before, after } = page(['The estimate of the', 'number of distinct']);
    const r = document.createRange();
    r.setStart(text(layer, 1), 7);
    r.setEnd(after, 4);
    expect(clampToLayer(r, layer)!.toString()).toBe('of distinct');
    r.setStart(before, 2);
    r.setEnd(text(layer, 0), 12);
    expect(clampToLayer(r, layer)!.toString()).toBe('The estimate');
    r.setStart(before, 0);
    r.setEnd(after, 4); // the whole page: all of the layer
    expect(clampToLayer(r, layer)!.toString()).toBe('The estimate of thenumber of distinct');
  });

  it('refuses a range that does not meet the layer, or meets only its empty edges', () => {
    const { root, layer, before, after } = page(['Lecture 3']);
    const r = document.createRange();
    r.setStart(before, 0);
    r.setEnd(before, 4);
    expect(clampToLayer(r, layer)).toBeNull();
    r.setStart(after, 0);
    r.setEnd(after, 4);
    expect(clampToLayer(r, layer)).toBeNull();
    r.setStart(before, 4);
    r.setEnd(root, 2); // ends just after the layer's last node: nothing of the layer but its empty end
    r.setStart(layer, layer.childNodes.length);
    expect(clampToLayer(r, layer)).toBeNull();
  });
});

describe('clampSelection', () => {
  it('sets the selection to what it keeps, in the drag’s direction', () => {
    const { layer, after } = page(['The estimate of the', 'number of distinct']);
    const sel = document.getSelection()!;
    sel.setBaseAndExtent(after, 4, text(layer, 1), 7); // dragged upwards from below the page
    const kept = clampSelection(sel, [layer])!;
    expect(kept.toString()).toBe('of distinct');
    expect(sel.toString()).toBe('of distinct');
    // Anchored at the last character of the layer's text (not past it), the focus where the drag ended.
    expect(sel.anchorNode === text(layer, 1) && sel.anchorOffset === 18).toBe(true);
    expect(sel.focusNode === text(layer, 1) && sel.focusOffset === 7).toBe(true);
  });

  it('keeps the page where a selection over two pages starts', () => {
    const one = page(['Page one ends here']);
    const two = page(['Page two starts here']);
    const sel = document.getSelection()!;
    sel.setBaseAndExtent(text(one.layer, 0), 9, text(two.layer, 0), 8);
    expect(clampSelection(sel, [one.layer, two.layer])!.toString()).toBe('ends here');
    expect(sel.toString()).toBe('ends here');
    sel.setBaseAndExtent(text(one.layer, 0), 9, text(two.layer, 0), 8); // the viewer draws one page: the one it shows
    expect(clampSelection(sel, [two.layer])!.toString()).toBe('Page two');
  });

  it('gives nothing for a collapsed selection or one outside the layers', () => {
    const { layer, before } = page(['Lecture 3']);
    const sel = document.getSelection()!;
    expect(clampSelection(sel, [layer])).toBeNull();
    sel.setBaseAndExtent(before, 0, before, 4);
    expect(clampSelection(sel, [layer])).toBeNull();
    expect(sel.toString()).toBe('Page');
  });
});
