import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { devContentSecurityPolicy } from './csp.ts';

/**
 * Under `wails dev`, Wails proxies every request to this dev server and asks
 * the Go asset handler only when the answer is a 404. Vite's SPA fallback
 * would answer the Go routes (/docs/<id>: the PDFs for the viewer; /crops/...: figure crops) with
 * index.html: leave them to Go.
 */
function goRoutes(): Plugin {
  return {
    name: 'vika:go-routes',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = (req as { url?: string }).url ?? '';
        if (url.startsWith('/docs/') || url.startsWith('/crops/')) {
          res.statusCode = 404;
          res.end();
          return;
        }
        next();
      });
    },
  };
}

/**
 * The dev server's port: VIKA_E2E_VITE_PORT when set (scripts/window/e2e.sh gives
 * each run its own, and then a taken port is an error, never a silent move to
 * the next one that another run may be using), else Vite's default 5173.
 */
function devServer(): { port: number; strictPort: boolean; fs?: { allow: string[] } } {
  const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
  // Tests may also read the repository's shared fixtures (../testdata);
  // the dev server serves the frontend only.
  if (env.VITEST) return { port: 5173, strictPort: false, fs: { allow: ['.', '../testdata'] } };
  const raw = env.VIKA_E2E_VITE_PORT;
  if (raw === undefined || raw === '') return { port: 5173, strictPort: false };
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`VIKA_E2E_VITE_PORT must be a port number (1-65535), not ${JSON.stringify(raw)}`);
  }
  return { port, strictPort: true };
}

export default defineConfig({
  plugins: [svelte(), svelteTesting(), devContentSecurityPolicy(), goRoutes()],
  server: devServer(),
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
    // The component tests type with user-event in jsdom: on this shared
    // 2-core machine under load a ChatPanel test took 5.5 s against
    // vitest's 5 s default, and its unfinished typing then broke the next
    // test. A hang still fails, after 20 s.
    testTimeout: 20_000,
  },
});
