import { describe, expect, it } from 'vitest';
import { sampleCitation, sampleSource } from '../test/api/fake.ts';
import { chipText, citesSlide, locateCitations, parseLabel, scanLabels, utf16Offset } from './citations.ts';

describe('labels', () => {
  it('parses a label and refuses other bracketed text', () => {
    expect(parseLabel('[lecture_sat.pdf p.42]')).toEqual({ file: 'lecture_sat.pdf', page: 42 });
    expect(parseLabel('[this_is_a_very_long_scientific_docum....pdf p.7]')).toEqual({
      file: 'this_is_a_very_long_scientific_docum....pdf',
      page: 7,
    });
    expect(parseLabel('[cours3.pptx slide 12]')).toEqual({ file: 'cours3.pptx', page: 12 });
    const chip = scanLabels('See [cours3.pptx slide 12] and [a.pdf p.2].', []);
    expect(chip.map((l) => citesSlide(l.chip))).toEqual([true, false]);
    expect(parseLabel('[fiche 4.docx p.2]')).toEqual({ file: 'fiche 4.docx', page: 2 });
    expect(parseLabel('[note]')).toBeNull();
    expect(parseLabel('[a.pdf p.x]')).toBeNull();
  });

  it('finds labels while streaming and resolves them against the sources', () => {
    const sources = [sampleSource(), sampleSource({ index: 2, page: 3, label: '[cours.pdf p.3]', file: 'cours.pdf', doc_id: 'd2', text: 'Un cours.' })];
    const found = scanLabels('A [lecture_sat.pdf p.42][cours.pdf p.3] and [ghost.pdf p.1] and [lecture_sat.pdf p.4', sources);
    expect(found.map((l) => [l.start, l.end, l.chip.doc_id, l.chip.state, l.chip.passage])).toEqual([
      [2, 24, 'a3f1c9', 'pending', sampleSource().text],
      [24, 39, 'd2', 'pending', 'Un cours.'],
      [44, 59, '', 'pending', ''],
    ]);
    expect(chipText(found[0]!.chip)).toBe('lecture_sat.pdf p.42');
  });
});

describe('locateCitations (done)', () => {
  it('uses the backend offsets when they point at the label', () => {
    const text = 'SAT [lecture_sat.pdf p.42].';
    const [l] = locateCitations(text, [sampleCitation({ start: 4, end: 26 })], [sampleSource()], 'unchecked');
    expect(l).toMatchObject({ start: 4, end: 26, chip: { state: 'verified', doc_id: 'a3f1c9', page: 42 } });
  });

  it('carries the box of a cited table or figure, and none for a body passage', () => {
    const text = 'SAT [lecture_sat.pdf p.42].';
    const figure = sampleSource({ kind: 'figure', bbox: [72, 100, 520, 400] });
    const [l] = locateCitations(text, [sampleCitation({ start: 4, end: 26 })], [figure], 'unchecked');
    expect(l?.chip.box).toEqual([72, 100, 520, 400]);
    const [streaming] = scanLabels(text, [figure]);
    expect(streaming?.chip.box).toEqual([72, 100, 520, 400]);
    const [body] = locateCitations(text, [sampleCitation({ start: 4, end: 26 })], [sampleSource()], 'unchecked');
    expect(body?.chip.box).toBeUndefined();
  });

  it('carries the box and kind of a passage on a scanned page', () => {
    const text = 'SAT [lecture_sat.pdf p.42].';
    const scanned = sampleSource({ kind: 'body', page_type: 'scanned', bbox: [60, 80, 540, 300] });
    const [l] = locateCitations(text, [sampleCitation({ start: 4, end: 26 })], [scanned], 'unchecked');
    expect(l?.chip).toMatchObject({ box: [60, 80, 540, 300], kind: 'body' });
    const [streaming] = scanLabels(text, [scanned]);
    expect(streaming?.chip).toMatchObject({ box: [60, 80, 540, 300], kind: 'body' });
  });

  it('reads Go byte offsets when the text has multi-byte characters before the label', () => {
    const text = 'Théorème — [lecture_sat.pdf p.42]';
    const bytes = new TextEncoder().encode(text.slice(0, text.indexOf('['))).length;
    expect(utf16Offset(text, bytes)).toBe(text.indexOf('['));
    const [l] = locateCitations(text, [sampleCitation({ start: bytes, end: bytes + 22 })], [sampleSource()], 'u');
    expect(l?.start).toBe(text.indexOf('['));
  });

  it('falls back to searching the label, in order, when offsets are wrong', () => {
    const text = 'One [lecture_sat.pdf p.42]. Two [lecture_sat.pdf p.42].';
    const located = locateCitations(
      text,
      [sampleCitation({ start: 999, end: 1021 }), sampleCitation({ start: 999, end: 1021, verified: false, reason: 'r' })],
      [sampleSource()],
      'u',
    );
    expect(located.map((l) => [l.start, l.chip.state])).toEqual([
      [4, 'verified'],
      [32, 'unverified'],
    ]);
  });

  it('marks labels the backend did not check as unverified, with the given reason', () => {
    const text = 'A [lecture_sat.pdf p.42] B [lecture_sat.pdf p.9]';
    const located = locateCitations(text, [sampleCitation({ start: 2, end: 24 })], [sampleSource()], 'not checked');
    expect(located.map((l) => [l.chip.raw, l.chip.state, l.chip.reason])).toEqual([
      ['[lecture_sat.pdf p.42]', 'verified', ''],
      ['[lecture_sat.pdf p.9]', 'unverified', 'not checked'],
    ]);
  });
});
