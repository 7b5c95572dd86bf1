// The quit question: closing the window while the session holds work no
// course file holds keeps it open (Go decides), and the page asks
// Save course… / Don't save / Cancel. Save runs the library's save (its
// dialog) and quits once saved; Don't save quits, writing nothing;
// Cancel goes back to the session.
//
// App.svelte builds the window's one instance over the course files:
//   const quit = new QuitQuestion(course);
//   onMount(() => quit.start());

import * as api from '../api/index.ts';
import { whileBusy } from './busy.ts';
import type { CourseFiles } from './course.svelte.ts';

export class QuitQuestion {
  /** The question is shown. */
  open = $state(false);
  busy = $state(false);
  error = $state<string | null>(null);

  readonly course: CourseFiles;

  constructor(course: CourseFiles) {
    this.course = course;
  }

  /** Listens for the window's close requests; returns the unsubscribe. */
  start(): () => void {
    return api.onQuitRequested(() => {
      this.error = null;
      this.open = true;
    });
  }

  /** Save course…: the save dialog, then quits once saved (a cancelled dialog keeps the question). */
  async save(): Promise<void> {
    await this.#run(async () => {
      if (await this.course.save()) await api.quit();
      else if (this.course.error) this.error = this.course.error;
    });
  }

  /** Don't save: quits; nothing is written. */
  async discard(): Promise<void> {
    await this.#run(() => api.quit());
  }

  /** Ctrl+Q: asks the window to close, as its close button does (Go asks this question first when work is unsaved). */
  requestClose(): void {
    if (!this.open) api.closeWindow();
  }

  /** Cancel: back to the session. */
  cancel(): void {
    if (!this.busy) this.open = false;
  }

  async #run(fn: () => Promise<void>): Promise<void> {
    await whileBusy(this, fn);
  }
}
