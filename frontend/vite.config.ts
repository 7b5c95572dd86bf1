import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';
import { devContentSecurityPolicy } from './csp.ts';

export default defineConfig({
  plugins: [svelte(), svelteTesting(), devContentSecurityPolicy()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Wails embeds dist/; keep assets as files so the CSP needs no data: scripts.
    assetsInlineLimit: 0,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
    mockReset: true,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
