// Settings: the saved preferences, the providers' keys (never read back) and the LLM catalogue's status.
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import type { session } from '../../../wailsjs/go/models';
import { call } from './call.ts';
import type { AskOptions, KeyStatus, ModelStatus, Settings, SummaryPlan } from './types.ts';

export async function settings(): Promise<Settings> {
  return (await call(() => App.Settings())) as Settings;
}

export async function setSettings(s: Settings): Promise<void> {
  await call(() => App.SetSettings({ ...s } as session.Settings));
}

/** One status per provider that needs a key; never the key. */
export async function keyStatus(): Promise<KeyStatus[]> {
  return ((await call(() => App.KeyStatus())) ?? []) as KeyStatus[];
}

/** Stores a provider's key in the OS keyring. */
export async function setKey(provider: string, key: string): Promise<void> {
  await call(() => App.SetKey(provider, key));
}

export async function clearKey(provider: string): Promise<void> {
  await call(() => App.ClearKey(provider));
}

/** The per-question options of the saved settings, as the session computes them. */
export async function askOptions(): Promise<AskOptions> {
  return (await call(() => App.AskOptions())) as AskOptions;
}

/** Every LLM of the catalogue, with whether it can answer now. */
export async function llms(): Promise<ModelStatus[]> {
  return ((await call(() => App.LLMs())) ?? []) as ModelStatus[];
}

/** The local Ollama server's address, shown beside the switch that turns it on. */
export async function localEndpoint(): Promise<string> {
  return (await call(() => App.LocalEndpoint())) ?? '';
}

/** What summarising the session's documents would cost now (requests, tokens, model), without asking any model. */
export async function summaryPlan(): Promise<SummaryPlan> {
  return (await call(() => App.SummaryPlan())) as SummaryPlan;
}

/** Starts summarising every document of the session (one library job each); returns the job ids. */
export async function summarizeLibrary(): Promise<string[]> {
  return ((await call(() => App.SummarizeLibrary())) ?? []) as string[];
}
