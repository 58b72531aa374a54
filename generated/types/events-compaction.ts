// Generated from schemas/events-compaction.schema.json by scripts/generate-types.ts — do not edit.

import type { NonEmptyString, NonNegativeSafeInteger, PositiveSafeInteger, Seq } from './common.js'
import type { ContentBlock } from './content.js'
import type { TokenUsage } from './llm.js'

/**
 * Identity shared by one compaction transaction: start, summary, checkpoint and end.
 */
export type CompactionId = NonEmptyString;

/**
 * The manual command that started a compaction.
 */
export type CommandId = NonEmptyString;

/**
 * The open turn that owns the compaction (a turn number, VOC-14), or null for a standalone manual compaction between turns.
 */
export type CompactionOwnerTurn = PositiveSafeInteger | null;

/**
 * The first (start) and last (end) surface nodes of the replaced range, by surface position; start may be numerically greater than end.
 */
export interface ShadowedRange {
  start: Seq;
  end: Seq;
}

/**
 * The seqs of all replaced surface nodes, in surface order.
 *
 * @minItems 1
 */
export type ShadowedSeqs = [Seq, ...Seq[]];

/**
 * compaction/start: takes the compaction lock until compaction/end.
 */
export interface CompactionStartData {
  compactionId: CompactionId;
  sourceCommandId?: CommandId;
  turn: CompactionOwnerTurn;
}

/**
 * compaction/summary: the finished summary, what it replaces, its estimated price and the model call that wrote it. The replacing user/message follows immediately.
 */
export interface CompactionSummaryData {
  compactionId: CompactionId;
  sourceCommandId?: CommandId;
  summary: ContentBlock[];
  shadowedRange: ShadowedRange;
  shadowedSeqs: ShadowedSeqs;
  shadowedTokenCount: NonNegativeSafeInteger;
  /**
   * The provider route that wrote the summary.
   */
  provider: string;
  /**
   * The model that wrote the summary.
   */
  model: string;
  /**
   * The generation cap the summarize call sent, when one applied.
   */
  maxTokens?: number;
  usage?: TokenUsage;
  /**
   * The complete model output before the summary projection.
   */
  rawOutput?: ContentBlock[];
  /**
   * Marks a summary written by exactly one call through the session's model stream; such a summary must carry rawOutput.
   */
  llmStreamCall?: true;
}

/**
 * compaction/end: releases the lock. Its owner turn repeats the start's; an error member (any string, the empty string included) marks a failed attempt.
 */
export interface CompactionEndData {
  compactionId: CompactionId;
  sourceCommandId?: CommandId;
  turn: CompactionOwnerTurn;
  error?: string;
}

/**
 * compaction/prune: the price of one model-free tool-result prune; the replacing tool/result follows immediately. It opens no bracket.
 */
export interface CompactionPruneData {
  shadowedRange: ShadowedRange;
  shadowedSeqs: ShadowedSeqs;
  shadowedTokenCount: NonNegativeSafeInteger;
}
