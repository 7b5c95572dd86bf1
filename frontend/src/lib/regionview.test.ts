import { describe, expect, it } from 'vitest';
import { displayFormulaHTML, isFigure, isTable, passageLaTeX, tableHTML } from './regionview.ts';

const image = { image: (alt: string) => `Image: ${alt}`, mathError: 'unreadable' };

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

describe('tableHTML links', () => {
  it('makes no live link from a table cell, in any Markdown form', () => {
    const md = '| a | b | c |\n| --- | --- | --- |\n| [docs](https://evil.example/x) | <https://evil.example/y> | https://evil.example/z |\n';
    const div = document.createElement('div');
    div.innerHTML = tableHTML(md, image);
    expect(div.querySelector('a')).toBeNull();
    expect(div.textContent).toContain('https://evil.example/z');
    expect(div.querySelector('td')?.textContent).toBe('[docs](https://evil.example/x)');
  });
});

describe('formula passages', () => {
  // As the engine indexes a transcribed formula: text, LaTeX, command names.
  const passage = 'Attention(Q,K,V) = softmax( QKT √dk )V\nLaTeX: \\mathrm{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V\nmathrm softmax left frac sqrt right';

  it('finds the LaTeX line and renders it on display', () => {
    const tex = passageLaTeX(passage);
    expect(tex).toBe('\\mathrm{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V');
    const div = document.createElement('div');
    div.innerHTML = displayFormulaHTML(tex, 'unreadable');
    expect(div.querySelector('math[display="block"] mfrac')).not.toBeNull();
  });

  it('has no LaTeX for a formula that was not transcribed, and shows a bad one as its source', () => {
    expect(passageLaTeX('E = mc2')).toBe('');
    const div = document.createElement('div');
    div.innerHTML = displayFormulaHTML('\\frac{a', 'unreadable');
    expect(div.querySelector('code.math-error')?.textContent).toBe('\\frac{a');
    expect(div.querySelector('code.math-error')?.getAttribute('title')).toBe('unreadable');
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
