// Metrics: the session's records and their export.
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import { call } from './call.ts';
import type { MetricsView } from './types.ts';

export async function metrics(): Promise<MetricsView> {
  return (await call(() => App.Metrics())) as MetricsView;
}

/** Opens the native save dialog; returns the written file's path, "" when cancelled. */
export async function exportMetrics(format: 'csv' | 'json'): Promise<string> {
  return call(() => App.ExportMetrics(format));
}
