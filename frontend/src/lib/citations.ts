// Finds the citations in an answer's text and says what each chip shows.
//
// While an answer streams, citations are recognised by their label pattern,
// "[file.pdf p.42]", and resolved against the sources that came before the
// first token. Once the answer is done, the backend's checked citations
// (with their offsets in the text) are authoritative: they say which are
// verified and why the others are not.

import type { Box, Citation, Source } from './api/types.ts';

/** verified / unverified once the answer is checked; pending while it streams. */
export type ChipState = 'verified' | 'unverified' | 'pending';

export interface Chip {
  /** The label as it appears in the text, e.g. "[lecture_sat.pdf p.42]". */
  raw: string;
  file: string;
  page: number;
  /** "" when the cited document is not in the session: nothing to open. */
  doc_id: string;
  state: ChipState;
  /** Why the citation is not verified (backend text); "" otherwise. */
  reason: string;
  /** The passage to highlight on the page (the cited source's text), "" when unknown. */
  passage: string;
  /** The box to highlight instead when the cited source is a table, figure or formula, or a passage on a scanned page. */
  box?: Box;
  /** The cited source's chunk kind, when it has a box. */
  kind?: string;
}

/** A chip and where it sits in the text (UTF-16 offsets, end exclusive). */
export interface Located {
  start: number;
  end: number;
  chip: Chip;
}

/**
 * A citation label: "[name.pdf p.42]", or "[deck.pptx slide 12]" for a
 * slide deck (any file Vika reads: its name ends with an extension). The
 * name may hold spaces, dots and brackets-free punctuation; "p." may be
 * followed by a space.
 */
const LABEL = /\[([^[\]\n]{1,200}?\.[a-z0-9]{2,5})\s+(?:p\.\s?|slide\s)(\d{1,5})\]/giu;

/** Parses one label; null when it is not one. */
export function parseLabel(raw: string): { file: string; page: number } | null {
  LABEL.lastIndex = 0;
  const m = LABEL.exec(raw);
  if (!m || m.index !== 0 || m[0].length !== raw.length) return null;
  return { file: m[1] ?? '', page: Number(m[2]) };
}

function sourceFor(sources: readonly Source[], raw: string, file: string, page: number): Source | undefined {
  return (
    sources.find((s) => s.label === raw) ??
    sources.find((s) => s.page === page && (s.file === file || s.label.startsWith(`[${file} `)))
  );
}

function pendingChip(raw: string, sources: readonly Source[]): Chip | null {
  const parsed = parseLabel(raw);
  if (!parsed) return null;
  const source = sourceFor(sources, raw, parsed.file, parsed.page);
  return {
    raw,
    file: source?.file ?? parsed.file,
    page: parsed.page,
    doc_id: source?.doc_id ?? '',
    state: 'pending',
    reason: '',
    passage: source?.text ?? '',
    ...(source?.bbox ? { box: source.bbox, kind: source.kind } : {}),
  };
}

/** The chips of a streaming answer, found by their label pattern. */
export function scanLabels(text: string, sources: readonly Source[]): Located[] {
  const out: Located[] = [];
  // A fresh regex: matchAll starts at LABEL.lastIndex, which parseLabel moves.
  for (const m of text.matchAll(new RegExp(LABEL.source, LABEL.flags))) {
    const chip = pendingChip(m[0], sources);
    if (chip) out.push({ start: m.index, end: m.index + m[0].length, chip });
  }
  return out;
}

/** UTF-16 offset of a UTF-8 byte offset in text (Go strings count bytes). */
export function utf16Offset(text: string, byteOffset: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length && bytes < byteOffset) {
    const cp = text.codePointAt(i) ?? 0;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    i += cp >= 0x10000 ? 2 : 1;
  }
  return i;
}

/** Where citation c sits in text: its offsets as characters, as bytes, or by search. */
function place(text: string, c: Citation, from: number, taken: readonly Located[]): [number, number] | null {
  const raw = c.raw || c.label;
  const fits = (start: number) =>
    start >= 0 &&
    text.startsWith(raw, start) &&
    !taken.some((l) => start < l.end && start + raw.length > l.start);
  if (fits(c.start)) return [c.start, c.start + raw.length];
  const fromBytes = utf16Offset(text, c.start);
  if (fits(fromBytes)) return [fromBytes, fromBytes + raw.length];
  for (let at = text.indexOf(raw, from); at >= 0; at = text.indexOf(raw, at + 1)) {
    if (fits(at)) return [at, at + raw.length];
  }
  for (let at = text.indexOf(raw); at >= 0 && at < from; at = text.indexOf(raw, at + 1)) {
    if (fits(at)) return [at, at + raw.length];
  }
  return null;
}

/**
 * The chips of a finished answer: the backend's citations where they are,
 * then any label the backend did not check (shown as unverified).
 */
export function locateCitations(
  text: string,
  citations: readonly Citation[],
  sources: readonly Source[],
  uncheckedReason: string,
): Located[] {
  const out: Located[] = [];
  let from = 0;
  for (const c of citations) {
    const at = place(text, c, from, out);
    if (!at) continue;
    from = at[1];
    const source = sources.find((s) => s.index === c.source_index) ?? sourceFor(sources, c.label, c.file, c.page);
    out.push({
      start: at[0],
      end: at[1],
      chip: {
        raw: text.slice(at[0], at[1]),
        file: c.file || source?.file || '',
        page: c.page,
        doc_id: c.doc_id || source?.doc_id || '',
        state: c.verified ? 'verified' : 'unverified',
        reason: c.verified ? '' : c.reason || uncheckedReason,
        passage: source?.text ?? '',
        ...(source?.bbox ? { box: source.bbox, kind: source.kind } : {}),
      },
    });
  }
  for (const l of scanLabels(text, sources)) {
    if (out.some((o) => l.start < o.end && l.end > o.start)) continue;
    out.push({ ...l, chip: { ...l.chip, state: 'unverified', reason: uncheckedReason } });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Whether the chip cites a slide of a deck ("[cours3.pptx slide 12]") rather than a page. */
export function citesSlide(chip: Chip): boolean {
  return /\sslide\s\d{1,5}\]$/iu.test(chip.raw);
}

/** The label without its brackets, as a chip shows it: "lecture_sat.pdf p.42". */
export function chipText(chip: Chip): string {
  return chip.raw.replace(/^\[|\]$/g, '');
}
