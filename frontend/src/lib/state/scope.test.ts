import { describe, expect, it } from 'vitest';
import { sampleDocument } from '../../test/api/fake.ts';
import { Scope, sectionsOf } from './scope.svelte.ts';

const a = { ...sampleDocument(), doc_id: 'aaa', label: 'devlin2019_bert.pdf' };
const b = { ...sampleDocument(), doc_id: 'bbb', label: 'he2015_resnet.pdf' };

describe('Scope', () => {
  it('searches every document by default, new ones included', () => {
    const s = new Scope();
    expect(s.wire([a, b])).toEqual({});
    expect(s.chips([a, b])).toEqual([]);
    s.toggle('bbb', false);
    const c = { ...sampleDocument(), doc_id: 'ccc', label: 'new.pdf' };
    expect(s.wire([a, b, c])).toEqual({ docs: ['aaa', 'ccc'] });
  });

  it('sends the ticked documents and the pages, shown as chips', () => {
    const s = new Scope();
    s.toggle('bbb', false);
    s.from = '10';
    s.to = '20';
    expect(s.wire([a, b])).toEqual({ docs: ['aaa'], from: 10, to: 20 });
    expect(s.chips([a, b])).toEqual([
      { kind: 'doc', label: 'devlin2019_bert.pdf' },
      { kind: 'pages', label: '', from: 10, to: 20 },
    ]);
    s.toggle('bbb', true);
    s.reset();
    expect(s.wire([a, b])).toEqual({});
  });

  it('sends an outline section of a ticked document, shown as a chip, and drops it when that document is unticked', () => {
    const outlined = {
      ...a,
      pages: 12,
      outline: [
        { title: '1 Introduction', page: 1, depth: 0 },
        { title: '3 Model', page: 3, depth: 0 },
        { title: 'nowhere', page: 0, depth: 0 },
        { title: 'beyond', page: 40, depth: 0 },
      ],
    };
    expect(sectionsOf(outlined).map((e) => e.title)).toEqual(['1 Introduction', '3 Model']);
    const s = new Scope();
    expect(s.limited).toBe(false);
    s.section = '3 Model';
    expect(s.limited).toBe(true);
    expect(s.wire([outlined, b])).toEqual({ section: '3 Model' });
    expect(s.chips([outlined, b])).toEqual([{ kind: 'section', label: '3 Model' }]);
    s.toggle('aaa', false);
    expect(s.wire([outlined, b])).toEqual({ docs: ['bbb'] });
    s.reset();
    expect(s.section).toBe('');
  });

  it('ignores a page range that is not one, and says so', () => {
    const s = new Scope();
    for (const [from, to] of [['20', '10'], ['x', ''], ['0', '3'], ['-2', '']]) {
      s.from = from ?? '';
      s.to = to ?? '';
      expect(s.pagesInvalid, `${from}-${to}`).toBe(true);
      expect(s.wire([a])).toEqual({});
    }
    s.from = '';
    s.to = '7';
    expect(s.pagesInvalid).toBe(false);
    expect(s.wire([a])).toEqual({ to: 7 });
  });

  it('knows when nothing is ticked', () => {
    const s = new Scope();
    s.toggle('aaa', false);
    s.toggle('bbb', false);
    expect(s.noneOf([a, b])).toBe(true);
    expect(s.noneOf([])).toBe(false);
  });
});
