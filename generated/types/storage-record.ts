// Generated from schemas/storage-record.schema.json by scripts/generate-types.ts — do not edit.

import type { ChunkRow } from './chunk-row.js'
import type { SafeInteger, Seq } from './common.js'
import type { EventEnvelope, SourceEventSeqs } from './envelope.js'
import type { SessionEvent } from './event.js'
import type { LegacyAssistantMessageData, LegacySteeringMessageData, LegacyToolResultData, LegacyTurnEndData, LegacyTurnStartData, LegacyUserMessageData } from './events-core.js'
import type { SurfaceOp } from './surface-op.js'

/**
 * One stored record.
 */
export type StorageRecord = ChunkRow | SessionEvent | LegacyEvent;

/**
 * A stored event in a legacy v0 shape. Closed union keyed by type and shape.
 */
export type LegacyEvent =
  | LegacyTurnStartEvent
  | LegacyTurnEndEvent
  | LegacySteeringMessageEvent
  | LegacyUserMessageEvent
  | LegacyAssistantMessageEvent
  | LegacyToolResultEvent;

/**
 * A turn/start whose data still carries trigger.
 */
export type LegacyTurnStartEvent = EventEnvelope & {
  type: "turn/start";
  data: LegacyTurnStartData;
};

/**
 * A turn/end with a legacy reason.
 */
export type LegacyTurnEndEvent = EventEnvelope & {
  type: "turn/end";
  data: LegacyTurnEndData;
};

/**
 * A steering/message, which readers turn into a user/message. Its envelope is the envelope of the user/message it becomes: surfaceOp is required and sourceEventSeqs, when present, is not empty. Closed.
 */
export interface LegacySteeringMessageEvent {
  type: "steering/message";
  seq: Seq;
  time: SafeInteger;
  data: LegacySteeringMessageData;
  ignorable?: true;
  surfaceOp: SurfaceOp;
  /**
   * @minItems 1
   */
  sourceEventSeqs?: SourceEventSeqs & [unknown, ...unknown[]];
}

/**
 * A user/message whose data has content and source but no id, role or message.
 */
export type LegacyUserMessageEvent = EventEnvelope & {
  type: "user/message";
  data: LegacyUserMessageData;
};

/**
 * An assistant/message whose data has content and provenance instead of message.
 */
export type LegacyAssistantMessageEvent = EventEnvelope & {
  type: "assistant/message";
  data: LegacyAssistantMessageData;
};

/**
 * A tool/result whose data has callId, content and isError instead of message.
 */
export type LegacyToolResultEvent = EventEnvelope & {
  type: "tool/result";
  data: LegacyToolResultData;
};
