// Renders LaTeX formulas as MathML (Temml), for the answers, the sources
// panel and the explorer; WebKitGTK and WebView2 draw MathML natively.
//
// - Delimiters: $...$, $$...$$, \(...\) and \[...\]. A dollar sign in prose
//   stays text: an opening $ must touch the formula ("$x"), a closing one
//   must touch it too and not be followed by a digit, so "costs $5 and $10"
//   holds no formula, nor does text between two prices that starts with a
//   digit and holds a word ("$10 a month, or US$").
// - A formula that does not parse shows its source (class "math-error"),
//   never an exception, so the answer and its citation chips around it
//   still render.
// - Temml runs without trust (no \href, \class, \style, \includegraphics)
//   and the style attributes it writes are dropped: the window's CSP allows
//   no inline style, and Temml's stylesheet (Temml-Local.css) does the rest.
// - Every <math> carries its LaTeX as an annotation, so copying a selection
//   can give back the LaTeX (plainTextWithTeX).

import temml from 'temml';

/** A formula found in text: [start, end) of the whole span, delimiters included. */
export interface MathSpan {
  start: number;
  end: number;
  tex: string;
  display: boolean;
}

// maxTeX bounds one formula: a longer run between dollars is not one.
const maxTeX = 2000;

/** The formula that starts at pos in src, or null. */
export function mathAt(src: string, pos: number): MathSpan | null {
  const c = src[pos];
  if (c === '\\') {
    const next = src[pos + 1];
    if (next === '(') return closed(src, pos, '\\(', '\\)', false);
    if (next === '[') return closed(src, pos, '\\[', '\\]', true);
    return null;
  }
  if (c !== '$' || src[pos - 1] === '\\') return null;
  if (src[pos + 1] === '$') return closed(src, pos, '$$', '$$', true);
  return dollar(src, pos);
}

function closed(src: string, pos: number, open: string, close: string, display: boolean): MathSpan | null {
  const from = pos + open.length;
  const end = src.indexOf(close, from);
  if (end < 0 || end - from > maxTeX) return null;
  const tex = src.slice(from, end);
  if (tex.trim() === '') return null;
  return { start: pos, end: end + close.length, tex: tex.trim(), display };
}

const space = /\s/;

// dollar finds the closing $ of an inline formula opened at pos, under
// Pandoc's rules for telling a formula from a price.
function dollar(src: string, pos: number): MathSpan | null {
  const first = src[pos + 1];
  if (first === undefined || space.test(first)) return null;
  for (let i = pos + 1; i < src.length && i - pos <= maxTeX; i++) {
    const ch = src[i];
    if (ch === '\\') {
      i++; // an escaped character, \$ included
      continue;
    }
    if (ch === '\n' && src[i + 1] === '\n') return null;
    if (ch !== '$') continue;
    const before = src[i - 1] ?? '';
    const after = src[i + 1] ?? '';
    if (space.test(before) || /[0-9]/.test(after) || prose(src.slice(pos + 1, i))) return null;
    return { start: pos, end: i + 1, tex: src.slice(pos + 1, i), display: false };
  }
  return null;
}

// prose is text between two prices ("$10 a month, or US$"): it starts
// with a digit and holds a word outside LaTeX commands.
function prose(tex: string): boolean {
  return /^[0-9]/.test(tex) && /(?:^|\s)[A-Za-z]{2,}/.test(tex.replace(/\\[A-Za-z]+/g, ''));
}

/** All the formulas of text, in order, not overlapping. */
export function findMath(text: string): MathSpan[] {
  const out: MathSpan[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '$' && c !== '\\') continue;
    const span = mathAt(text, i);
    if (span) {
      out.push(span);
      i = span.end - 1;
    } else if (c === '\\') {
      i++; // \$ is a dollar, not an opening
    }
  }
  return out;
}

const styleAttr = / style="[^"]*"/g;

/**
 * The MathML of a formula, or null when it does not parse (or uses a
 * command that needs trust).
 */
export function mathML(tex: string, display: boolean): string | null {
  try {
    const html = temml.renderToString(tex, {
      displayMode: display,
      annotate: true,
      throwOnError: true,
      trust: false,
      strict: false,
      maxExpand: 500,
    });
    return html.replace(styleAttr, '');
  } catch {
    return null;
  }
}

function escapeHTML(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A formula as HTML: its MathML, or, when it does not parse, its source
 * with its delimiters in a <code class="math-error" title=errorTitle>.
 */
export function formulaHTML(tex: string, display: boolean, source: string, errorTitle: string): string {
  const ml = mathML(tex, display);
  if (ml !== null) return display ? `<span class="math-display">${ml}</span>` : ml;
  return `<code class="math-error" title="${escapeHTML(errorTitle)}">${escapeHTML(source)}</code>`;
}

/** The LaTeX a <math> element was rendered from, from its annotation. */
export function texOf(math: Element): string | null {
  const note = math.querySelector('annotation[encoding="application/x-tex"]');
  return note ? (note.textContent ?? '').trim() : null;
}

/**
 * The text of a copied piece of an answer, with each formula given back
 * as its LaTeX between delimiters ($...$, or $$...$$ on display) instead
 * of the characters MathML would copy.
 */
export function plainTextWithTeX(fragment: DocumentFragment | Element): string {
  const copy = fragment.cloneNode(true) as DocumentFragment | Element;
  for (const math of [...copy.querySelectorAll('math')]) {
    const tex = texOf(math);
    if (tex === null) continue;
    const d = math.getAttribute('display') === 'block' ? '$$' : '$';
    math.replaceWith(copy.ownerDocument?.createTextNode(`${d}${tex}${d}`) ?? `${d}${tex}${d}`);
  }
  return copy.textContent ?? '';
}

/**
 * The text to copy for a selection inside root, with its formulas as
 * LaTeX (a formula partly selected counts whole), or null when the
 * selection holds no formula (the webview's own copy is then right).
 */
export function copiedText(range: Range, root: Element): string | null {
  const whole = range.cloneRange();
  const startMath = closestMath(whole.startContainer, root);
  const endMath = closestMath(whole.endContainer, root);
  if (startMath) whole.setStartBefore(startMath);
  if (endMath) whole.setEndAfter(endMath);
  const fragment = whole.cloneContents();
  if (!fragment.querySelector('math')) return null;
  return plainTextWithTeX(fragment);
}

function closestMath(node: Node, root: Element): Element | null {
  const el = node instanceof Element ? node : node.parentElement;
  const math = el?.closest('math') ?? null;
  return math && root.contains(math) ? math : null;
}
