import { describe, expect, it } from 'vitest';
import { drawOCRLayer, MAX_OCR_LINES, ocrLines } from './ocrlayer.ts';

const line = (start: number, end: number, bbox: number[], size = 0) => ({ start, end, bbox, size, block: 0 });

describe('the OCR text layer', () => {
  it('lays out a scanned page’s OCR lines from rune offsets, not a text layer’s lines', () => {
    const text = 'Probabilistic counting é\nœuvre of Flajolet';
    const page = {
      text,
      lines: [line(0, 24, [72, 100, 300, 112]), line(25, 42, [72, 114, 250, 126]), line(0, 13, [72, 100, 200, 112], 10), line(0, 5, [5, 5, 5, 9])],
    };
    expect(ocrLines(page)).toEqual([
      { text: 'Probabilistic counting é', box: [72, 100, 300, 112] },
      { text: 'œuvre of Flajolet', box: [72, 114, 250, 126] },
    ]);
    const layer = document.createElement('div');
    expect(drawOCRLayer(layer, page, 2)).toBe(2);
    const spans = [...layer.querySelectorAll('span.ocr-line')] as HTMLElement[];
    expect(spans.map((s) => s.textContent)).toEqual(['Probabilistic counting é ', 'œuvre of Flajolet ']);
    expect([spans[0]?.style.left, spans[0]?.style.top]).toEqual(['144px', '200px']);
    expect(layer.getAttribute('style')).toBeNull(); // placed through the CSSOM, which the CSP allows
  });

  it('is bounded', () => {
    const lines = Array.from({ length: MAX_OCR_LINES + 50 }, (_, i) => line(0, 3, [0, i, 10, i + 1]));
    expect(ocrLines({ text: 'abc', lines })).toHaveLength(MAX_OCR_LINES);
    expect(ocrLines({ text: 'x'.repeat(5000), lines: [line(0, 5000, [0, 0, 10, 1])] })[0]?.text).toHaveLength(400);
  });
});
