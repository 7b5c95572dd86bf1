// Enforces the frontend layout: the generated bindings stay behind lib/api,
// and views reach the backend only through state classes.

import { describe, expect, it } from 'vitest';

const sources = import.meta.glob(['./**/*.ts', './**/*.svelte', '!./**/*.test.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

function importsOf(source: string): string[] {
  return [...source.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g)].map(
    (m) => m[1] ?? m[2] ?? '',
  );
}

describe('layout', () => {
  it('finds the sources', () => {
    expect(Object.keys(sources)).toContain('./lib/api/index.ts');
    expect(Object.keys(sources)).toContain('./App.svelte');
  });

  it('keeps wailsjs behind lib/api', () => {
    for (const [file, source] of Object.entries(sources)) {
      if (file.startsWith('./lib/api/')) continue;
      expect(importsOf(source).filter((spec) => spec.includes('wailsjs')), file).toEqual([]);
    }
  });

  it('lets components import only types from lib/api', () => {
    for (const [file, source] of Object.entries(sources)) {
      if (!file.startsWith('./lib/components/') && file !== './App.svelte') continue;
      const api = importsOf(source).filter((spec) => /\/api\//.test(spec));
      for (const spec of api) expect(spec, file).toMatch(/\/api\/types\.ts$/);
      expect(source, file).not.toMatch(/import\s+(?!type\b)[^;]*from\s+['"][^'"]*\/api\/types\.ts/);
    }
  });

  it('keeps components small', () => {
    for (const [file, source] of Object.entries(sources)) {
      if (file.endsWith('.svelte')) expect(source.split('\n').length, file).toBeLessThanOrEqual(300);
    }
  });
});
