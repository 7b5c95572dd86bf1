// One export through the native save dialog, as the chat, the dashboard and
// the study view run it: one at a time, the format being written, and where
// the last one was saved (a cancelled dialog says nothing). Each owner says
// what a failure does (its own error line).

/** The state of one kind of export; owners expose `exporting` and `exported` from it. */
export class Export<F extends string = string> {
  /** The format being written; null when none is. */
  running = $state<F | null>(null);
  /** Where the last export was saved; null before one, after a cancelled dialog, or once forgotten. */
  path = $state<string | null>(null);

  /** Runs save (the dialog and the write: the path, '' when cancelled) unless an export is running; its failure goes to failed. */
  async run(format: F, save: () => Promise<string>, failed: (err: unknown) => void): Promise<void> {
    if (this.running) return;
    this.running = format;
    this.path = null;
    try {
      const path = await save();
      this.path = path === '' ? null : path;
    } catch (err) {
      failed(err);
    } finally {
      this.running = null;
    }
  }
}
