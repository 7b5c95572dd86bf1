// The one call helper of the API modules: every bound method goes through
// call, which checks that the Wails runtime is there and turns a rejection
// into an Error. A Go error arrives as {message, code, params} (Go's
// ErrorFormatter, app_errors.go) and becomes a BridgeError the page
// translates (errors.ts).

import type { BridgeMessage } from '../i18n/messages.ts';

/** Raised when the page runs without the Wails runtime (plain `vite` dev server). */
export class BackendUnavailableError extends Error {
  constructor() {
    super('Vika’s engine is not connected: start the app (or `wails dev`).');
    this.name = 'BackendUnavailableError';
  }
}

/** An error of a bound method: its English text, and its code and parameters. */
export class BridgeError extends Error implements BridgeMessage {
  readonly code: string;
  readonly params: Record<string, unknown> | null;

  constructor(m: { message?: string; code: string; params?: Record<string, unknown> | null }) {
    super(m.message ?? m.code);
    this.name = 'BridgeError';
    this.code = m.code;
    this.params = m.params ?? null;
  }
}

export function backendReady(): boolean {
  return typeof window !== 'undefined' && window.go?.main?.App !== undefined;
}

export function runtimeReady(): boolean {
  return typeof window !== 'undefined' && window.runtime !== undefined;
}

export function toError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  if (typeof reason === 'string') return new Error(reason);
  if (reason && typeof reason === 'object' && 'code' in reason && typeof reason.code === 'string') {
    return new BridgeError(reason as { message?: string; code: string; params?: Record<string, unknown> });
  }
  return new Error(String(reason));
}

export async function call<T>(fn: () => Promise<T>): Promise<T> {
  if (!backendReady()) throw new BackendUnavailableError();
  try {
    return await fn();
  } catch (reason) {
    throw toError(reason);
  }
}

/** Reads a document's items a bounded bridge reply at a time (Go's batch). */
export async function allOf<T>(read: (offset: number) => Promise<{ items: T[] | null; next: number; total: number } | null>): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; ) {
    const b = await read(offset);
    out.push(...(b?.items ?? []));
    if (!b || b.next <= offset || b.next >= b.total) return out;
    offset = b.next;
  }
}
