import { describe, expect, it } from 'vitest';
import { handleError, isCancellation } from './errors.ts';

describe('handleError', () => {
  it.each([
    ['context canceled'],
    ['ingest lecture.pdf: context canceled'],
    [new Error('search: context canceled')],
    ['cancelled'],
    ['Canceled.'],
    [Object.assign(new Error('The operation was aborted'), { name: 'AbortError' })],
  ])('is silent for a cancellation: %s', (err) => {
    expect(isCancellation(err)).toBe(true);
    expect(handleError(err, 'fallback')).toBeNull();
  });

  it.each([
    ['not a PDF: the file does not start with %PDF-', 'not a PDF: the file does not start with %PDF-'],
    [new Error('already added as cancelled_lecture.pdf'), 'already added as cancelled_lecture.pdf'],
    [{ message: 'empty file (0 bytes)' }, 'empty file (0 bytes)'],
    ['', 'fallback'],
    [undefined, 'fallback'],
    [42, 'fallback'],
  ])('returns a readable message for %s', (err, want) => {
    expect(handleError(err, 'fallback')).toBe(want);
  });
});
