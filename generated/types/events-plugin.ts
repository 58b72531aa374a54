// Generated from schemas/events-plugin.schema.json by scripts/generate-types.ts — do not edit.

import type { JsonValue, NonEmptyString, PositiveSafeInteger } from './common.js'
import type { ContentBlock } from './content.js'
import type { LlmFailure } from './llm.js'
import type { Message, UserMessage } from './message.js'

/**
 * agent/inbox/spliced: one change to an agent's pending-message lists.
 */
export interface AgentInboxSplicedData {
  target: "next-turn" | "next-step";
  start: number;
  removedCount?: number;
  inserted: UserMessage[];
  outcome?: "canceled";
}

/**
 * agent-preset/selected: the agent preset chosen after creation, while the session was still blank.
 */
export interface AgentPresetSelectedData {
  agentPreset: string;
}

/**
 * approval/asked: an approval question was put to the answerers; id pairs it with approval/decided.
 */
export interface ApprovalAskedData {
  id: string;
  toolName: string;
  callId?: string;
  reason?: string;
}

/**
 * approval/decided: the outcome of the approval/asked with the same id.
 */
export interface ApprovalDecidedData {
  id: string;
  outcome: "allowed-once" | "rejected" | "cancelled" | "unavailable";
}

/**
 * approval/policy: the session's approval policy was switched; the last one wins.
 */
export interface ApprovalPolicyData {
  policy: "ask" | "never";
  source?: "delegation";
}

/**
 * Who issued a command line. Open union keyed by kind; the only kind declared at the pinned commit is user.
 */
export type CommandSource =
  | {
      kind: "user";
    }
  | {
      kind: string;
    };

/**
 * command/run: a resolved slash command entered its handler; commandId pairs it with command/done.
 */
export interface CommandRunData {
  commandId: string;
  name: string;
  args?: string;
  source: CommandSource;
}

/**
 * command/done: the paired command settled.
 */
export interface CommandDoneData {
  commandId: string;
  kind: "success" | "error";
  text?: string;
  sourceEventSeq?: number;
}

/**
 * feedback/record: one human remark about the session.
 */
export interface FeedbackRecordData {
  text: string;
}

/**
 * One exact goal revision.
 */
export interface GoalRef {
  id: string;
  revision: number;
}

/**
 * The full durable state of a goal.
 */
export interface GoalSnapshot {
  id: string;
  revision: number;
  objective: string;
  phase: "active" | "paused" | "blocked" | "complete";
  /**
   * Present exactly while phase is blocked.
   */
  blockedReason?: {
    code: string;
    message: string;
  };
  maxGoalRounds: number;
}

/**
 * goal/change: the complete goal state after a change, or a clear tombstone. Closed union keyed by operation.
 */
export type GoalChangeData =
  | {
      kind: "goal/change";
      version: 1;
      operation: "create" | "edit" | "pause" | "resume" | "complete" | "block";
      goal: GoalSnapshot;
      roundsStarted: number;
      createdAt: number;
      updatedAt: number;
    }
  | {
      kind: "goal/change";
      version: 1;
      operation: "clear";
      cleared: GoalRef;
      clearedAt: number;
    };

/**
 * hook/invoked: a hook command ran at a hook point inside the open turn.
 */
export interface HookInvokedData {
  turn: number;
  /**
   * The hook point, for example PreToolUse or Stop.
   */
  point: string;
  /**
   * The bridge that ran the hook.
   */
  dialect: "claude-code" | "codex";
  matcher?: string;
  handlerId: string;
}

/**
 * hook/result: the outcome of the hook/invoked with the same handlerId.
 */
export interface HookResultData {
  turn: number;
  point: string;
  handlerId: string;
  decision: string;
  exitCode?: number;
  stderrSummary?: string;
  durationMs: number;
}

/**
 * llm/retry: one retry scheduled after a failed model request. Closed union keyed by mode: normal carries maxRetries, always does not.
 */
