// Generated from schemas/event.schema.json by scripts/generate-types.ts — do not edit.

import type { EventEnvelope } from './envelope.js'
import type { CompactionEndData, CompactionPruneData, CompactionStartData, CompactionSummaryData } from './events-compaction.js'
import type { AssistantChunkData, AssistantMessageData, RequestContextData, RequestHeaderData, SessionEndSeedData, StepEndData, StepStartData, TodoWriteData, ToolCallData, ToolResultData, TurnEndData, TurnStartData, UserMessageData } from './events-core.js'
import type { AgentInboxSplicedData, AgentPresetSelectedData, ApprovalAskedData, ApprovalDecidedData, ApprovalPolicyData, CodeDispatchData, CodeDispatchStartData, CommandDoneData, CommandRunData, DeepSeekSearchLlmRequestData, FeedbackRecordData, GoalChangeData, HookInvokedData, HookResultData, LlmRetryData, LlmRetryStartedData, PermissionPresetData, PlanModeData, SandboxModeData, ScheduleChangeData, SessionTitleData, SessionTitleLlmRequestData, SubagentDescriptorData, TeamMemberData, TeamMessageDeliveredData, TeamMessageQueuedData, TeamTaskData, ToolWorkflowAgentEndData, ToolWorkflowAgentStartData, ToolWorkflowRunEndData, ToolWorkflowRunStartData } from './events-plugin.js'

/**
 * Every event type whose payload this schema shapes: the 44 types of the pinned vocabulary and the four team/* types of the v0-rc8 vocabulary (vocabulary.json).
 */
export type KnownEventType =
  | "turn/start"
  | "turn/end"
  | "step/start"
  | "step/end"
  | "user/message"
  | "assistant/chunk"
  | "assistant/message"
  | "tool/call"
  | "tool/result"
  | "todo/write"
  | "request/header"
  | "request/context"
  | "session/end-seed"
  | "compaction/start"
  | "compaction/summary"
  | "compaction/end"
  | "compaction/prune"
  | "agent/inbox/spliced"
  | "agent-preset/selected"
  | "approval/asked"
  | "approval/decided"
  | "approval/policy"
  | "command/run"
  | "command/done"
  | "feedback/record"
  | "goal/change"
  | "hook/invoked"
  | "hook/result"
  | "llm/retry"
  | "llm/retry-started"
  | "permission/preset"
  | "plan/mode"
  | "sandbox/mode"
  | "schedule/change"
  | "session/title"
  | "session/title-llm-request"
  | "subagent/descriptor"
  | "tool/code-dispatch-start"
  | "tool/code-dispatch"
  | "tool-workflow/run-start"
  | "tool-workflow/agent-start"
  | "tool-workflow/agent-end"
  | "tool-workflow/run-end"
  | "web/deepseek-search-llm-request"
  | "team/member"
  | "team/message/queued"
  | "team/message/delivered"
  | "team/task";

/**
 * Retired or pre-v0-final type names that never stand in a log after reading: request/header-delta and mode/set are rejected; steering/message exists only as a stored legacy record, which readers upgrade to user/message (storage-record.schema.json).
 */
export type LegacyEventType = "request/header-delta" | "mode/set" | "steering/message";

/**
 * One whole session event: a known event with its payload, or an event of an unknown type that is not a legacy type name.
 */
export type SessionEvent = KnownSessionEvent | UnknownTypeEvent;

/**
 * An event of a known type, with the payload of that type. Closed union keyed by type.
 */
