import { fireEvent, render, screen } from '@testing-library/svelte';
import { tick } from 'svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as fake from '../../../test/api/fake.ts';
import { locale } from '../../state/locale.svelte.ts';
import { Review } from '../../state/review.svelte.ts';
import { Study } from '../../state/study.svelte.ts';
import StudyPanel from './StudyPanel.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));
// markmap needs a layout engine (ResizeObserver, SVG geometry) jsdom lacks:
// the drawing is checked in the real window (screenshots-mindmap.sh).
const drawn = vi.hoisted(() => ({ trees: [] as unknown[] }));
vi.mock('../../mindmap/draw.ts', () => ({
  draw: (_el: HTMLElement, tree: unknown) => {
    drawn.trees.push(tree);
    return { fit: () => {}, update: (t: unknown) => drawn.trees.push(t), destroy: () => {} };
  },
}));

const flush = async () => {
  for (let i = 0; i < 6; i++) await tick();
};

beforeEach(() => {
  vi.clearAllMocks();
  fake.resetFakeApi();
  drawn.trees = [];
  locale.set('en');
});

async function showMap(lang: 'en' | 'fr' = 'en') {
  locale.set(lang);
  const study = new Study();
  const onOpen = vi.fn();
  render(StudyPanel, { study, review: new Review(study), documents: [fake.sampleDocument()], onOpen, onSettings: vi.fn() });
  await flush();
  await fireEvent.click(screen.getByRole('tab', { name: lang === 'en' ? 'Mind map' : 'Carte mentale' }));
  await flush();
  return { study, onOpen };
}

describe('the mind map tab', () => {
  it('asks Go for the map of the document studied, draws it, and opens a node’s page from the list', async () => {
    const { onOpen } = await showMap();
    expect(fake.mindMap).toHaveBeenCalledWith({ doc_id: 'a3f1c9' });
    await vi.waitFor(() => expect(drawn.trees).toHaveLength(1)); // markmap loads with the tab
    expect(JSON.stringify(drawn.trees[0])).toContain('2 &lt;b&gt;DPLL&lt;/b&gt; &amp; backtracking');
    expect(screen.getByText('2 sections, 1 key term')).toBeTruthy();
    // A label carrying markup is text, in the list as in the drawing.
    const dpll = screen.getByRole('button', { name: '2 <b>DPLL</b> & backtracking' });
    await fireEvent.click(dpll);
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ doc_id: 'a3f1c9', file: 'lecture_sat.pdf', page: 5 }));
    await fireEvent.click(screen.getByRole('button', { name: 'unit clause' }));
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ page: 3 }));
  });

  it('exports as SVG and HTML in the window’s language, and says a failure in French', async () => {
    await showMap('fr');
    await fireEvent.click(screen.getByRole('button', { name: 'SVG' }));
    await flush();
    expect(fake.exportMindMap).toHaveBeenCalledWith({ doc_id: 'a3f1c9' }, 'svg', 'fr');
    fake.exportMindMap.mockRejectedValueOnce(new fake.BridgeError({ code: 'error.other', message: 'disque plein', params: { detail: 'disque plein' } }));
    await fireEvent.click(screen.getByRole('button', { name: 'HTML' }));
    await flush();
    expect(fake.exportMindMap).toHaveBeenLastCalledWith({ doc_id: 'a3f1c9' }, 'html', 'fr');
    expect(screen.getByRole('alert').textContent).toContain('Une erreur est survenue');
    expect(screen.getByRole('alert').textContent).toContain('disque plein');
  });
});