export type LlmRetryData =
  | {
      retryId: string;
      turn: number;
      step: number;
      provider: string;
      mode: "normal";
      policyKey: string;
      retry: number;
      maxRetries: number;
      delayMs: number;
      failure: LlmFailure;
    }
  | {
      retryId: string;
      turn: number;
      step: number;
      provider: string;
      mode: "always";
      maxRetries?: never;
      policyKey: string;
      retry: number;
      delayMs: number;
      failure: LlmFailure;
    };

/**
 * llm/retry-started: a retry wait finished and the next attempt starts.
 */
export interface LlmRetryStartedData {
  retryId: string;
  turn: number;
  step: number;
  retry: number;
}

/**
 * permission/preset: the permission preset the user selected.
 */
export interface PermissionPresetData {
  preset: string;
}

/**
 * plan/mode: whether plan mode is in force from here on; the last one wins.
 */
export interface PlanModeData {
  active: boolean;
}

/**
 * sandbox/mode: the session's sandbox mode was switched; the last one wins.
 */
export interface SandboxModeData {
  mode: "read-only" | "workspace-write" | "danger-full-access";
  source?: "delegation";
}

/**
 * One durable reminder. Closed union keyed by kind: after, at, every. scheduledAt is an RFC 3339 UTC instant with a four-digit year.
 */
export type ScheduleRecord =
  | {
      id: string;
      kind: "after";
      prompt: string;
      afterSeconds: number;
      scheduledAt: string;
    }
  | {
      id: string;
      kind: "at";
      prompt: string;
      scheduledAt: string;
    }
  | {
      id: string;
      kind: "every";
      prompt: string;
      everySeconds: number;
      scheduledAt: string;
    };

/**
 * schedule/change: one versioned reminder mutation. Closed union keyed by operation: create, delete, dispatch (acceptedAt only for every-schedules). The schedule plugin itself also requires exact keys; readers do not.
 */
export type ScheduleChangeData =
  | {
      version: 1;
      operation: "create";
      schedule: ScheduleRecord;
    }
  | {
      version: 1;
      operation: "delete";
      id: string;
    }
  | {
      version: 1;
      operation: "dispatch";
      id: string;
      /**
       * Every-schedules only: the wall-clock decision time.
       */
      acceptedAt?: string;
    };

/**
 * A provider route and model id.
 */
export interface ModelRoute {
  provider: string;
  model: string;
}

/**
 * Who supplied a session title. Closed union keyed by kind: fallback, provider (with the title provider id and optionally the model route), user.
 */
export type SessionTitleSource =
  | {
      kind: "fallback" | "user";
    }
  | {
      kind: "provider";
      provider: string;
      model?: ModelRoute;
    };

/**
 * session/title: the latest title; messageSeqs are the user/message seqs it was derived from (empty for a user rename).
 */
export interface SessionTitleData {
  title: string;
  messageSeqs: number[];
  source: SessionTitleSource;
}

/**
 * session/title-llm-request: the exact model request of one title generation, recorded before dispatch.
 */
export interface SessionTitleLlmRequestData {
  titleProvider: string;
  messageSeqs: number[];
  route: ModelRoute;
  system: string;
  messages: Message[];
  maxTokens: number;
}

/**
 * Tool names kept visible (allow) or removed (deny) for a child agent.
 */
export interface ToolRestriction {
  allow?: string[];
  deny?: string[];
}

/**
 * subagent/descriptor: identity and lifecycle mode of a subagent child session. Closed union keyed by mode. The descriptor format version is 2 (VOC-15), the value upstream stamps; its declared type is a plain number.
 */
export type SubagentDescriptorData =
  | {
      version: 2;
      mode: "one-shot";
      provider: string;
      label?: string;
    }
  | {
      version: 2;
      mode: "continuable";
      provider: string;
      label: string;
      agentProvider?: string;
      agentModel?: string;
      persona?: string;
      toolFilter?: ToolRestriction;
    };

/**
 * tool/code-dispatch-start: one nested tool call started inside a run_code program; arguments is the JSON value dispatched.
 */
export interface CodeDispatchStartData {
  rootCallId: string;
  parentCallId: string;
  subCallId: string;
  name: string;
  arguments: JsonValue;
}

