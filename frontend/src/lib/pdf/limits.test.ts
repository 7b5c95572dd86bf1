import { afterEach, describe, expect, it, vi } from 'vitest';
import { backingRatio, LIMITS, RenderTimeout, watchdog } from './limits.ts';

describe('backingRatio', () => {
  it('keeps devicePixelRatio for an ordinary page', () => {
    expect(backingRatio(612, 792, 2)).toBe(2);
  });

  it('caps the canvas of a 14,400 pt page at zoom 4 on a 2x screen', () => {
    const side = 14400 * 4;
    const r = backingRatio(side, side, 2);
    expect((side * r) ** 2).toBeLessThanOrEqual(LIMITS.max_canvas_pixels * 1.0001);
    expect(side * r).toBeLessThanOrEqual(LIMITS.max_canvas_side);
  });

  it('caps a long thin page by its side', () => {
    const r = backingRatio(100, 1e6, 1);
    expect(1e6 * r).toBeLessThanOrEqual(LIMITS.max_canvas_side);
  });
});

describe('watchdog', () => {
  afterEach(() => vi.useRealTimers());

  it('cancels a render that never ends and fails with RenderTimeout', async () => {
    vi.useFakeTimers();
    const cancel = vi.fn();
    let reject: (e: Error) => void = () => {};
    const never = new Promise<void>((_, rej) => (reject = rej));
    cancel.mockImplementation(() => reject(Object.assign(new Error('cancelled'), { name: 'RenderingCancelledException' })));
    const done = watchdog(never, cancel, LIMITS.render_timeout_ms);
    const check = expect(done).rejects.toBeInstanceOf(RenderTimeout);
    await vi.advanceTimersByTimeAsync(LIMITS.render_timeout_ms);
    await check;
    expect(cancel).toHaveBeenCalledOnce();
  });

  it('passes a render that ends in time through, and its own errors', async () => {
    const cancel = vi.fn();
    await expect(watchdog(Promise.resolve(7), cancel, 1000)).resolves.toBe(7);
    await expect(watchdog(Promise.reject(new Error('bad')), cancel, 1000)).rejects.toThrow('bad');
    expect(cancel).not.toHaveBeenCalled();
  });
});