export type KnownSessionEvent =
  | TurnStartEvent
  | TurnEndEvent
  | StepStartEvent
  | StepEndEvent
  | UserMessageEvent
  | AssistantChunkEvent
  | AssistantMessageEvent
  | ToolCallEvent
  | ToolResultEvent
  | TodoWriteEvent
  | RequestHeaderEvent
  | RequestContextEvent
  | SessionEndSeedEvent
  | CompactionStartEvent
  | CompactionSummaryEvent
  | CompactionEndEvent
  | CompactionPruneEvent
  | AgentInboxSplicedEvent
  | AgentPresetSelectedEvent
  | ApprovalAskedEvent
  | ApprovalDecidedEvent
  | ApprovalPolicyEvent
  | CommandRunEvent
  | CommandDoneEvent
  | FeedbackRecordEvent
  | GoalChangeEvent
  | HookInvokedEvent
  | HookResultEvent
  | LlmRetryEvent
  | LlmRetryStartedEvent
  | PermissionPresetEvent
  | PlanModeEvent
  | SandboxModeEvent
  | ScheduleChangeEvent
  | SessionTitleEvent
  | SessionTitleLlmRequestEvent
  | SubagentDescriptorEvent
  | CodeDispatchStartEvent
  | CodeDispatchEvent
  | ToolWorkflowRunStartEvent
  | ToolWorkflowAgentStartEvent
  | ToolWorkflowAgentEndEvent
  | ToolWorkflowRunEndEvent
  | DeepSeekSearchLlmRequestEvent
  | TeamMemberEvent
  | TeamMessageQueuedEvent
  | TeamMessageDeliveredEvent
  | TeamTaskEvent;

/**
 * An event whose type this schema does not know: a valid envelope, and its data may be any lossless JSON value. Open.
 */
export type UnknownTypeEvent = EventEnvelope & {
  type: string;
};

/**
 * A whole turn/start event: a valid envelope with type turn/start and its payload.
 */
export type TurnStartEvent = EventEnvelope & {
  type: "turn/start";
  data: TurnStartData;
};

/**
 * A whole turn/end event: a valid envelope with type turn/end and its payload.
 */
export type TurnEndEvent = EventEnvelope & {
  type: "turn/end";
  data: TurnEndData;
};

/**
 * A whole step/start event: a valid envelope with type step/start and its payload.
 */
export type StepStartEvent = EventEnvelope & {
  type: "step/start";
  data: StepStartData;
};

/**
 * A whole step/end event: a valid envelope with type step/end and its payload.
 */
export type StepEndEvent = EventEnvelope & {
  type: "step/end";
  data: StepEndData;
};

/**
 * A whole user/message event: a valid envelope with type user/message and its payload.
 */
export type UserMessageEvent = EventEnvelope & {
  type: "user/message";
  data: UserMessageData;
};

/**
 * A whole assistant/chunk event: a valid envelope with type assistant/chunk and its payload.
 */
export type AssistantChunkEvent = EventEnvelope & {
  type: "assistant/chunk";
  data: AssistantChunkData;
};

/**
 * A whole assistant/message event: a valid envelope with type assistant/message and its payload.
 */
export type AssistantMessageEvent = EventEnvelope & {
  type: "assistant/message";
  data: AssistantMessageData;
};

/**
 * A whole tool/call event: a valid envelope with type tool/call and its payload.
 */
export type ToolCallEvent = EventEnvelope & {
  type: "tool/call";
  data: ToolCallData;
};

/**
 * A whole tool/result event: a valid envelope with type tool/result and its payload.
 */
export type ToolResultEvent = EventEnvelope & {
  type: "tool/result";
  data: ToolResultData;
};

/**
 * A whole todo/write event: a valid envelope with type todo/write and its payload.
 */
export type TodoWriteEvent = EventEnvelope & {
  type: "todo/write";
  data: TodoWriteData;
};

/**
 * A whole request/header event: a valid envelope with type request/header and its payload.
 */
export type RequestHeaderEvent = EventEnvelope & {
  type: "request/header";
  data: RequestHeaderData;
};

/**
 * A whole request/context event: a valid envelope with type request/context and its payload.
 */
export type RequestContextEvent = EventEnvelope & {
  type: "request/context";
  data: RequestContextData;
};

/**
 * A whole session/end-seed event: a valid envelope with type session/end-seed and its payload.
 */
export type SessionEndSeedEvent = EventEnvelope & {
  type: "session/end-seed";
  data: SessionEndSeedData;
};

/**
 * A whole compaction/start event: a valid envelope with type compaction/start and its payload.
 */
