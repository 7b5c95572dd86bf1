// Reports every failure of the page to the Go side, which writes it to
// stderr: uncaught exceptions, unhandled promise rejections, Content-Security-
// Policy violations and console.error calls. In the built app the webview's
// console is out of sight, so without this a blocked style or a crashed
// handler leaves no trace; scripts/window/window-test.sh fails on any such line.

export type Reporter = (kind: string, message: string) => void;

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}${value.stack ? ` ${value.stack}` : ''}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Installs the listeners on win (and its document) and wraps
 * win.console.error; returns a function that removes them.
 */
export function installErrorReporting(win: Window & typeof globalThis, report: Reporter): () => void {
  const onError = (e: ErrorEvent) => {
    const where = e.filename ? ` (${e.filename}:${e.lineno}:${e.colno})` : '';
    report('error', `${e.error !== undefined && e.error !== null ? describe(e.error) : e.message}${where}`);
  };
  const onRejection = (e: PromiseRejectionEvent) => report('unhandledrejection', describe(e.reason));
  const onViolation = (e: SecurityPolicyViolationEvent) =>
    report(
      'securitypolicyviolation',
      `${e.effectiveDirective || e.violatedDirective} blocked ${e.blockedURI || '(inline)'}` +
        `${e.sourceFile ? ` at ${e.sourceFile}:${e.lineNumber}` : ''}${e.sample ? ` sample ${e.sample}` : ''}`,
    );
  const original = win.console.error;
  const wrapped = (...args: unknown[]) => {
    report('console.error', args.map(describe).join(' '));
    original.apply(win.console, args);
  };
  win.addEventListener('error', onError);
  win.addEventListener('unhandledrejection', onRejection);
  win.document.addEventListener('securitypolicyviolation', onViolation);
  win.console.error = wrapped;
  return () => {
    win.removeEventListener('error', onError);
    win.removeEventListener('unhandledrejection', onRejection);
    win.document.removeEventListener('securitypolicyviolation', onViolation);
    if (win.console.error === wrapped) win.console.error = original;
  };
}
