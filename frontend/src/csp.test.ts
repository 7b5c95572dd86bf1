import { describe, expect, it } from 'vitest';
import { policyOf, relaxForDev } from '../csp.ts';
import indexHtml from '../index.html?raw';

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name ?? '', values]),
  );
}

describe('Content-Security-Policy', () => {
  const policy = policyOf(indexHtml);

  it('is strict in the shipped index.html', () => {
    expect(policy).not.toBeNull();
    const d = directives(policy ?? '');
    expect(d.get('default-src')).toEqual(["'self'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('style-src')).toEqual(["'self'"]);
    expect(d.get('connect-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(policy).not.toMatch(/unsafe-eval|unsafe-inline|\*/);
  });

  it('only relaxes styles and the dev websocket while serving', () => {
    const dev = directives(relaxForDev(policy ?? ''));
    expect(dev.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(dev.get('connect-src')).toContain('ws://localhost:*');
    expect(dev.get('script-src')).toEqual(["'self'"]);
    expect(dev.get('object-src')).toEqual(["'none'"]);
  });
});
