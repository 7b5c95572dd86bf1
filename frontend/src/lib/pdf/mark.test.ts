import { describe, expect, it } from 'vitest';
import { findPassage } from '../highlight.ts';
import { markPassage } from './mark.ts';

function spans(items: string[]): HTMLElement[] {
  return items.map((s) => {
    const span = document.createElement('span');
    span.textContent = s;
    return span;
  });
}

describe('markPassage', () => {
  it('marks exactly the matched text, keeping each span’s full text', () => {
    const items = ['Intro. A formula is satis-', 'fiable if some assignment', 'makes it true. Next topic.'];
    const divs = spans(items);
    const match = findPassage(items, 'A formula is satisfiable if some assignment makes it true.');
    expect(match).not.toBeNull();
    const marks = markPassage(divs, match!);
    expect(marks.map((m) => m.textContent)).toEqual(['A formula is satis-', 'fiable if some assignment', 'makes it true']);
    expect(divs.map((d) => d.textContent)).toEqual(items);
    expect(divs[0]?.querySelector('mark.passage')).not.toBeNull();
  });
});
