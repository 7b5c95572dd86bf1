// The end-of-content block follows a selection's moving end, as pdf.js's viewer does (hit-testing itself needs a
// real window: screenshots-student.sh).

import { afterEach, describe, expect, it } from 'vitest';
import { endOfContent } from './endofcontent.ts';

afterEach(() => {
  document.getSelection()?.removeAllRanges();
  document.body.replaceChildren();
});

function layer(lines: string[]): HTMLElement {
  const el = document.createElement('div');
  el.className = 'textLayer';
  for (const l of lines) {
    const span = document.createElement('span');
    span.textContent = l;
    el.append(span, document.createElement('br'));
  }
  document.body.append(el);
  return el;
}

describe('endOfContent', () => {
  it('covers the layer while a selection is made, right after the span its moving end is in, then goes back', () => {
    const l = layer(['We call our particular attention', 'Scaled Dot-Product Attention.', 'The input consists of']);
    const eoc = endOfContent(l);
    eoc.append();
    const end = l.lastChild as HTMLElement;
    expect(end.className).toBe('endOfContent');

    l.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    expect(l.classList.contains('selecting')).toBe(true);
    const spans = [...l.querySelectorAll('span')];
    const sel = document.getSelection()!;
    sel.setBaseAndExtent(spans[0]!.firstChild!, 3, spans[1]!.firstChild!, 6);
    document.dispatchEvent(new Event('selectionchange'));
    expect(spans[1]!.nextSibling).toBe(end);
    expect(sel.toString()).toBe('call our particular attentionScaled');

    document.dispatchEvent(new Event('pointerup'));
    expect(l.lastChild).toBe(end);
    expect(l.classList.contains('selecting')).toBe(false);

    eoc.destroy();
    expect(end.isConnected).toBe(false);
    document.dispatchEvent(new Event('pointerup'));
    expect(end.isConnected).toBe(false); // no listener left
  });
});
