// Generated from schemas/events-core.schema.json by scripts/generate-types.ts — do not edit.

import type { JsonValue, NonEmptyString, NonNegativeSafeInteger, PositiveSafeInteger, SafeInteger } from './common.js'
import type { LlmCallConfig, LlmCallConfigAdapterDefaults, LlmFailure, StreamChunk, TokenUsage, ToolSchema } from './llm.js'
import type { AssistantMessage, MessageContent, MessageSource, ToolResultMessage, UserMessage } from './message.js'

/**
 * turn/start: opens turn number turn. A trigger member marks the legacy shape (LegacyTurnStartData) and is not part of the current shape.
 */
export interface TurnStartData {
  turn: PositiveSafeInteger;
  trigger?: never;
}

/**
 * turn/end: closes the open turn. Closed: exactly turn and reason, and turn is at least 1.
 */
export interface TurnEndData {
  turn: PositiveSafeInteger;
  reason: TurnEndReason;
}

/**
 * The turn-end reason kinds declared at the pinned commit, plus the legacy kind disposed, which readers upgrade and which is therefore never an unknown kind.
 */
export type KnownTurnEndReasonKind =
  "completed" | "aborted" | "blocked" | "error" | "max-tokens" | "interrupted" | "disposed";

/**
 * Why a turn ended. Open union keyed by kind. The known kinds are closed (a writer writes exactly the members shown); completed, blocked, max-tokens and interrupted are kind-only, and readers reject extra members on those four. A reason of any other kind (except the legacy disposed) is accepted with any members.
 */
export type TurnEndReason =
  | CompletedTurnEndReason
  | AbortedTurnEndReason
  | BlockedTurnEndReason
  | ErrorTurnEndReason
  | MaxTokensTurnEndReason
  | InterruptedTurnEndReason
  | UnknownTurnEndReason;

/**
 * The turn finished normally. Closed.
 */
export interface CompletedTurnEndReason {
  kind: "completed";
}

/**
 * A cancellation request interrupted the live turn. Closed for writers (exactly kind and reason); readers do not reject extra members here (spec chapter 09).
 */
export interface AbortedTurnEndReason {
  kind: "aborted";
  reason: TurnEndCancelCause;
}

/**
 * The turn was blocked. Closed.
 */
export interface BlockedTurnEndReason {
  kind: "blocked";
}

/**
 * The turn failed; error holds the structured failure. Closed for writers (exactly kind and error); readers do not reject extra members here (spec chapter 09).
 */
export interface ErrorTurnEndReason {
  kind: "error";
  error: LlmFailure;
}

/**
 * At least one step hit its output-token cap. Closed.
 */
export interface MaxTokensTurnEndReason {
  kind: "max-tokens";
}

/**
 * Crash repair closed a turn left open. Only repair writes it. Closed.
 */
export interface InterruptedTurnEndReason {
  kind: "interrupted";
}

/**
 * A reason of a kind this version does not declare.
 */
export interface UnknownTurnEndReason {
  kind: string;
}

/**
 * Why a turn was cancelled. Closed union keyed by kind, each member closed: user, parent, disposed, legacy (written only by the legacy upgrade), and hook with its reason.
 */
export type TurnEndCancelCause =
  | {
      kind: "user" | "parent" | "disposed" | "legacy";
    }
  | {
      kind: "hook";
      reason: string;
    };

/**
 * step/start: opens step step of turn turn (one model call plus the tool executions it asked for).
 */
export type StepStartData = TurnStep;

/**
 * step/end: closes step step of turn turn.
 */
export type StepEndData = TurnStep;

/**
 * The turn and step an event belongs to.
 */
export interface TurnStep {
  turn: PositiveSafeInteger;
  step: PositiveSafeInteger;
}

/**
 * user/message: the UserMessage itself is the data.
 */
export type UserMessageData = UserMessage;

/**
 * assistant/chunk: one raw stream chunk of a step.
 */
export interface AssistantChunkData {
  turn: PositiveSafeInteger;
  step: PositiveSafeInteger;
  chunk: StreamChunk;
}

/**
 * assistant/message: the assembled message of one step, with the step's usage when the adapter reported it.
 */
export interface AssistantMessageData {
  turn: PositiveSafeInteger;
  step: PositiveSafeInteger;
  message: AssistantMessage;
  usage?: TokenUsage;
  /**
   * Added upstream after the pinned commit (npm 0.1.0-rc.8 writes it): the delivered prefix of a stream cut short by cancellation. Pinned readers accept it because payload members are open.
   */
  interrupted?: true;
}

/**
 * tool/call: the model asked for one tool invocation; arguments is the raw, unparsed JSON text.
 */
export interface ToolCallData {
  turn: PositiveSafeInteger;
  step: PositiveSafeInteger;
  callId: NonEmptyString;
  name: string;
  arguments: string;
}

