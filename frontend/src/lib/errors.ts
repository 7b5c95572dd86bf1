// The one place that decides what an error means to the user. Every failure
// caught in the app goes through handleError: a cancellation (the user asked
// for it) is silent; anything else becomes a readable message for the UI.

/** Go's context.Canceled, as it reads once wrapped with %w and sent by Wails. */
const GO_CANCELED = /\bcontext canceled\b/i;
/** A bare cancellation message (not a file name that happens to contain the word). */
const BARE_CANCELED = /^(?:operation |job |request )?cancell?ed\.?$/i;

export function isCancellation(err: unknown): boolean {
  if (err instanceof Error && err.name === 'AbortError') return true;
  const text = messageOf(err).trim();
  return GO_CANCELED.test(text) || BARE_CANCELED.test(text);
}

function messageOf(err: unknown): string {
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
