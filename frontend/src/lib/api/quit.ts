// The quit question: closing the window while the session holds work no
// course file holds keeps it open, and the page asks Save course… /
// Don't save / Cancel (Go's app_quit.go).
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import { EventsOn, Quit } from '../../../wailsjs/runtime/runtime';
import { call, runtimeReady } from './call.ts';
import { Events } from './events.ts';

/**
 * Calls fn when the window is asked to close with unsaved work (it stays
 * open), and tells Go the page asks from now on; returns the unsubscribe.
 */
export function onQuitRequested(fn: () => void): () => void {
  if (!runtimeReady()) return () => {};
  const stop = EventsOn(Events.quitRequested, () => {
    fn();
    // Shown: Go keeps the window open for the answer (a page that never
    // says so, frozen, lets a second close through).
    void call(() => App.QuitShown()).catch(() => {});
  });
  void call(() => App.ListenQuit()).catch(() => {});
  return stop;
}

/** Closes the window without asking again (the student chose Don't save, or saved). Nothing is written. */
export async function quit(): Promise<void> {
  await call(() => App.Quit());
}

/** Asks the window to close (Ctrl+Q), as its close button does: with unsaved work, the question comes first. */
export function closeWindow(): void {
  if (runtimeReady()) Quit();
}
