// One way for a state class to run an action that shows it is busy and
// keeps its failure as a message (quit.svelte.ts, course.svelte.ts).

import { handleError } from '../errors.ts';
import { t } from './locale.svelte.ts';

/** A state holder with a busy flag and the last error's message. */
export interface Busy {
  busy: boolean;
  error: string | null;
}

/** Runs fn with holder.busy set, clearing holder.error first and setting it to fn's failure. */
export async function whileBusy(holder: Busy, fn: () => Promise<void>): Promise<void> {
  holder.busy = true;
  holder.error = null;
  try {
    await fn();
  } catch (err) {
    holder.error = handleError(err, t('error.generic'));
  } finally {
    holder.busy = false;
  }
}
