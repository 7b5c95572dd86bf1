import { describe, expect, it } from 'vitest';
import { formatBytes, formatScore } from './format.ts';

/** Intl uses (narrow) no-break spaces where typography wants them. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('format', () => {
  it('formats sizes per language', () => {
    expect(formatBytes(512, 'en')).toBe('512 byte');
    expect(formatBytes(2_400_000, 'en')).toBe('2.4 MB');
    expect(plain(formatBytes(2_400_000, 'fr'))).toBe('2,4 Mo');
    expect(formatBytes(3_000_000_000_000, 'en')).toBe('3,000 GB');
  });

  it('shows three significant digits of a score', () => {
    expect(formatScore(0.81234, 'en')).toBe('0.812');
    expect(formatScore(0.016393, 'en')).toBe('0.0164');
    expect(formatScore(12.3456, 'fr')).toBe('12,3');
  });
});
