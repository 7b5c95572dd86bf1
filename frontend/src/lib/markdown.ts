// Renders an answer's Markdown to HTML that is safe to insert with {@html}.
//
// The text comes from a language model that read untrusted PDFs, so:
// - raw HTML is never parsed (markdown-it with html: false escapes it);
// - links are kept only for http(s) URLs; the view opens them in the system
//   browser on click and never lets the webview navigate;
// - images are never loaded: their alt text is shown instead;
// - citations become <button data-cite="N"> chips; the view handles clicks
//   by delegation (the chips' data lives in the Located list, not the HTML);
// - formulas ($...$, $$...$$, \(...\), \[...\]) become MathML (lib/math.ts),
//   or their source when they do not parse.

import markdownIt, { type Env, type MarkdownIt, type StateCore, type Token } from 'markdown-it';
import { chipText, type Chip, type Located } from './citations.ts';
import { formulaHTML, mathAt } from './math.ts';

/** Texts the renderer needs, in the UI's language. */
export interface MarkdownStrings {
  /** What replaces an image: e.g. "Image: {alt}". */
  image: (alt: string) => string;
  /** Tooltip and accessible name of a chip. */
  chipTitle: (chip: Chip) => string;
  chipLabel: (chip: Chip) => string;
  /** The text a chip shows; its label without brackets when absent ("your note, p. 12" for a note). */
  chipText?: (chip: Chip) => string;
  /** Tooltip of a formula that does not parse (shown as its source). */
  mathError: string;
}

// Private-use characters mark where a citation sits in the Markdown source.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARKER = /\uE000(\d+)\uE001/g;

/** Only absolute http(s) URLs survive as links. */
export function isSafeURL(url: string): boolean {
  return /^https?:\/\/[^\s]/i.test(url.trim());
}

function createRenderer(links: boolean): MarkdownIt {
  const md = markdownIt({ html: false, linkify: links, typographer: false, breaks: false });
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  md.validateLink = isSafeURL;
  // A document's own text (a table passage) has no live links: "[text](url)"
  // and "<url>" stay text.
  if (!links) md.disable(['link', 'autolink']);

  const esc = md.utils.escapeHtml;
  md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
    const token = tokens[idx];
    token?.attrSet('rel', 'noopener noreferrer');
    token?.attrSet('class', 'external');
    return self.renderToken(tokens, idx, options);
  };
  md.renderer.rules.image = (tokens, idx, options, env) => {
    const token = tokens[idx];
    const alt = token ? md.renderer.renderInlineAsText(token.children ?? [], options, env) : '';
    return `<span class="md-image">${esc(envOf(env).strings.image(alt))}</span>`;
  };
  md.renderer.rules.vika_cite = (tokens, idx, _options, e) => {
    const env = envOf(e);
    const n = Number(tokens[idx]?.meta?.n ?? -1);
    const located = env.chips[n];
    if (!located) return '';
    const chip = located.chip;
    const icon = chip.state === 'unverified' ? '<span class="cite-icon" aria-hidden="true">!</span>' : '';
    const attrs = `class="cite ${chip.state}${chip.mine ? ' mine' : ''}" data-cite="${n}" title="${esc(env.strings.chipTitle(chip))}" aria-label="${esc(env.strings.chipLabel(chip))}"`;
    const shown = esc(env.strings.chipText ? env.strings.chipText(chip) : chipText(chip));
    if (chip.doc_id === '') return `<span role="note" ${attrs}>${icon}${shown}</span>`;
    return `<button type="button" ${attrs}>${icon}${shown}</button>`;
  };

  // Formulas, before backslash escapes (which would eat \( and \[). A
  // formula holding a citation marker stays text, so the chip survives.
  md.inline.ruler.before('escape', 'vika_math', (state, silent) => {
    const span = mathAt(state.src, state.pos);
    if (!span || span.tex.includes(OPEN)) return false;
    if (!silent) {
      const tok = state.push('vika_math', '', 0);
      tok.content = span.tex;
      tok.markup = state.src.slice(span.start, span.end);
      tok.meta = { display: span.display };
    }
    state.pos = span.end;
    return true;
  });
  md.renderer.rules.vika_math = (tokens, idx, _options, e) => {
    const tok = tokens[idx];
    if (!tok) return '';
    return formulaHTML(tok.content, Boolean(tok.meta?.display), tok.markup, envOf(e).strings.mathError);
  };

  // After inline parsing: markers in text become citation tokens; in code
  // they turn back into the label they stood for.
  md.core.ruler.push('vika_citations', (state) => {
    const env = envOf(state.env);
    const restore = (s: string) => s.replace(MARKER, (_m, n: string) => env.chips[Number(n)]?.chip.raw ?? '');
    for (const block of state.tokens) {
      if (block.type === 'fence' || block.type === 'code_block') block.content = restore(block.content);
      if (!block.children) continue;
      const out: Token[] = [];
      for (const tok of block.children) {
        if (tok.type === 'code_inline') tok.content = restore(tok.content);
        if (tok.type !== 'text' || !tok.content.includes(OPEN)) {
          out.push(tok);
          continue;
        }
        let last = 0;
        for (const m of tok.content.matchAll(MARKER)) {
          if (m.index > last) out.push(textToken(state, tok.content.slice(last, m.index)));
          const cite = new state.Token('vika_cite', '', 0);
          cite.meta = { n: Number(m[1]) };
          out.push(cite);
          last = m.index + m[0].length;
        }
        if (last < tok.content.length) out.push(textToken(state, tok.content.slice(last)));
      }
      block.children = out;
    }
  });
  return md;
}

function textToken(state: StateCore, content: string): Token {
  const t = new state.Token('text', '', 0);
  t.content = content;
  return t;
}

interface RenderEnv {
  chips: readonly Located[];
  strings: MarkdownStrings;
}

function envOf(env: Env | undefined): RenderEnv {
  return env as unknown as RenderEnv;
}

let renderer: MarkdownIt | null = null;
let inert: MarkdownIt | null = null;

/**
 * Renders text (Markdown) with the given citations (sorted, not
 * overlapping) as chips. The result holds no element or attribute that
 * markdown-it did not write itself. With links false (a PDF's own text,
 * such as a table passage), no link is made at all.
 */
export function renderMarkdown(text: string, chips: readonly Located[], strings: MarkdownStrings, links = true): string {
  const md = links ? (renderer ??= createRenderer(true)) : (inert ??= createRenderer(false));
  // Stray marker characters in the input cannot forge a chip.
  let source = text.replace(/[\uE000\uE001]/g, '\uFFFD');
  for (let i = chips.length - 1; i >= 0; i--) {
    const c = chips[i];
    if (c) source = source.slice(0, c.start) + `${OPEN}${i}${CLOSE}` + source.slice(c.end);
  }
  const env: RenderEnv = { chips, strings };
  return md.render(source, env as unknown as Env);
}
