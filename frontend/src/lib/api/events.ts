// Names of the events the Go backend emits. They mirror the Go constants (one
// Go file holds them); keep both sides in step.

import type { AnswerEvent, IngestProgress } from './types.ts';

export const Events = {
  ingestProgress: 'ingest:progress',
  /** Prefix of the per-answer channel: "answer:" + ask id. */
  answerPrefix: 'answer:',
} as const;

/** The channel of one answer's events. */
export function answerEvent(id: string): `answer:${string}` {
  return `${Events.answerPrefix}${id}`;
}

/** Payload type of each event, by name. */
export interface EventMap {
  [Events.ingestProgress]: IngestProgress;
  [answer: `answer:${string}`]: AnswerEvent;
}

export type EventName = keyof EventMap;
