// Generated from schemas/envelope.schema.json by scripts/generate-types.ts — do not edit.

import type { JsonValue, SafeInteger, Seq } from './common.js'
import type { SurfaceOp } from './surface-op.js'

/**
 * The event types that produce a model message and may stand on the surface. Closed at format v0: changing this set changes the surface mechanism and needs a new format version.
 */
export type SurfaceEventType = "user/message" | "assistant/message" | "tool/result";

/**
 * Seqs of earlier events this event was built from. No seq appears twice. An empty array is allowed only on assistant/message (a known-empty provider stream); an absent member means the sources were not recorded.
 */
export type SourceEventSeqs = Seq[];

/**
 * One session event's envelope. Closed: additionalProperties is false.
 */
export type EventEnvelope = {
  /**
   * The event type: any string except the three storage tags text-chunks, reasoning-chunks and tool-call-chunks, which name packed chunk rows (ENV-3). The empty string is envelope-valid; whether a reader knows the type is a vocabulary question (vocabulary.json).
   */
  type: string;
  /**
   * The event's 0-based position in the whole log.
   */
  seq: Seq;
  /**
   * Unix epoch milliseconds. Negative values and values that go backwards are allowed.
   */
  time: SafeInteger;
  /**
   * The payload. At envelope level any JSON value, null included.
   */
  data: JsonValue;
  /**
   * When present, the literal true: a reader that does not know the type may skip the event instead of refusing the log. A writer must not mark an event of a surface-eligible type (UNK-7), although a reader accepts the marker on any type (ENV-7), so the schema allows it there.
   */
  ignorable?: true;
  surfaceOp?: SurfaceOp;
  sourceEventSeqs?: SourceEventSeqs;
};
