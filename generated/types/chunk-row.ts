// Generated from schemas/chunk-row.schema.json by scripts/generate-types.ts — do not edit.

import type { SafeInteger, Seq } from './common.js'

/**
 * The three row tags, also called storage tags. No event may have one as its type (ENV-3; the envelope schema excludes them), so a record with one is always a row.
 */
export type ChunkRowType = "text-chunks" | "reasoning-chunks" | "tool-call-chunks";

/**
 * One packed run.
 */
export type ChunkRow = TextChunksRow | ReasoningChunksRow | ToolCallChunksRow;

/**
 * A run of text-delta chunks.
 */
export interface TextChunksRow {
  type: "text-chunks";
  seq0: Seq;
  time0: SafeInteger;
  data: TextRunData;
}

/**
 * A run of reasoning-delta chunks.
 */
export interface ReasoningChunksRow {
  type: "reasoning-chunks";
  seq0: Seq;
  time0: SafeInteger;
  data: TextRunData;
}

/**
 * A run of tool-call-delta chunks of one call.
 */
export interface ToolCallChunksRow {
  type: "tool-call-chunks";
  seq0: Seq;
  time0: SafeInteger;
  data: ToolCallRunData;
}

/**
 * Millisecond gaps between consecutive members; entries may be negative.
 */
export type TimeGaps = SafeInteger[];

/**
 * Payload of a text or reasoning row: one texts entry per member, never joined.
 */
export interface TextRunData {
  turn: number;
  step: number;
  /**
   * The stream block index all members share.
   */
  index: number;
  dt: TimeGaps;
  /**
   * One entry per member. A writer that packs writes runs of 3 or more members (ROW-6); a row of 1 or 2 members is tolerated by readers only (ROW-4).
   *
   * @minItems 1
   */
  texts: [string, ...string[]];
}

/**
 * Payload of a tool-call row: the call id (and name, present only when every member carried the same name) and one args fragment per member.
 */
export interface ToolCallRunData {
  turn: number;
  step: number;
  /**
   * The stream block index all members share.
   */
  index: number;
  id: string;
  name?: string;
  dt: TimeGaps;
  /**
   * One arguments fragment per member. A writer that packs writes runs of 3 or more members (ROW-6); a row of 1 or 2 members is tolerated by readers only (ROW-4).
   *
   * @minItems 1
   */
  args: [string, ...string[]];
}
