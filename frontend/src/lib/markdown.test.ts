import { describe, expect, it } from 'vitest';
import { sampleCitation, sampleSource } from '../test/api/fake.ts';
import { locateCitations, scanLabels, type Chip } from './citations.ts';
import { isSafeURL, renderMarkdown, type MarkdownStrings } from './markdown.ts';

const strings: MarkdownStrings = {
  image: (alt) => `Image: ${alt}`,
  chipTitle: (chip: Chip) => (chip.state === 'unverified' ? `Not verified: ${chip.reason}` : 'Open'),
  chipLabel: (chip: Chip) => `${chip.raw} (${chip.state})`,
  mathError: 'unreadable formula',
};

/** Renders into a detached element, as the view does. */
function render(text: string, chips = scanLabels(text, [sampleSource()])): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = renderMarkdown(text, chips, strings);
  return div;
}

describe('renderMarkdown safety', () => {
  it('never lets raw HTML through', () => {
    const div = render('Hi <script>alert(1)</script> <b onclick="x()">bold</b>\n\n<img src="http://evil.example/x.png" onerror="alert(2)">');
    expect(div.querySelector('script, b, img, [onclick], [onerror]')).toBeNull();
    expect(div.textContent).toContain('<script>alert(1)</script>');
  });

  it('drops javascript:, data: and file: links and keeps http(s) ones', () => {
    const div = render(
      '[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html;base64,PHNjcmlwdD4=) [d](file:///etc/passwd) [e](https://example.org/x) <http://example.com>',
    );
    const links = [...div.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.org/x', 'http://example.com']);
    for (const a of links) expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    // The refused ones stay visible as plain text, in no attribute.
    for (const el of div.querySelectorAll('*')) {
      for (const attr of el.attributes) expect(attr.value).not.toMatch(/javascript:|data:|file:/i);
    }
    expect(div.textContent).toContain('[a](javascript:alert(1))');
  });

  it('shows an image as its alt text and never loads it', () => {
    const div = render('See ![the plot](http://tracker.example/pixel.png "t") here.');
    expect(div.querySelector('img')).toBeNull();
    expect(div.querySelector('.md-image')?.textContent).toBe('Image: the plot');
    expect(div.innerHTML).not.toContain('tracker.example');
  });

  it('does not turn bare file names into links', () => {
    expect(render('Read notes.io and lecture_sat.pdf').querySelector('a')).toBeNull();
  });

  it('renders ordinary Markdown', () => {
    const div = render('# Title\n\n- **bold** and `code`\n- $x_1$');
    expect(div.querySelector('h1')?.textContent).toBe('Title');
    expect(div.querySelector('strong')?.textContent).toBe('bold');
    expect(div.querySelector('code')?.textContent).toBe('code');
  });
});

describe('citation chips', () => {
  it('turns labels into buttons that carry only their index', () => {
    const div = render('SAT is NP-complete [lecture_sat.pdf p.42]. Also [other.pdf p.3].');
    const chips = [...div.querySelectorAll('.cite')];
    expect(chips.map((c) => c.textContent)).toEqual(['lecture_sat.pdf p.42', 'other.pdf p.3']);
    expect(chips[0]?.tagName).toBe('BUTTON');
    expect(chips[0]?.getAttribute('data-cite')).toBe('0');
    // other.pdf is not among the sources: nothing to open.
    expect(chips[1]?.tagName).toBe('SPAN');
  });

  it('cannot be forged by marker characters in the text', () => {
    const div = render('\uE0000\uE001 and \uE000x\uE001', []);
    expect(div.querySelector('.cite')).toBeNull();
  });

  it('keeps a label inside code as text', () => {
    const div = render('`[lecture_sat.pdf p.42]`');
    expect(div.querySelector('.cite')).toBeNull();
    expect(div.querySelector('code')?.textContent).toBe('[lecture_sat.pdf p.42]');
  });

  it('marks verified and unverified chips differently, with the reason', () => {
    const text = 'True [lecture_sat.pdf p.42]. Wrong [lecture_sat.pdf p.7].';
    const located = locateCitations(
      text,
      [
        sampleCitation({ start: 5, end: 27 }),
        sampleCitation({
          raw: '[lecture_sat.pdf p.7]',
          label: '[lecture_sat.pdf p.7]',
          page: 7,
          verified: false,
          reason: 'the cited page does not contain the claim',
          start: 35,
          end: 56,
        }),
      ],
      [sampleSource()],
      'not checked',
    );
    const div = render(text, located);
    const [ok, bad] = [...div.querySelectorAll('button.cite')];
    expect(ok?.className).toBe('cite verified');
    expect(bad?.className).toBe('cite unverified');
    expect(bad?.getAttribute('title')).toBe('Not verified: the cited page does not contain the claim');
    expect(bad?.querySelector('.cite-icon')).not.toBeNull();
    expect(ok?.querySelector('.cite-icon')).toBeNull();
    expect(bad?.getAttribute('aria-label')).toBe('[lecture_sat.pdf p.7] (unverified)');
  });

  it('escapes what it writes into attributes', () => {
    const located = scanLabels('x [a"><script>.pdf p.1]', []);
    const html = renderMarkdown('x [a"><script>.pdf p.1]', located, strings);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('isSafeURL accepts only absolute http(s)', () => {
    expect(isSafeURL('https://a.org')).toBe(true);
    expect(isSafeURL('HTTP://a.org/x')).toBe(true);
    for (const bad of ['javascript:alert(1)', '//evil.org', '/docs/x', 'mailto:a@b.c', 'https://']) {
      expect(isSafeURL(bad), bad).toBe(false);
    }
  });
});
