// Reports of the page's own failures to the app's stderr.
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import { backendReady } from './call.ts';

/**
 * Writes a failure of the page to the app's stderr (Go's
 * ReportFrontendError). Never throws and never logs: it is called from the
 * error handlers themselves (lib/errorreport.ts).
 */
export function reportError(kind: string, message: string): void {
  if (!backendReady()) return;
  try {
    App.ReportFrontendError(kind, message).catch(() => {});
  } catch {
    // the bridge itself is gone: nothing left to report to
  }
}
