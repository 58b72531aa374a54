// Generated from schemas/llm.schema.json by scripts/generate-types.ts — do not edit.

import type { JsonValue, NonEmptyString, NonNegativeSafeInteger } from './common.js'
import type { ContentBlock } from './content.js'

/**
 * Token accounting for one model call. The counts are disjoint (inputTokens excludes cached input), except that reasoningTokens is already included in outputTokens.
 */
export interface TokenUsage {
  inputTokens: NonNegativeSafeInteger;
  outputTokens: NonNegativeSafeInteger;
  cacheReadTokens?: NonNegativeSafeInteger;
  cacheWriteTokens?: NonNegativeSafeInteger;
  reasoningTokens?: NonNegativeSafeInteger;
}

/**
 * Serializable facts of a provider or transport failure.
 */
export interface LlmFailure {
  message: string;
  /**
   * Stable provider-neutral routing code.
   */
  code: string;
  /**
   * HTTP status, when known.
   */
  status?: number;
  providerRetryAfterMs?: number;
  /**
   * Opaque provider request id for diagnostics.
   */
  requestId?: string;
}

/**
 * The finish reason kinds declared at the pinned commit.
 */
export type KnownFinishReasonKind = "stop" | "tool-calls" | "max-tokens" | "aborted" | "error";

/**
 * Why a model response stopped. Open union keyed by kind: adapters may merge provider-specific kinds.
 */
export type FinishReason =
  | {
      kind: "stop";
    }
  | {
      kind: "tool-calls";
    }
  | {
      kind: "max-tokens";
    }
  | {
      kind: "aborted";
      failure: LlmFailure;
    }
  | {
      kind: "error";
      failure: LlmFailure;
    }
  | {
      kind: string;
    };

/**
 * One raw streaming frame from an adapter. Closed union keyed by type: a chunk of any other type is invalid. Adapters send usage before finish and nothing after finish.
 */
export type StreamChunk =
  | {
      type: "block-start";
      index: number;
      /**
       * A content block type; widens with merged content block types.
       */
      blockType: string;
    }
  | {
      type: "text-delta";
      index: number;
      text: string;
    }
  | {
      type: "reasoning-delta";
      index: number;
      text: string;
    }
  | {
      type: "tool-call-delta";
      index: number;
      id: string;
      name?: string;
      argumentsDelta: string;
    }
  | {
      type: "block-end";
      index: number;
      block: ContentBlock;
    }
  | {
      type: "usage";
      usage: TokenUsage;
    }
  | {
      type: "finish";
      reason: FinishReason;
      replayState?: JsonValue;
    };

/**
 * Provider route, model, reasoning effort and sampling values of a conversation's requests. Load rejects an empty provider, model or reasoningEffort in a request header.
 */
export interface LlmCallConfig {
  provider: NonEmptyString;
  model: NonEmptyString;
  /**
   * Adapter-owned reasoning effort id.
   */
  reasoningEffort?: NonEmptyString;
  temperature?: number;
  maxTokens?: number;
  /**
   * Stop sequences.
   */
  stop?: string[];
}

/**
 * Which config fields the adapter filled in rather than the caller. Closed: only reasoningEffort and maxTokens, each the literal true.
 */
export interface LlmCallConfigAdapterDefaults {
  reasoningEffort?: true;
  maxTokens?: true;
}

/**
 * A tool as described to the model.
 */
export interface ToolSchema {
  name: string;
  description: string;
  /**
   * A JSON Schema object for the arguments.
   */
  parameters: {
    [k: string]: unknown;
  };
}
