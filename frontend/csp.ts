// Content-Security-Policy handling for Vite. index.html carries the production
// policy. The dev server (vite, and `wails dev`, which proxies it) injects CSS
// as <style> tags and talks to its HMR websocket, so while serving, exactly
// those two directives are relaxed. The built app ships the strict policy.

import type { Plugin } from 'vite';

const DEV_ALLOWANCES: Record<string, string> = {
  'style-src': "'unsafe-inline'",
  'connect-src': 'ws://localhost:* ws://127.0.0.1:* http://localhost:*',
};

const META = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/;

/** The policy in index.html's meta tag, or null when there is none. */
export function policyOf(html: string): string | null {
  return META.exec(html)?.[2] ?? null;
}

/** Adds the dev server's allowances to a policy. */
export function relaxForDev(policy: string): string {
  return policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '')
    .map((directive) => {
      const extra = DEV_ALLOWANCES[directive.split(/\s+/)[0] ?? ''];
      return extra ? `${directive} ${extra}` : directive;
    })
    .join('; ');
}

export function devContentSecurityPolicy(): Plugin {
  return {
    name: 'vika:dev-csp',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace(META, (_m, open: string, policy: string, close: string) => open + relaxForDev(policy) + close);
    },
  };
}
