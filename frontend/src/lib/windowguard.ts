// Keeps the window on the app: the page holds the bound Go methods
// (documents, keys, AddFiles on any path), so it must never navigate to
// another origin.
//
// - A drag that carries no files (a link, a URL, text dragged from a
//   browser) is refused: WebKit would otherwise navigate to a dropped URL.
//   Text may still be dropped into a text field, where it is inserted.
// - A dropped file is never opened by the webview (the library adds it).
// - A click on a link to another origin never navigates: the components
//   that show links open http(s) ones in the system browser themselves.
// - A form is never submitted to another origin.
//
// Wails v2 gives no hook on WebKitGTK's navigation policy on Linux, so this
// is done in the page; see docs/limitations.md.

/** True when the drag carries files (from a file manager). */
export function carriesFiles(dt: DataTransfer | null | undefined): boolean {
  return Array.from(dt?.types ?? []).includes('Files');
}

function editable(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return target.closest('textarea, input, [contenteditable=""], [contenteditable="true"]') !== null;
}

/** True when url, resolved against base, leaves base's origin. */
export function foreign(url: string, base: string): boolean {
  try {
    return new URL(url, base).origin !== new URL(base).origin;
  } catch {
    return true; // not a URL the page could follow: refuse it
  }
}

function onDragOver(event: DragEvent) {
  if (carriesFiles(event.dataTransfer) || editable(event.target)) return;
  // Taking the drag over with the "none" effect: no drop here, and no
  // default action (navigation) either.
  event.preventDefault();
  if (event.dataTransfer) event.dataTransfer.dropEffect = 'none';
}

function onDrop(event: DragEvent) {
  if (!carriesFiles(event.dataTransfer) && editable(event.target)) return;
  event.preventDefault();
}

function onClick(event: MouseEvent) {
  const target = event.target instanceof Element ? event.target : null;
  const link = target?.closest('a[href]');
  if (link && foreign(link.getAttribute('href') ?? '', window.location.href)) event.preventDefault();
}

function onSubmit(event: SubmitEvent) {
  const form = event.target instanceof HTMLFormElement ? event.target : null;
  if (form && foreign(form.getAttribute('action') ?? '', window.location.href)) event.preventDefault();
}

/**
 * Installs the guards on win (capture phase, so that no component can
 * skip them) and returns the function that removes them.
 */
export function guardWindow(win: Window): () => void {
  const opts = { capture: true };
  win.addEventListener('dragover', onDragOver, opts);
  win.addEventListener('drop', onDrop, opts);
  win.addEventListener('click', onClick, opts);
  win.addEventListener('auxclick', onClick, opts);
  win.addEventListener('submit', onSubmit, opts);
  return () => {
    win.removeEventListener('dragover', onDragOver, opts);
    win.removeEventListener('drop', onDrop, opts);
    win.removeEventListener('click', onClick, opts);
    win.removeEventListener('auxclick', onClick, opts);
    win.removeEventListener('submit', onSubmit, opts);
  };
}