export type CompactionStartEvent = EventEnvelope & {
  type: "compaction/start";
  data: CompactionStartData;
};

/**
 * A whole compaction/summary event: a valid envelope with type compaction/summary and its payload.
 */
export type CompactionSummaryEvent = EventEnvelope & {
  type: "compaction/summary";
  data: CompactionSummaryData;
};

/**
 * A whole compaction/end event: a valid envelope with type compaction/end and its payload.
 */
export type CompactionEndEvent = EventEnvelope & {
  type: "compaction/end";
  data: CompactionEndData;
};

/**
 * A whole compaction/prune event: a valid envelope with type compaction/prune and its payload.
 */
export type CompactionPruneEvent = EventEnvelope & {
  type: "compaction/prune";
  data: CompactionPruneData;
};

/**
 * A whole agent/inbox/spliced event: a valid envelope with type agent/inbox/spliced and its payload.
 */
export type AgentInboxSplicedEvent = EventEnvelope & {
  type: "agent/inbox/spliced";
  data: AgentInboxSplicedData;
};

/**
 * A whole agent-preset/selected event: a valid envelope with type agent-preset/selected and its payload.
 */
export type AgentPresetSelectedEvent = EventEnvelope & {
  type: "agent-preset/selected";
  data: AgentPresetSelectedData;
};

/**
 * A whole approval/asked event: a valid envelope with type approval/asked and its payload.
 */
export type ApprovalAskedEvent = EventEnvelope & {
  type: "approval/asked";
  data: ApprovalAskedData;
};

/**
 * A whole approval/decided event: a valid envelope with type approval/decided and its payload.
 */
export type ApprovalDecidedEvent = EventEnvelope & {
  type: "approval/decided";
  data: ApprovalDecidedData;
};

/**
 * A whole approval/policy event: a valid envelope with type approval/policy and its payload.
 */
export type ApprovalPolicyEvent = EventEnvelope & {
  type: "approval/policy";
  data: ApprovalPolicyData;
};

/**
 * A whole command/run event: a valid envelope with type command/run and its payload.
 */
export type CommandRunEvent = EventEnvelope & {
  type: "command/run";
  data: CommandRunData;
};

/**
 * A whole command/done event: a valid envelope with type command/done and its payload.
 */
export type CommandDoneEvent = EventEnvelope & {
  type: "command/done";
  data: CommandDoneData;
};

/**
 * A whole feedback/record event: a valid envelope with type feedback/record and its payload.
 */
export type FeedbackRecordEvent = EventEnvelope & {
  type: "feedback/record";
  data: FeedbackRecordData;
};

/**
 * A whole goal/change event: a valid envelope with type goal/change and its payload.
 */
export type GoalChangeEvent = EventEnvelope & {
  type: "goal/change";
  data: GoalChangeData;
};

/**
 * A whole hook/invoked event: a valid envelope with type hook/invoked and its payload.
 */
export type HookInvokedEvent = EventEnvelope & {
  type: "hook/invoked";
  data: HookInvokedData;
};

/**
 * A whole hook/result event: a valid envelope with type hook/result and its payload.
 */
export type HookResultEvent = EventEnvelope & {
  type: "hook/result";
  data: HookResultData;
};

/**
 * A whole llm/retry event: a valid envelope with type llm/retry and its payload.
 */
export type LlmRetryEvent = EventEnvelope & {
  type: "llm/retry";
  data: LlmRetryData;
};

/**
 * A whole llm/retry-started event: a valid envelope with type llm/retry-started and its payload.
 */
export type LlmRetryStartedEvent = EventEnvelope & {
  type: "llm/retry-started";
  data: LlmRetryStartedData;
};

/**
 * A whole permission/preset event: a valid envelope with type permission/preset and its payload.
 */
export type PermissionPresetEvent = EventEnvelope & {
  type: "permission/preset";
  data: PermissionPresetData;
};

/**
 * A whole plan/mode event: a valid envelope with type plan/mode and its payload.
 */
export type PlanModeEvent = EventEnvelope & {
  type: "plan/mode";
  data: PlanModeData;
};

