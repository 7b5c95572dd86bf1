import { describe, expect, it } from 'vitest';
import { isFigure, isTable, tableHTML } from './regionview.ts';

const image = (alt: string) => `Image: ${alt}`;

describe('tableHTML', () => {
  it('renders a table passage as a caption and an HTML table', () => {
    const md = 'Table 3: Error rates (%) on ImageNet validation.\n\n| method | top-1 err. | top-5 err. |\n| --- | --- | --- |\n| ResNet-152 | 21.43 | 5.71 |\n';
    const html = tableHTML(md, image);
    expect(html).toContain('<p>Table 3: Error rates (%) on ImageNet validation.</p>');
    expect(html).toContain('<th>top-5 err.</th>');
    expect(html).toContain('<td>ResNet-152</td>');
    expect(html).toContain('<td>5.71</td>');
  });

  it('escapes raw HTML and never loads an image from a table cell', () => {
    const md = '| a | b |\n| --- | --- |\n| <img src=x onerror=alert(1)> | ![chart](https://evil.example/x.png) |\n';
    const html = tableHTML(md, image);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Image: chart');
  });
});

describe('kinds', () => {
  it('tells tables and figures from other passages', () => {
    expect(isTable('table')).toBe(true);
    expect(isTable('body')).toBe(false);
    expect(isFigure('figure')).toBe(true);
    expect(isFigure(undefined)).toBe(false);
  });
});
