// A minimal, valid PDF writer for the end-to-end test: one Helvetica font,
// one content stream per page with lines of text, and a cross-reference table
// with exact byte offsets. Enough for MuPDF to extract every line's text.
// `node pdf.mjs OUT.pdf` writes the test document GENERATED (scripts/window/screenshots.sh).

import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const PAGE_WIDTH = 612; // US Letter, in points
const PAGE_HEIGHT = 792;

/** Escapes text for a PDF literal string (ASCII only). */
function literal(text) {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?')})`;
}

/** The content stream that draws lines from the top of the page. */
function contentStream(lines) {
  const ops = ['BT', '/F1 12 Tf', '16 TL', `72 ${PAGE_HEIGHT - 72} Td`];
  for (const line of lines) ops.push(`${literal(line)} Tj`, 'T*');
  ops.push('ET');
  return ops.join('\n');
}

/**
 * Returns the bytes of a PDF with one page per entry of pages, each page an
 * array of text lines.
 * @param {string[][]} pages
 * @param {{title?: string}} [options]
 * @returns {Buffer}
 */
export function makePDF(pages, { title = 'Vika end-to-end test' } = {}) {
  if (pages.length === 0) throw new Error('makePDF: at least one page');
  // Object numbers: 1 catalog, 2 page tree, 3 font, 4 info, then per page
  // its page object and its content stream.
  const pageRef = (i) => 5 + 2 * i;
  const contentRef = (i) => 6 + 2 * i;
  const objects = new Map();
  objects.set(1, '<< /Type /Catalog /Pages 2 0 R >>');
  objects.set(
    2,
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${pageRef(i)} 0 R`).join(' ')}] /Count ${pages.length} >>`,
  );
  objects.set(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  objects.set(4, `<< /Title ${literal(title)} /Producer (vika e2e) >>`);
  pages.forEach((lines, i) => {
    objects.set(
      pageRef(i),
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
        `/Resources << /Font << /F1 3 0 R >> >> /Contents ${contentRef(i)} 0 R >>`,
    );
    const stream = contentStream(lines);
    objects.set(
      contentRef(i),
      `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    );
  });

  const count = 4 + 2 * pages.length;
  // The binary comment line marks the file as binary for transfer tools.
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets = [];
  for (let n = 1; n <= count; n++) {
    offsets[n] = Buffer.byteLength(out, 'latin1');
    out += `${n} 0 obj\n${objects.get(n)}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${count + 1}\n0000000000 65535 f \n`;
  for (let n = 1; n <= count; n++) out += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${count + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The text of the generated test document: a word that only page 2 holds. */
export const GENERATED = {
  name: 'vika_e2e_generated.pdf',
  pages: [
    [
      'Chapter 1. Sorting algorithms',
      'Merge sort splits the list in two halves, sorts each half and merges them.',
      'Quicksort partitions the list around a pivot and sorts both parts.',
      'Both run in n log n time on average.',
    ],
    [
      'Chapter 2. Hash tables',
      'A hash table stores keys in buckets chosen by a hash function.',
      'Collisions are resolved by chaining or by open addressing, for example',
      'with the xylophonic probing sequence described by the authors.',
    ],
    [
      'Chapter 3. Graphs',
      'Breadth-first search visits the vertices of a graph level by level.',
      'Dijkstra computes shortest paths when no edge has a negative weight.',
    ],
  ],
  question: 'xylophonic probing sequence',
  page: 2,
};

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  if (!process.argv[2]) {
    console.error('usage: node pdf.mjs OUT.pdf');
    process.exit(2);
  }
  writeFileSync(process.argv[2], makePDF(GENERATED.pages));
}
