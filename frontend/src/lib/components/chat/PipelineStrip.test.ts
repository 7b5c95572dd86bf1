import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { sampleAnswer, sampleRecord, sampleSource } from '../../../test/api/fake.ts';
import { locale } from '../../state/locale.svelte.ts';
import PipelineStrip from './PipelineStrip.svelte';
import { Figures } from '../../state/figures.svelte.ts';
import SourcesPanel from './SourcesPanel.svelte';

const sources = [
  sampleSource({ chunk_id: 'c1', kind: 'body', found_by: 'both', dense_score: 0.82, band: 'high' }),
  sampleSource({ chunk_id: 'c2', index: 2, kind: 'table', found_by: 'bm25', dense_score: 0.5, band: 'fair' }),
  sampleSource({ chunk_id: 'c3', index: 3, kind: 'figure', found_by: 'image', dense_score: 0.1, band: 'low' }),
];
const answer = sampleAnswer({
  sources,
  metrics: sampleRecord({ hyde_applied: false, multi_query_applied: true, rerank_applied: true, history_applied: false }),
});

beforeEach(() => locale.set('en'));

/** The strip's chips, as read. */
function chips(strip: HTMLElement): string[] {
  return [...strip.querySelectorAll('dd')].map((d) => (d.textContent ?? '').replace(/\s+/g, ' ').trim());
}

describe('PipelineStrip', () => {
  it('shows the sources by kind, the retrievers and the steps, in English and French', async () => {
    const { unmount } = render(PipelineStrip, { sources, answer });
    const strip = screen.getByLabelText('How this answer was made');
    expect(chips(strip).slice(0, 6)).toEqual(['1 text', '1 table', '1 figure', 'keywords (BM25) 2', 'meaning (dense) 1', 'image 1']);
    expect(within(strip).getByText(/multi-query/).closest('dd')?.classList.contains('on')).toBe(true);
    expect(within(strip).getByText(/HyDE/).closest('dd')?.classList.contains('on')).toBe(false);
    unmount();
    locale.set('fr');
    render(PipelineStrip, { sources, answer });
    const fr = screen.getByLabelText('Comment cette réponse a été faite');
    expect(chips(fr).slice(0, 4)).toEqual(['1 texte', '1 tableau', '1 figure', 'mots-clés (BM25) 2']);
    expect(fr.textContent).toContain('reclassement');
    expect(fr.textContent).not.toMatch(/keywords|meaning|applied\b/);
  });

  it('colours each source’s cosine by the band Go sent', async () => {
    render(SourcesPanel, { sources, figures: new Figures(), onOpen: () => {} });
    await userEvent.setup().click(screen.getByRole('button', { name: /3 sources/ }));
    const badges = [...document.querySelectorAll('.badge')];
    expect(badges.map((b) => b.className.match(/band-\w+/)?.[0])).toEqual(['band-high', 'band-fair', 'band-low']);
    expect(badges[0].getAttribute('title')).toBe('Close match for this embedding model');
    expect(badges[0].textContent?.trim()).toBe('cosine 0.82');
  });
});
