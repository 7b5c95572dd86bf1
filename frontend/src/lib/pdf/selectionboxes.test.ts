import { describe, expect, it } from 'vitest';
import { drawHighlights, MAX_BOXES, selectionBoxes } from './selectionboxes.ts';

const origin = { left: 100, top: 50 };
const size = { width: 595, height: 842 };
const rect = (left: number, top: number, right: number, bottom: number) => ({ left, top, right, bottom });

describe('selectionBoxes', () => {
  it('turns client rectangles into page points and merges the pieces of a line', () => {
    // Drawn at 2x: two spans of one line, a second line, a sliver.
    const boxes = selectionBoxes(
      [rect(244, 250, 400, 274), rect(398, 251, 500, 273), rect(244, 280, 300, 304), rect(600, 250, 600.4, 274)],
      origin,
      2,
      size,
    );
    expect(boxes).toEqual([
      [72, 100, 200, 112],
      [72, 115, 100, 127],
    ]);
  });

  it('clamps to the page, and keeps at most MAX_BOXES', () => {
    expect(selectionBoxes([rect(50, 0, 2000, 60)], origin, 1, size)).toEqual([[0, 0, 595, 10]]);
    const many = Array.from({ length: MAX_BOXES + 20 }, (_, i) => rect(100, 50 + i * 4, 200, 53 + i * 4));
    expect(selectionBoxes(many, origin, 1, { width: 595, height: 5000 })).toHaveLength(MAX_BOXES);
    expect(selectionBoxes([rect(1, 1, 2, 2)], origin, 0, size)).toEqual([]);
  });
});

describe('drawHighlights', () => {
  it('draws each box of each note in its colour, at the scale of the page', () => {
    const layer = document.createElement('div');
    const n = drawHighlights(layer, [{ id: 'a', color: 'green', boxes: [[72, 100, 200, 112], [10, 10, 5, 5]] }, { id: 'b', color: 'blue', boxes: null }], 2, (c) =>
      c === 'green' ? 'rgb(0, 128, 0)' : 'rgb(0, 0, 255)',
    );
    expect(n).toBe(1);
    const el = layer.querySelector<HTMLElement>('.note-box');
    expect(el?.dataset.note).toBe('a');
    expect([el?.style.left, el?.style.top, el?.style.width, el?.style.height, el?.style.backgroundColor]).toEqual(['144px', '200px', '256px', '24px', 'rgb(0, 128, 0)']);
  });
});
