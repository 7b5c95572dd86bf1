import { beforeEach, describe, expect, it, vi } from 'vitest';
import { emitProgress, progress, resetFakeApi, sampleDocument } from '../../test/api/fake.ts';
import type { OutlineEntry } from '../api/types.ts';
import { Library } from './library.svelte.ts';
import { locale } from './locale.svelte.ts';
import { sectionName, suggestQuestions } from './suggest.ts';

vi.mock('../api/index.ts', () => import('../../test/api/fake.ts'));

// An outline numbered as papers number their sections, with a References entry.
const vaswani: OutlineEntry[] = [
  { title: '1 Introduction', page: 2, depth: 0 },
  { title: '2 Background', page: 2, depth: 0 },
  { title: '3 Model Architecture', page: 2, depth: 0 },
  { title: '3.1 Encoder and Decoder Stacks', page: 3, depth: 1 },
  { title: '3.2 Attention', page: 3, depth: 1 },
  { title: '4 Why Self-Attention', page: 6, depth: 0 },
  { title: '5 Training', page: 7, depth: 0 },
  { title: 'References', page: 10, depth: 0 },
];

beforeEach(() => {
  resetFakeApi();
  locale.set('en');
});

describe('sectionName', () => {
  it('drops the numbering and keeps the title', () => {
    expect(sectionName('3.2 Attention')).toBe('Attention');
    expect(sectionName('IV. Résultats')).toBe('Résultats');
    expect(sectionName('Chapter 2: Lazy Evaluation')).toBe('Lazy Evaluation');
    expect(sectionName('  Model   Architecture ')).toBe('Model Architecture');
  });

  it('leaves out sections a student does not ask about, in English and French', () => {
    for (const title of ['References', '7 Bibliography', 'Acknowledgements', 'Contents', 'Table des matières', 'Remerciements', 'Appendix A', 'Annexes', '', '12']) {
      expect(sectionName(title), title).toBe('');
    }
  });
});

describe('suggestQuestions', () => {
  it('asks about the top-level sections, alternating two phrasings', () => {
    expect(suggestQuestions(vaswani)).toEqual([
      'What does the section “Introduction” explain?',
      'Summarise the section “Background”.',
      'What does the section “Model Architecture” explain?',
      'Summarise the section “Why Self-Attention”.',
    ]);
  });

  it('speaks the window’s language', () => {
    locale.set('fr');
    expect(suggestQuestions(vaswani, 2)).toEqual([
      'Qu’explique la section « Introduction » ?',
      'Résume la section « Background ».',
    ]);
  });

  it('fills in from the next level and never repeats a section', () => {
    const outline: OutlineEntry[] = [
      { title: 'Contents', page: 1, depth: 0 },
      { title: '1 Queues', page: 3, depth: 0 },
      { title: '1.1 Amortisation', page: 4, depth: 1 },
      { title: '1.2 queues', page: 5, depth: 1 },
      { title: 'Unplaced bookmark', page: 0, depth: 0 },
    ];
    expect(suggestQuestions(outline)).toEqual([
      'What does the section “Queues” explain?',
      'Summarise the section “Amortisation”.',
    ]);
  });

  it('suggests nothing without an outline', () => {
    expect(suggestQuestions(undefined)).toEqual([]);
    expect(suggestQuestions([])).toEqual([]);
  });
});

describe('Library.added', () => {
  it('is the document an ingest just added, not one a describing job updated', () => {
    const library = new Library();
    library.start();
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc: sampleDocument({ doc_id: 'a' }) }));
    expect(library.added).toBe('a');
    emitProgress(progress({ job_id: 'j2', stage: 'done', doc: sampleDocument({ doc_id: 'b', file: 'b.pdf' }) }));
    expect(library.added).toBe('b');
    emitProgress(progress({ job_id: 'j3', stage: 'done', doc: sampleDocument({ doc_id: 'a', chunks: 200 }) }));
    expect(library.added).toBe('b');
    library.dismissAdded();
    expect(library.added).toBe('');
  });

  it('is cleared when that document is removed', async () => {
    const library = new Library();
    library.start();
    emitProgress(progress({ job_id: 'j1', stage: 'done', doc: sampleDocument({ doc_id: 'a' }) }));
    await library.remove('a');
    expect(library.added).toBe('');
  });
});
