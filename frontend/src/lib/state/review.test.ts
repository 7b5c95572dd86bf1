import { describe, expect, it } from 'vitest';
import { formatInterval } from './review.svelte.ts';

describe('formatInterval', () => {
  it('shows the grade buttons’ intervals in the window’s language', () => {
    expect([60, 360, 600, 691200].map((s) => formatInterval(s, 'en'))).toEqual(['1 min', '6 min', '10 min', '8 days']);
    expect([60, 18000, 691200, 40000000].map((s) => formatInterval(s, 'fr').replace(/\s/g, ' '))).toEqual(['1 min', '5 h', '8 j', '1,3 an']);
  });
});
