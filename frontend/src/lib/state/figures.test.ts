import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as fake from '../../test/api/fake.ts';
import { Figures } from './figures.svelte.ts';

vi.mock('../api/index.ts', () => import('../../test/api/fake.ts'));

const region = {
  kind: 'figure',
  page: 3,
  bbox: [72, 90, 520, 400] as [number, number, number, number],
  caption: 'Figure 2: Residual learning.',
  text: 'weight layer',
  description: '',
  image: '/crops/d1/3/0',
};

beforeEach(() => {
  fake.sourceRegion.mockReset();
});

describe('Figures', () => {
  it('fetches a figure passage’s crop once and keeps it', async () => {
    fake.sourceRegion.mockResolvedValue(region);
    const figures = new Figures();
    expect(figures.url('c1')).toBe('');
    await figures.load('c1');
    await figures.load('c1');
    expect(fake.sourceRegion).toHaveBeenCalledTimes(1);
    expect(fake.sourceRegion).toHaveBeenCalledWith('c1');
    expect(figures.url('c1')).toBe(region.image);
  });

  it('shows nothing for a passage without a crop or when the call fails', async () => {
    fake.sourceRegion.mockResolvedValueOnce(null).mockRejectedValueOnce(new Error('gone'));
    const figures = new Figures();
    await figures.load('body');
    await figures.load('broken');
    expect(figures.url('body')).toBe('');
    expect(figures.url('broken')).toBe('');
  });
});
