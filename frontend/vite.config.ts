import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { devContentSecurityPolicy } from './csp.ts';

/**
 * Under `wails dev`, Wails proxies every request to this dev server and asks
 * the Go asset handler only when the answer is a 404. Vite's SPA fallback
 * would answer the Go routes (/docs/<id>: the PDFs for the viewer) with
 * index.html: leave them to Go.
 */
function goRoutes(): Plugin {
  return {
    name: 'vika:go-routes',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if ((req as { url?: string }).url?.startsWith('/docs/')) {
          res.statusCode = 404;
          res.end();
          return;
        }
        next();
      });
    },
  };
}

export default defineConfig({
  plugins: [svelte(), svelteTesting(), devContentSecurityPolicy(), goRoutes()],
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