/**
 * A whole sandbox/mode event: a valid envelope with type sandbox/mode and its payload.
 */
export type SandboxModeEvent = EventEnvelope & {
  type: "sandbox/mode";
  data: SandboxModeData;
};

/**
 * A whole schedule/change event: a valid envelope with type schedule/change and its payload.
 */
export type ScheduleChangeEvent = EventEnvelope & {
  type: "schedule/change";
  data: ScheduleChangeData;
};

/**
 * A whole session/title event: a valid envelope with type session/title and its payload.
 */
export type SessionTitleEvent = EventEnvelope & {
  type: "session/title";
  data: SessionTitleData;
};

/**
 * A whole session/title-llm-request event: a valid envelope with type session/title-llm-request and its payload.
 */
export type SessionTitleLlmRequestEvent = EventEnvelope & {
  type: "session/title-llm-request";
  data: SessionTitleLlmRequestData;
};

/**
 * A whole subagent/descriptor event: a valid envelope with type subagent/descriptor and its payload.
 */
export type SubagentDescriptorEvent = EventEnvelope & {
  type: "subagent/descriptor";
  data: SubagentDescriptorData;
};

/**
 * A whole tool/code-dispatch-start event: a valid envelope with type tool/code-dispatch-start and its payload.
 */
export type CodeDispatchStartEvent = EventEnvelope & {
  type: "tool/code-dispatch-start";
  data: CodeDispatchStartData;
};

/**
 * A whole tool/code-dispatch event: a valid envelope with type tool/code-dispatch and its payload.
 */
export type CodeDispatchEvent = EventEnvelope & {
  type: "tool/code-dispatch";
  data: CodeDispatchData;
};

/**
 * A whole tool-workflow/run-start event: a valid envelope with type tool-workflow/run-start and its payload.
 */
export type ToolWorkflowRunStartEvent = EventEnvelope & {
  type: "tool-workflow/run-start";
  data: ToolWorkflowRunStartData;
};

/**
 * A whole tool-workflow/agent-start event: a valid envelope with type tool-workflow/agent-start and its payload.
 */
export type ToolWorkflowAgentStartEvent = EventEnvelope & {
  type: "tool-workflow/agent-start";
  data: ToolWorkflowAgentStartData;
};

/**
 * A whole tool-workflow/agent-end event: a valid envelope with type tool-workflow/agent-end and its payload.
 */
export type ToolWorkflowAgentEndEvent = EventEnvelope & {
  type: "tool-workflow/agent-end";
  data: ToolWorkflowAgentEndData;
};

/**
 * A whole tool-workflow/run-end event: a valid envelope with type tool-workflow/run-end and its payload.
 */
export type ToolWorkflowRunEndEvent = EventEnvelope & {
  type: "tool-workflow/run-end";
  data: ToolWorkflowRunEndData;
};

/**
 * A whole web/deepseek-search-llm-request event: a valid envelope with type web/deepseek-search-llm-request and its payload.
 */
export type DeepSeekSearchLlmRequestEvent = EventEnvelope & {
  type: "web/deepseek-search-llm-request";
  data: DeepSeekSearchLlmRequestData;
};

/**
 * A whole team/member event: a valid envelope with type team/member and its payload.
 */
export type TeamMemberEvent = EventEnvelope & {
  type: "team/member";
  data: TeamMemberData;
};

/**
 * A whole team/message/queued event: a valid envelope with type team/message/queued and its payload.
 */
export type TeamMessageQueuedEvent = EventEnvelope & {
  type: "team/message/queued";
  data: TeamMessageQueuedData;
};

/**
 * A whole team/message/delivered event: a valid envelope with type team/message/delivered and its payload.
 */
export type TeamMessageDeliveredEvent = EventEnvelope & {
  type: "team/message/delivered";
  data: TeamMessageDeliveredData;
};

/**
 * A whole team/task event: a valid envelope with type team/task and its payload.
 */
export type TeamTaskEvent = EventEnvelope & {
  type: "team/task";
  data: TeamTaskData;
};
