// A local stand-in for the Gemini API, for the end-to-end test: it speaks the
// wire format the Go client (google.golang.org/genai, backend/llm/gemini.go)
// uses, POST {base}/v1beta/models/{model}:streamGenerateContent?alt=sse with
// the key in x-goog-api-key, answered by a text/event-stream of
// GenerateContentResponse objects ("data: {json}\r\n\r\n"), the last one with
// finishReason "STOP" and usageMetadata.
//
// Its answer is built from the prompt it receives: it quotes the first
// source and cites it with the label the prompt gave it (a citation the
// backend can verify), and makes one claim that no source supports, cited
// with the same label (a citation the backend must flag as unverified). The
// text streams in small pieces, DELAY_MS apart, so the page shows it growing.
//
//   node fake-gemini.mjs [PORT]     prints "fake-gemini listening on PORT"
//   GET /__requests                 the requests received so far (JSON), for assertions
//   FAKE_GEMINI_RATE_LIMIT=N        the first N answer requests (prompts with
//                                   sources) get Gemini's 429 RESOURCE_EXHAUSTED,
//                                   so the app falls back to its next model
//   FAKE_GEMINI_PROSE_EVERY=N       every Nth formula transcription is an
//                                   apology in prose, which the app refuses
//
// Study requests (a guide's notes, their merge, flashcards) are answered in
// the study line format (studyAnswer); a passage's summary (the summary
// index) with its section and first sentence (leadSummary). Anything else answers 404 in
// Gemini's error format.

import http from 'node:http';
import { pathToFileURL } from 'node:url';

export const DELAY_MS = Number(process.env.FAKE_GEMINI_DELAY_MS ?? 120);
const RATE_LIMIT = Number(process.env.FAKE_GEMINI_RATE_LIMIT ?? 0);
const PROSE_EVERY = Number(process.env.FAKE_GEMINI_PROSE_EVERY ?? 0);
let formulas = 0;
export const UNSUPPORTED_CLAIM = 'The fake model also claims that the moon is made of green cheese';

const unescape = (s) =>
  s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The numbered sources of a Vika prompt: [{n, cite, text}]. */
export function sourcesOf(prompt) {
  const out = [];
  for (const m of prompt.matchAll(/<source n="(\d+)" cite="([^"]*)"(?: kind="[^"]*")?>\n([\s\S]*?)\n<\/source>/g)) {
    out.push({ n: Number(m[1]), cite: unescape(m[2]), text: unescape(m[3]) });
  }
  return out;
}

