// Highlights a matched passage in a page's text layer: each span the match
// covers gets a <mark> around the covered part of its text (the span's own
// text is transparent; the mark paints a translucent background under it).

import type { PassageMatch } from '../highlight.ts';

/** Wraps the matched text of divs in <mark class="passage">; returns the marks. */
export function markPassage(divs: readonly HTMLElement[], match: PassageMatch): HTMLElement[] {
  const marks: HTMLElement[] = [];
  for (let i = match.start.item; i <= match.end.item; i++) {
    const div = divs[i];
    if (!div) continue;
    const text = div.textContent ?? '';
    const from = i === match.start.item ? match.start.offset : 0;
    const to = i === match.end.item ? match.end.offset : text.length;
    if (to <= from) continue;
    const mark = document.createElement('mark');
    mark.className = 'passage';
    mark.textContent = text.slice(from, to);
    div.replaceChildren(text.slice(0, from), mark, text.slice(to));
    marks.push(mark);
  }
  return marks;
}
