import { afterEach, describe, expect, it, vi } from 'vitest';
import { installErrorReporting } from './errorreport.ts';

describe('installErrorReporting', () => {
  let uninstall: (() => void) | undefined;
  afterEach(() => uninstall?.());

  it('reports uncaught errors, rejections, CSP violations and console.error', () => {
    const report = vi.fn();
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    uninstall = installErrorReporting(window, report);

    window.dispatchEvent(new ErrorEvent('error', { message: 'boom', error: new TypeError('x is undefined'), filename: 'main.js', lineno: 3, colno: 7 }));
    const rejection = new Event('unhandledrejection') as Event & { reason: unknown };
    rejection.reason = new Error('no answer');
    window.dispatchEvent(rejection);
    const violation = new Event('securitypolicyviolation', { bubbles: true }) as Event & Record<string, unknown>;
    Object.assign(violation, { effectiveDirective: 'style-src-attr', blockedURI: 'inline', sourceFile: 'index.js', lineNumber: 9, sample: '' });
    document.body.dispatchEvent(violation);
    console.error('failed to load', { page: 2 });

    expect(report.mock.calls.map(([kind]) => kind)).toEqual(['error', 'unhandledrejection', 'securitypolicyviolation', 'console.error']);
    expect(report.mock.calls[0]?.[1]).toMatch(/^TypeError: x is undefined.*\(main\.js:3:7\)$/s);
    expect(report.mock.calls[1]?.[1]).toMatch(/^Error: no answer/);
    expect(report.mock.calls[2]?.[1]).toBe('style-src-attr blocked inline at index.js:9');
    expect(report.mock.calls[3]?.[1]).toBe('failed to load {"page":2}');
    expect(quiet).toHaveBeenCalledWith('failed to load', { page: 2 }); // still in the console too
    quiet.mockRestore();
  });

  it('stops reporting once removed', () => {
    const report = vi.fn();
    uninstall = installErrorReporting(window, report);
    uninstall();
    uninstall = undefined;
    window.dispatchEvent(new ErrorEvent('error', { message: 'late' }));
    expect(report).not.toHaveBeenCalled();
  });
});
