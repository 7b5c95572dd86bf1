// The one place that decides what an error means to the user. Every failure
// caught in the app goes through handleError: a cancellation (the user asked
// for it) is silent; anything else becomes a message for the UI, in the
// user's language when Go sent a code (BridgeError).

import { BridgeError } from './api/call.ts';
import { isCancelled } from './i18n/messages.ts';
import { tm } from './state/locale.svelte.ts';

export function isCancellation(err: unknown): boolean {
  if (err instanceof Error && err.name === 'AbortError') return true;
  return err instanceof BridgeError && isCancelled(err);
}

function messageOf(err: unknown): string {
  if (err instanceof BridgeError) return tm(err);
  if (typeof err === 'string') return err;
  if (err instanceof Error) return err.message;
  if (err && typeof err === 'object' && 'message' in err && typeof err.message === 'string') {
    return err.message;
  }
  return '';
}

/**
 * Returns the message to show for err, or null when it must stay silent
 * (a cancellation). fallback is used when err carries no text.
 */
export function handleError(err: unknown, fallback: string): string | null {
  if (isCancellation(err)) return null;
  if (import.meta.env.MODE !== 'test') console.error('[vika]', err);
  const text = messageOf(err).trim();
  return text === '' ? fallback : text;
}
