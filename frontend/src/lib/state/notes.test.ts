import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as fake from '../../test/api/fake.ts';
import { locale } from './locale.svelte.ts';
import { cssColor, Notes, PALETTE } from './notes.svelte.ts';

vi.mock('../api/index.ts', () => import('../../test/api/fake.ts'));

const sel = { doc_id: 'a3f1c9', page: 4, text: 'Cook proved SAT NP-complete.', file: 'sat.pdf' };

beforeEach(() => {
  vi.clearAllMocks();
  fake.resetFakeApi();
  locale.set('en');
});

describe('Notes', () => {
  it('keeps a highlight and a page note, lists them by page, edits and deletes', async () => {
    const notes = new Notes();
    const hl = await notes.highlight(sel, [[72, 100, 300, 112]], 'green', 'exam');
    expect(fake.addNote).toHaveBeenCalledWith(expect.objectContaining({ kind: 'highlight', color: 'green', quote: sel.text, boxes: [[72, 100, 300, 112]], text: 'exam' }));
    await notes.pageNote('a3f1c9', 4, 'revise this page');
    expect(notes.of('a3f1c9')).toHaveLength(2);
    expect(notes.onPage('a3f1c9', 4).map((n) => n.kind)).toEqual(['page', 'highlight']);
    expect(notes.onPage('a3f1c9', 5)).toEqual([]);
    await notes.edit(hl!.id, 'exam: the year', 'pink');
    expect(notes.all.find((n) => n.id === hl!.id)).toMatchObject({ text: 'exam: the year', color: 'pink' });
    await notes.remove(hl!.id);
    expect(notes.all.map((n) => n.kind)).toEqual(['page']);
  });

  it('says why Go refused a note, in the window’s language', async () => {
    locale.set('fr');
    const notes = new Notes();
    expect(await notes.pageNote('a3f1c9', 1, '   ')).toBeNull();
    expect(notes.error).toBe('Cette note ne peut pas être gardée : son champ text n’est pas valide.');
  });

  it('takes its colours from Go’s palette', () => {
    expect(PALETTE).toEqual(['yellow', 'green', 'blue', 'pink', 'orange']);
    expect(cssColor('yellow')).toBe('rgb(255, 227, 64)');
  });
});
