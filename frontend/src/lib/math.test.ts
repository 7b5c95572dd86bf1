import { describe, expect, it } from 'vitest';
// The repository's shared fixture, also read by the Go export's tests.
import formulas from '../../../testdata/latex/formulas.txt?raw';
import { sampleSource } from '../test/api/fake.ts';
import { scanLabels } from './citations.ts';
import { renderMarkdown, type MarkdownStrings } from './markdown.ts';
import { copiedText, findMath, mathML, plainTextWithTeX, texOf } from './math.ts';

const strings: MarkdownStrings = {
  image: (alt) => `Image: ${alt}`,
  chipTitle: () => 'Open',
  chipLabel: (chip) => chip.raw,
  mathError: 'unreadable formula',
};

function render(text: string): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = renderMarkdown(text, scanLabels(text, [sampleSource()]), strings);
  return div;
}

/** What a reader sees of an element: its text without the LaTeX annotations. */
function visible(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  for (const a of copy.querySelectorAll('annotation')) a.remove();
  return copy.textContent ?? '';
}

const corpus = formulas
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('#'))
  .map((l) => {
    const bar = l.indexOf(' | ');
    return { name: l.slice(0, bar), tex: l.slice(bar + 3) };
  });

describe('the formulas of the shared PDFs', () => {
  it('are at least forty', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
  });

  it.each(corpus)('$name renders as MathML, inline and on display', ({ tex }) => {
    for (const text of [`so $${tex}$ holds`, `\\(${tex}\\)`, `$$${tex}$$`, `\\[${tex}\\]`]) {
      const div = render(text);
      const math = div.querySelector('math');
      expect(math, text).not.toBeNull();
      expect(div.querySelector('.math-error, merror')).toBeNull();
      expect(texOf(math as Element)).toBe(tex);
      // No command left as text (\frac, \sum, \mathrm...), no inline style (CSP).
      expect(visible(div)).not.toMatch(/\\[A-Za-z]+/);
      expect(div.querySelector('[style]')).toBeNull();
    }
  });
});

describe('renderMarkdown with formulas', () => {
  it('renders inline and display formulas in place', () => {
    const div = render('The attention is $\\mathrm{softmax}(QK^T/\\sqrt{d_k})V$ and\n\n$$H = -\\sum_i p_i \\log p_i$$');
    const maths = [...div.querySelectorAll('math')];
    expect(maths.map((m) => m.getAttribute('display'))).toEqual([null, 'block']);
    expect(div.querySelector('p')?.textContent).toMatch(/^The attention is /);
  });

  it('shows a formula that does not parse as its source, the rest intact', () => {
    const text = 'Before $\\frac{a}{$ and $x^{2$ after [lecture_sat.pdf p.42], then $y$.';
    const div = render(text);
    const errors = [...div.querySelectorAll('code.math-error')];
    expect(errors.map((e) => e.textContent)).toEqual(['$\\frac{a}{$', '$x^{2$']);
    expect(errors[0]?.getAttribute('title')).toBe('unreadable formula');
    expect(div.querySelector('button.cite')?.textContent).toBe('lecture_sat.pdf p.42');
    expect(div.querySelectorAll('math')).toHaveLength(1);
    expect(div.textContent).toContain('after');
  });

  it('refuses the commands that need trust', () => {
    const div = render('$\\href{javascript:alert(1)}{x}$ $\\style{color:red}{y}$ $\\class{evil}{z}$ $\\includegraphics{http://evil.example/a.png}$');
    expect(div.querySelector('a, img, [style], .evil')).toBeNull();
    for (const el of div.querySelectorAll('*')) {
      for (const attr of el.attributes) expect(attr.value).not.toMatch(/javascript:|evil\.example/);
    }
  });

  it('leaves dollars in prose as text', () => {
    for (const text of ['It costs $5 and $10.', 'From $5-$10 a month', 'Pay $ 20 or $30', 'A \\$x\\$ escape', 'US$5 and then $', 'From $10 a month, or US$ 3']) {
      const div = render(text);
      expect(div.querySelector('math, .math-error'), text).toBeNull();
    }
    expect(render('It costs $5 and $10.').textContent?.trim()).toBe('It costs $5 and $10.');
  });

  it('keeps dollars in code as code', () => {
    const div = render('Run `echo $HOME $PATH` then\n\n```\nx = $y$\n```');
    expect(div.querySelector('math')).toBeNull();
    expect(div.querySelector('code')?.textContent).toBe('echo $HOME $PATH');
  });

  it('keeps a citation that sits inside dollars as a chip', () => {
    const div = render('See $[lecture_sat.pdf p.42]$ here');
    expect(div.querySelector('button.cite')).not.toBeNull();
  });

  it('does not open a formula that is still streaming', () => {
    expect(render('so $\\frac{QK^T}{').querySelector('math, .math-error')).toBeNull();
  });
});

describe('findMath', () => {
  it('finds each delimiter once, in order', () => {
    const spans = findMath('a $x$ b $$y$$ c \\(z\\) d \\[w\\] e $5 and $6');
    expect(spans.map((s) => [s.tex, s.display])).toEqual([
      ['x', false],
      ['y', true],
      ['z', false],
      ['w', true],
    ]);
  });
});

describe('copying an answer', () => {
  it('gives back the LaTeX of its formulas', () => {
    const div = render('Attention is $\\mathrm{softmax}(QK^T)V$ and $$H = -\\sum p \\log p$$ done.');
    expect(plainTextWithTeX(div).trim()).toBe('Attention is $\\mathrm{softmax}(QK^T)V$ and $$H = -\\sum p \\log p$$ done.');
  });

  it('has MathML with its annotation', () => {
    expect(mathML('\\frac{1}{2}', false)).toContain('<annotation encoding="application/x-tex">\\frac{1}{2}</annotation>');
    expect(mathML('\\frac{1}{', false)).toBeNull();
  });
});

describe('copiedText', () => {
  it('copies a partly selected formula whole, as LaTeX', () => {
    const div = render('One $x^2$ two');
    document.body.append(div);
    const math = div.querySelector('math') as Element;
    const range = document.createRange();
    range.setStart(div.querySelector('p')?.firstChild as Node, 0);
    range.setEnd(math.querySelector('mi') ?? math, 0);
    expect(copiedText(range, div)).toBe('One $x^2$');
    const plain = document.createRange();
    plain.selectNodeContents(div.querySelector('p')?.firstChild as Node);
    expect(copiedText(plain, div)).toBeNull();
    div.remove();
  });
});