/**
 * Internal failure identity of a tool result (crash repair writes TOOL_NOT_STARTED and TOOL_OUTCOME_UNKNOWN here).
 */
export interface ToolResultError {
  name: string;
  code: string;
}

/**
 * tool/result: a finished tool call's model-facing result, an optional failure identity and optional tool-private meta.
 */
export interface ToolResultData {
  turn: PositiveSafeInteger;
  step: PositiveSafeInteger;
  message: ToolResultMessage;
  error?: ToolResultError;
  /**
   * Opaque to the core; owned by the producing tool.
   */
  meta?: JsonValue;
}

/**
 * One entry of the todo list.
 */
export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

/**
 * todo/write: the whole todo list; the latest write wins.
 */
export interface TodoWriteData {
  todos: TodoItem[];
}

/**
 * Why a request/header snapshot was appended. Closed: the retired reason "fallback" is not a v0 reason.
 */
export type RequestHeaderReason = "initial" | "resume" | "change";

/**
 * The request state kept outside derived history: call config, the adapter-default flags, system prompt and tools. A flag in adapterDefaults requires the flagged field in config.
 */
export type EpochHeader = {
  config: LlmCallConfig;
  adapterDefaults?: LlmCallConfigAdapterDefaults;
  system?: string;
  tools?: ToolSchema[];
};

/**
 * request/header: the full header of the next request.
 */
export interface RequestHeaderData {
  header: EpochHeader;
  reason: RequestHeaderReason;
}

/**
 * request/context: route metadata of the next request.
 */
export interface RequestContextData {
  provider: string;
  model: string;
  /**
   * Maximum request plus response tokens, when advertised.
   */
  contextWindow?: number;
}

/**
 * session/end-seed: the empty object. Upstream's type has no members; its code does not inspect the payload.
 */
export interface SessionEndSeedData {}

/**
 * Legacy turn/start: exactly turn (at least 1) and trigger (an object with a non-empty string kind). Readers drop trigger. Closed.
 */
export interface LegacyTurnStartData {
  turn: PositiveSafeInteger;
  trigger: {
    kind: NonEmptyString;
  };
}

/**
 * Legacy turn/end: exactly turn (at least 1) and a legacy reason. Closed.
 */
export interface LegacyTurnEndData {
  turn: PositiveSafeInteger;
  reason: LegacyTurnEndReason;
}

/**
 * Legacy reasons, each closed: kind-only aborted (becomes aborted with cause legacy), kind-only disposed (becomes aborted with cause disposed), error with step and failure (becomes error with that failure), error with step, message and optional code (becomes error with code UNKNOWN when absent).
 */
export type LegacyTurnEndReason =
  | {
      kind: "aborted" | "disposed";
    }
  | {
      kind: "error";
      step: NonNegativeSafeInteger;
      failure: {
        message: string;
        code: string;
        status?: number;
        providerRetryAfterMs?: number;
        requestId?: string;
      };
    }
  | {
      kind: "error";
      step: NonNegativeSafeInteger;
      message: string;
      code?: string;
    };

/**
 * Legacy steering/message data, one of two closed shapes: {turn, message} (the message becomes the user/message data) or {turn, content, source} (gets a minted id and role user).
 */
export type LegacySteeringMessageData =
  | {
      turn: SafeInteger;
      message: UserMessage;
    }
  | {
      turn: SafeInteger;
      content: MessageContent;
      source: MessageSource;
    };

/**
 * Legacy user/message data: content and source without id, role or message. Readers add a minted id and role user.
 */
export interface LegacyUserMessageData {
  content: MessageContent;
  source: MessageSource;
  id?: never;
  role?: never;
  message?: never;
}

/**
 * Legacy assistant provenance: becomes the model source of the upgraded message.
 */
export interface LegacyAssistantProvenance {
  provider: NonEmptyString;
  model: NonEmptyString;
  replayState?: JsonValue;
}

/**
 * Legacy assistant/message data: content and provenance instead of message. Readers wrap them into a message with a minted id.
 */
export interface LegacyAssistantMessageData {
  turn: PositiveSafeInteger;
  step: PositiveSafeInteger;
  content: MessageContent;
  provenance: LegacyAssistantProvenance;
  usage?: TokenUsage;
  message?: never;
}

/**
 * Legacy tool/result data: callId, content and isError instead of message. Readers build the tool-result message; a replacement inherits the message id of the event at its surfaceOp.start.
 */
export interface LegacyToolResultData {
  turn: PositiveSafeInteger;
  step: PositiveSafeInteger;
  callId: NonEmptyString;
  content: MessageContent;
  isError: boolean;
  error?: ToolResultError;
  meta?: JsonValue;
  message?: never;
}
