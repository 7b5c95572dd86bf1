import { describe, expect, it } from 'vitest';
import { boxRect, markBox } from './box.ts';

describe('boxRect', () => {
  it('scales a box in points to pixels', () => {
    expect(boxRect([72, 100, 272, 250], 1.5)).toEqual({ left: 108, top: 150, width: 300, height: 225 });
  });
  it('refuses empty, inverted and non-finite boxes', () => {
    expect(boxRect([10, 10, 10, 50], 1)).toBeNull();
    expect(boxRect([50, 10, 10, 50], 1)).toBeNull();
    expect(boxRect([0, 0, Number.NaN, 5], 1)).toBeNull();
    expect(boxRect([0, 0, 5, 5], 0)).toBeNull();
  });
});

describe('markBox', () => {
  it('draws one box over the layer, replacing the previous one', () => {
    const layer = document.createElement('div');
    markBox(layer, [0, 0, 10, 10], 1);
    const el = markBox(layer, [10, 20, 110, 70], 2);
    const boxes = layer.querySelectorAll('.region-box');
    expect(boxes).toHaveLength(1);
    expect(boxes[0]).toBe(el);
    expect(el?.style.left).toBe('20px');
    expect(el?.style.top).toBe('40px');
    expect(el?.style.width).toBe('200px');
    expect(el?.style.height).toBe('100px');
  });
  it('draws nothing for an invalid box', () => {
    const layer = document.createElement('div');
    expect(markBox(layer, [5, 5, 1, 1], 1)).toBeNull();
    expect(layer.children).toHaveLength(0);
  });
});
