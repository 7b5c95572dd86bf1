// Names of the events the Go backend emits. They mirror the Go constants (one
// Go file holds them); keep both sides in step.

import type { IngestProgress } from './types.ts';

export const Events = {
  ingestProgress: 'ingest:progress',
} as const;

/** Payload type of each event, by name. */
export interface EventMap {
  [Events.ingestProgress]: IngestProgress;
}

export type EventName = keyof EventMap;