/** The first sentence-like stretch of text, at most max words, without Markdown specials. */
function quote(text, max) {
  const words = text.replace(/[*_`#[\]<>|\\]/g, ' ').split(/\s+/).filter(Boolean);
  return words.slice(0, max).join(' ').replace(/[.,;:]+$/, '');
}

/** Reads an image's type and size from its bytes (PNG or JPEG); null for anything else. */
export function imageInfo(bytes) {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(png) && bytes.toString('latin1', 12, 16) === 'IHDR') {
    return { mimeType: 'image/png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    for (let i = 2; i + 9 < bytes.length; ) {
      if (bytes[i] !== 0xff) return null;
      const marker = bytes[i + 1];
      const len = bytes.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xc3) {
        return { mimeType: 'image/jpeg', width: bytes.readUInt16BE(i + 7), height: bytes.readUInt16BE(i + 5) };
      }
      i += 2 + len;
    }
  }
  return null;
}

/**
 * The images of a request's last user message, each with the label before
 * it: [{mimeType, width, height, bytes, label}]. Throws when an image is
 * not what its mimeType says.
 */
export function imagesOf(body) {
  const users = (body.contents ?? []).filter((c) => c.role !== 'model');
  const parts = users.at(-1)?.parts ?? [];
  const out = [];
  parts.forEach((p, i) => {
    if (!p.inlineData) return;
    const bytes = Buffer.from(p.inlineData.data ?? '', 'base64');
    const info = imageInfo(bytes);
    if (!info || info.mimeType !== p.inlineData.mimeType) {
      throw new Error(`Unable to process input image (part ${i}, declared ${p.inlineData.mimeType})`);
    }
    out.push({ ...info, bytes: bytes.length, label: parts[i - 1]?.text ?? '' });
  });
  return out;
}

/** Unicode math a fake transcription writes as LaTeX commands. */
const LATEX = {
  α: '\\alpha', β: '\\beta', γ: '\\gamma', δ: '\\delta', ε: '\\epsilon', θ: '\\theta', λ: '\\lambda',
  μ: '\\mu', π: '\\pi', σ: '\\sigma', τ: '\\tau', φ: '\\phi', ω: '\\omega', Σ: '\\Sigma', '∑': '\\sum',
  '√': '\\sqrt', '∞': '\\infty', '≤': '\\leq', '≥': '\\geq', '≠': '\\neq', '≈': '\\approx', '∈': '\\in',
  '→': '\\to', '·': '\\cdot', '×': '\\times', '∂': '\\partial', '−': '-',
};

/**
 * The fake's LaTeX of a formula (a request asking for LaTeX only): the
 * extracted text sent with the crop, its Unicode math as commands, its words
 * of two letters or more in \\mathrm{}, without the equation number.
 */
export function latexOf(prompt) {
  const text = /<extracted_text>\n([\s\S]*?)\n<\/extracted_text>/.exec(prompt)?.[1] ?? 'x';
  return text
    .replace(/\(\d+\)\s*$/, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[A-Za-z]{2,}/g, (w) => `\\mathrm{${w}}`)
    .replace(/./gu, (c) => (LATEX[c] ? `${LATEX[c]} ` : c))
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A passage's stand-in summary (the summary index's prompt, backend/prompt/summary.go):
 * its section title and its first sentence, at most 40 words, the rule of
 * `vika eval pages --summaries lead` (backend/cli/eval_summaries.go).
 */
export function leadSummary(prompt) {
  const section = /<section>\n([\s\S]*?)\n<\/section>/.exec(prompt)?.[1]?.trim() ?? '';
  let text = unescape(/<passage>\n([\s\S]*?)\n<\/passage>/.exec(prompt)?.[1] ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
  const end = /[.!?] (?=\p{Lu})/u.exec(text);
  if (end) text = text.slice(0, end.index + 1);
  const words = text.split(' ').slice(0, 40).join(' ');
  return section ? `${unescape(section)}: ${words}` : words;
}

/** The answer to a request body (GenerateContentRequest JSON). */
export function answerFor(body) {
  const users = (body.contents ?? []).filter((c) => c.role !== 'model');
  const prompt = (users.at(-1)?.parts ?? []).map((p) => (p.inlineData ? '' : (p.text ?? ''))).join('');
  const sources = sourcesOf(prompt);
  const images = imagesOf(body);
  if (images.length > 0 && prompt.includes('Answer with the LaTeX only.')) {
    formulas++;
    if (PROSE_EVERY > 0 && formulas % PROSE_EVERY === 0) {
      return 'I am sorry, but the image is too small for me to read this formula reliably.';
    }
    return latexOf(prompt);
  }
  if (images.length > 0 && prompt.includes('Describe the figure in the image.')) {
    return `A figure of ${images[0].width} by ${images[0].height} pixels, as the fake vision model sees it.`;
  }
  if (sources.length > 0 && images.length > 0) {
    // Describe the first image from its source's text, cited with its label.
    const n = Number(/^Image of source (\d+) /.exec(images[0].label)?.[1] ?? 0);
    const src = sources.find((s) => s.n === n) ?? sources[0];
    const seen = images.map((im) => `${im.width}x${im.height}`).join(', ');
    const first = sources[0];
    let text = `**In short:** ${quote(first.text, 24)} ${first.cite}.\n\n`;
    text += `**Looking at the image:** ${quote(src.text, 24)} ${src.cite}.\n\n`;
    text += formulaLine(sources);
    text += `- ${UNSUPPORTED_CLAIM} ${first.cite}.\n\n(The fake model looked at ${images.length} image(s): ${seen} pixels.)\n`;
    return text;
  }
  if (prompt.includes('Summarise the passage.')) return leadSummary(prompt);
  const study = studyAnswer(prompt, sources);
  if (study !== null) return study;
  if (sources.length === 0) {
    // Not an answer prompt (e.g. a follow-up rewrite): echo the question line.
    return prompt.split('\n').filter(Boolean).at(-1) ?? 'Not found in your documents.';
  }
  const [first, second] = sources;
  let text = `**In short:** ${quote(first.text, 24)} ${first.cite}.\n\n`;
  if (second) text += `- It also says: ${quote(second.text, 16)} ${second.cite}.\n`;
  text += formulaLine(sources);
  text += `- ${UNSUPPORTED_CLAIM} ${first.cite}.\n`;
  return text;
}

/**
 * The answer to a study request (backend/prompt/study.go's line format), or
 * null for any other prompt. Notes to merge are kept as they are; a guide
 * quotes its sources' opening words, each line citing its source, plus one
 * SUMMARY line no source supports (the window must mark it unverified);
 * flashcards ask what each source says and answer with its opening words.
 */
export function studyAnswer(prompt, sources) {
  // Suggested questions for a new document: one per section title, as a model would ask.
  if (prompt.includes('short questions the student would ask about it')) {
    const sections = /<sections>\n([\s\S]*?)<\/sections>/.exec(prompt)?.[1].split('\n').filter(Boolean) ?? [];
    return sections.slice(0, 3).map((title) => `What does the section “${unescape(title)}” explain?`).join('\n') + '\n';
  }
  const notes = /<notes>\n([\s\S]*?)\n<\/notes>/.exec(prompt);
  if (notes) return unescape(notes[1]);
  const guide = prompt.includes('Write a study guide of these sources');
  const cards = /Write \d+ flashcards on these sources/.test(prompt);
  if (!guide && !cards) return null;
  const usable = sources.filter((src) => quote(src.text, 14).split(' ').length >= 10).slice(0, 6);
  const lines = [];
  usable.forEach((src, i) => {
    const words = quote(src.text, 18);
    if (cards) {
      lines.push(`Q: What does the passage cited as ${src.cite.replace(/[[\]]/g, '')} say?`, `A: ${words} ${src.cite}`);
      return;
    }
    if (i < 3) lines.push(`SUMMARY: ${words}. ${src.cite}`);
    if (i < 2) lines.push(`TERM: ${words.split(' ').slice(0, 2).join(' ')} :: ${words}. ${src.cite}`);
    if (i >= 1 && i < 4) lines.push(`Q: What does page ${/p\.(\d+)\]$/.exec(src.cite)?.[1] ?? '?'} say first?`, `A: ${words}. ${src.cite}`);
  });
  if (guide && usable[0]) lines.push(`SUMMARY: ${UNSUPPORTED_CLAIM}. ${usable[0].cite}`);
  return lines.join('\n') + '\n';
}

/** Vaswani et al.'s equation (1), as a model that read it writes it. */
export const ATTENTION_LATEX = '\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V';

/**
 * A formula passage's LaTeX, written between dollars as models are asked to; '' without one. A source that
 * states scaled dot-product attention gets its whole equation (1) on display, as a model that knows it writes it.
 */
function formulaLine(sources) {
  let text = '';
  const attention = sources.find((src) => /Attention\(Q,\s*K,\s*V\s*\)|scaled dot-product attention/i.test(src.text));
  if (attention) text += `- Scaled dot-product attention ${attention.cite}:\n\n$$${ATTENTION_LATEX}$$\n\n`;
  const formula = sources.find((src) => /^LaTeX: /m.test(src.text));
  if (formula) text += `- The formula: $${/^LaTeX: (.+)$/m.exec(formula.text)?.[1] ?? ''}$ ${formula.cite}.\n`;
  return text;
}

/** Splits text into pieces of about n characters, at spaces. */
function pieces(text, n = 24) {
  const out = [];
  let rest = text;
  while (rest.length > n) {
    const cut = rest.indexOf(' ', n);
    if (cut < 0) break;
    out.push(rest.slice(0, cut + 1));
    rest = rest.slice(cut + 1);
  }
  if (rest) out.push(rest);
  return out;
}

function chunk(text, model, last, promptTokens, outTokens) {
  const candidate = { content: { parts: [{ text }], role: 'model' }, index: 0 };
  if (last) candidate.finishReason = 'STOP';
  const usage = { promptTokenCount: promptTokens, totalTokenCount: promptTokens + (last ? outTokens : 0) };
  if (last) usage.candidatesTokenCount = outTokens;
  return { candidates: [candidate], usageMetadata: usage, modelVersion: model, responseId: 'fake-e2e' };
}

/** The text of a generateContent request's contents. */
function promptOf(body) {
  return (body.contents ?? [])
    .flatMap((c) => c.parts ?? [])
    .map((p) => p.text ?? '')
    .join('');
}

export function createServer({ rateLimit = RATE_LIMIT } = {}) {
  const requests = [];
  let limited = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', async () => {
      if (req.method === 'GET' && req.url === '/__requests') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(requests));
        return;
      }
      const m = /^\/v1beta\/models\/([^/:]+):streamGenerateContent\?alt=sse$/.exec(req.url ?? '');
      const entry = { method: req.method, url: req.url, key: req.headers['x-goog-api-key'] ?? null, body: raw, images: [] };
      requests.push(entry);
      if (req.method !== 'POST' || !m) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 404, message: `no route ${req.url}`, status: 'NOT_FOUND' } }));
        return;
      }
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 400, message: 'invalid JSON', status: 'INVALID_ARGUMENT' } }));
        return;
      }
      try {
        entry.images = imagesOf(body);
      } catch (err) {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 400, message: String(err.message), status: 'INVALID_ARGUMENT' } }));
        return;
      }
      const model = decodeURIComponent(m[1]);
      if (limited < rateLimit && promptOf(body).includes('<source ')) {
        limited++;
        res.writeHead(429, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { code: 429, message: `Resource has been exhausted (fake, ${model})`, status: 'RESOURCE_EXHAUSTED' },
          }),
        );
        return;
      }
      const parts = pieces(answerFor(body));
      const promptTokens = Math.ceil(raw.length / 4);
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      for (let i = 0; i < parts.length; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, DELAY_MS));
        const last = i === parts.length - 1;
        res.write(`data: ${JSON.stringify(chunk(parts[i], model, last, promptTokens, parts.length * 6))}\r\n\r\n`);
      }
      res.end();
    });
  });
  return { server, requests };
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const port = Number(process.argv[2] ?? 0);
  const { server } = createServer();
  server.listen(port, '127.0.0.1', () => {
    console.log(`fake-gemini listening on ${server.address().port}`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
