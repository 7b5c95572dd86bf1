import { describe, expect, it } from 'vitest';
import { baseName } from './path.ts';

describe('path', () => {
  it('takes the base name of POSIX and Windows paths', () => {
    expect(baseName('/home/ana/cours/lecture_sat.pdf')).toBe('lecture_sat.pdf');
    expect(baseName('C:\\Users\\ana\\paper.pdf')).toBe('paper.pdf');
    expect(baseName('plain.pdf')).toBe('plain.pdf');
  });
});