/**
 * tool/code-dispatch: the nested call with the same subCallId settled, with its model-facing outcome.
 */
export interface CodeDispatchData {
  rootCallId: string;
  parentCallId: string;
  subCallId: string;
  name: string;
  arguments: JsonValue;
  isError: boolean;
  content: ContentBlock[];
}

/**
 * tool-workflow/run-start: opens one workflow run record.
 */
export interface ToolWorkflowRunStartData {
  runId: string;
  name: string;
}

/**
 * tool-workflow/agent-start: one workflow member started in child session childId; seq numbers the members of the run (it is not a log seq).
 */
export interface ToolWorkflowAgentStartData {
  runId: string;
  seq: number;
  label: string;
  phase?: string;
  childId: string;
}

/**
 * tool-workflow/agent-end: the member with the same seq settled.
 */
export interface ToolWorkflowAgentEndData {
  runId: string;
  seq: number;
  outcome: "completed" | "failed" | "cancelled";
}

/**
 * tool-workflow/run-end: closes the workflow run record.
 */
export interface ToolWorkflowRunEndData {
  runId: string;
  stopReason: "completed" | "cancelled" | "error";
}

/**
 * web/deepseek-search-llm-request: the secret-free search request body, recorded before dispatch. messages and tools each hold exactly one element.
 */
export interface DeepSeekSearchLlmRequestData {
  endpoint: string;
  apiVersion: string;
  body: {
    model: string;
    max_tokens: number;
    /**
     * @minItems 1
     * @maxItems 1
     */
    messages: [
      {
        role: "user";
        /**
         * @minItems 1
         * @maxItems 1
         */
        content: [
          {
            type: "text";
            text: string;
          }
        ];
      }
    ];
    /**
     * @minItems 1
     * @maxItems 1
     */
    tools: [
      {
        type: "web_search_20250305";
        name: "web_search";
        max_uses: number;
      }
    ];
  };
}

/**
 * team/member (npm 0.1.0-rc.8, not in the pinned vocabulary): the whole teammate value, written on every lifecycle change.
 */
export interface TeamMemberData {
  version: 1;
  teamId: NonEmptyString;
  member: TeamMemberSnapshot;
}

/**
 * team/message/queued (npm 0.1.0-rc.8, not in the pinned vocabulary): a message queued between team members, written before delivery is tried.
 */
export interface TeamMessageQueuedData {
  version: 1;
  teamId: NonEmptyString;
  message: TeamMessageSnapshot;
}

/**
 * team/message/delivered (npm 0.1.0-rc.8, not in the pinned vocabulary): a queued team message reached its target session.
 */
export interface TeamMessageDeliveredData {
  version: 1;
  teamId: NonEmptyString;
  messageId: NonEmptyString;
  targetId: NonEmptyString;
}

/**
 * team/task (npm 0.1.0-rc.8, not in the pinned vocabulary): the whole shared-task value, written on every change.
 */
export interface TeamTaskData {
  version: 1;
  teamId: NonEmptyString;
  task: TeamTaskSnapshot;
}

/**
 * A teammate: its session id, what it is, and where its lifecycle stands.
 */
export interface TeamMemberSnapshot {
  id: NonEmptyString;
  name: string;
  description: string;
  provider: string;
  context: "fresh" | "fork";
  phase: "provisioning" | "active" | "failed";
  error?: string;
}

/**
 * A shared task. Every change raises revision, a positive safe integer (upstream's team fold checks it so).
 */
export interface TeamTaskSnapshot {
  id: NonEmptyString;
  revision: PositiveSafeInteger;
  subject: string;
  description: string;
  status: "pending" | "in_progress" | "completed" | "deleted";
  ownerId?: NonEmptyString;
  blockedBy: NonEmptyString[];
  writeScopes: string[];
}

/**
 * A message from one teammate to another, kept until its target session records it.
 */
export interface TeamMessageSnapshot {
  id: NonEmptyString;
  senderId: NonEmptyString;
  senderName: string;
  targetId: NonEmptyString;
  delivery: "quiet" | "wakeup";
  content: ContentBlock[];
}
