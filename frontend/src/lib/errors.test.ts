import { describe, expect, it } from 'vitest';
import { BridgeError } from './api/call.ts';
import { handleError, isCancellation } from './errors.ts';
import { locale } from './state/locale.svelte.ts';

describe('handleError', () => {
  it.each([
    [new BridgeError({ message: 'search: context canceled', code: 'error.cancelled' })],
    [Object.assign(new Error('The operation was aborted'), { name: 'AbortError' })],
  ])('is silent for a cancellation: %s', (err) => {
    expect(isCancellation(err)).toBe(true);
    expect(handleError(err, 'fallback')).toBeNull();
  });

  it.each([
    // Go's English text is no longer read for a cancellation: only the code counts.
    ['context canceled', 'context canceled'],
    [new Error('already added as cancelled_lecture.pdf'), 'already added as cancelled_lecture.pdf'],
    [{ message: 'empty file (0 bytes)' }, 'empty file (0 bytes)'],
    ['', 'fallback'],
    [undefined, 'fallback'],
    [42, 'fallback'],
  ])('returns a readable message for %s', (err, want) => {
    expect(isCancellation(err)).toBe(false);
    expect(handleError(err, 'fallback')).toBe(want);
  });

  it('translates an error Go sent with a code into the window language', () => {
    const err = new BridgeError({ message: 'the session is closed', code: 'error.session_closed' });
    locale.set('fr');
    expect(handleError(err, 'fallback')).toBe('La session est fermée : redémarrez Vika.');
    locale.set('en');
    expect(handleError(err, 'fallback')).toBe('The session is closed: restart Vika.');
  });
});
