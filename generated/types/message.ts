// Generated from schemas/message.schema.json by scripts/generate-types.ts — do not edit.

import type { JsonValue, NonEmptyString } from './common.js'
import type { ContentBlock, ToolResultBlock } from './content.js'
import type { CommandId } from './events-compaction.js'

/**
 * Opaque message identity, preserved across every representation. Load rejects an empty id on the three surface events; the schema asks the same of every message.
 */
export type MessageId = NonEmptyString;

/**
 * The exact model-facing blocks of a message.
 */
export type MessageContent = ContentBlock[];

/**
 * One message: identity, provider-neutral role, content and source.
 */
export interface Message {
  id: MessageId;
  role: "system" | "user" | "assistant";
  content: MessageContent;
  source: MessageSource;
}

/**
 * A user-role message: a human prompt, injected context, a goal round or a compaction checkpoint; source tells them apart. It is the whole data of a user/message event.
 */
export interface UserMessage {
  id: MessageId;
  role: "user";
  content: MessageContent;
  source: MessageSource;
}

/**
 * A model-produced message; its source is a model source with non-empty provider and model.
 */
export interface AssistantMessage {
  id: MessageId;
  role: "assistant";
  content: MessageContent;
  source: ModelMessageSource & {
    provider?: NonEmptyString;
    model?: NonEmptyString;
  };
}

/**
 * A user-role message holding exactly one tool-result block, with a tool source whose callId is non-empty.
 */
export interface ToolResultMessage {
  id: MessageId;
  role: "user";
  /**
   * @minItems 1
   * @maxItems 1
   */
  content: [ToolResultBlock];
  source: ToolMessageSource & {
    callId?: NonEmptyString;
  };
}

/**
 * The source kinds declared at the pinned commit: the four core kinds and the kinds merged in by repository packages.
 */
export type KnownMessageSourceKind =
  | "user"
  | "plugin"
  | "model"
  | "tool"
  | "goal"
  | "agent-instructions"
  | "session-reference"
  | "skill-invocation"
  | "skill-catalog"
  | "coordinator"
  | "subagent-report"
  | "subagent-settled";

/**
 * Where a message came from. Open union keyed by kind: a known kind must have its declared fields, an unknown kind only a non-empty string kind. Readers fall through unknown kinds.
 */
export type MessageSource =
  | UserMessageSource
  | PluginMessageSource
  | ModelMessageSource
  | ToolMessageSource
  | GoalMessageSource
  | AgentInstructionsMessageSource
  | SessionReferenceMessageSource
  | SkillInvocationMessageSource
  | SkillCatalogMessageSource
  | CoordinatorMessageSource
  | SubagentReportMessageSource
  | SubagentSettledMessageSource
  | UnknownMessageSource;

/**
 * A human prompt. The API proxy's merged variant keeps kind "user" and adds rpcId (the client's request id) and optionally clientTimeZone, which then needs rpcId.
 */
export interface UserMessageSource {
  kind: "user";
  rpcId?: string;
  clientTimeZone?: string;
}

/**
 * What kind of context a producer injected: one of instructions, catalog, snapshot (needs sections), notice (needs summary), relay, recall (VOC-7); a writer writes no other value. The schema still accepts any string: no reader check looks at form (VOC-8), and the upstream documentation tells consumers to present an unknown form as opaque content.
 */
export type ContextForm = string;

/**
 * One named contribution to a snapshot-form context, in assembly order.
 */
export interface ContextSnapshotSection {
  name: string;
  text: string;
}

/**
 * Context injected by a plugin, with an optional form. A snapshot form requires sections, a notice form requires summary (producers bound it to 120 characters). The compaction checkpoint is the plugin source with plugin "compact": it requires compactionId and may carry sourceCommandId.
 */
export type PluginMessageSource = {
  kind: "plugin";
  plugin: string;
  form?: ContextForm;
  sections?: ContextSnapshotSection[];
  summary?: string;
  /**
   * Compaction checkpoint only: the compaction transaction this replacement belongs to (COMP-1: not empty).
   */
  compactionId?: NonEmptyString;
  /**
   * Compaction checkpoint only: the manual command that started the compaction (COMP-1: when present, not empty).
   */
  sourceCommandId?: CommandId;
};

/**
 * A message produced by a routed model. replayState is adapter-private JSON for replaying the response.
 */
export interface ModelMessageSource {
  kind: "model";
  provider: string;
  model: string;
  replayState?: JsonValue;
}

/**
 * A tool result; callId names the call it answers.
 */
export interface ToolMessageSource {
  kind: "tool";
  callId: string;
}

/**
 * An admitted goal continuation round (goal package).
 */
export interface GoalMessageSource {
  kind: "goal";
  goalId: string;
  revision: number;
  /**
   * Positive admitted round number.
   */
  round: number;
}

/**
 * One reconciled workspace instruction file.
 */
export interface AgentInstructionChange {
  action: "set" | "replace" | "remove";
  scope: string;
  path: string;
  digest?: string;
}

/**
 * Workspace instructions read out of files (agent-instructions package).
 */
export interface AgentInstructionsMessageSource {
  kind: "agent-instructions";
  form: "instructions";
  /**
   * Marks the complete startup or resume baseline.
   */
  baseline?: true;
  baselineIdentity?: string;
  changes: AgentInstructionChange[];
}

/**
 * One session whose log was lifted into this context.
 */
export interface SessionReference {
  sessionId: string;
  label: string;
  capturedThroughSeq: number | null;
  compacted: boolean;
  originalMessages: number;
  retainedMessages: number;
  omittedMessages: number;
  omittedBytes: number;
  truncated: boolean;
  inputIndex: number;
}

/**
 * Material recalled from other sessions' logs (session-reference package).
 */
export interface SessionReferenceMessageSource {
  kind: "session-reference";
  form: "recall";
  version: 1;
  references: SessionReference[];
}

/**
 * A skill body injected because the user invoked the skill (skill package).
 */
export interface SkillInvocationMessageSource {
  kind: "skill-invocation";
  name: string;
  form: "instructions";
}

/**
 * One published skill.
 */
export interface SkillCatalogEntry {
  name: string;
  description: string;
}

/**
 * The session's published skill catalog (tool-skill package).
 */
export interface SkillCatalogMessageSource {
  kind: "skill-catalog";
  form: "catalog";
  /**
   * Marks a replacement catalog.
   */
  update?: true;
  entries: SkillCatalogEntry[];
}

/**
 * A coordinating model's follow-up to one of its child agents (subagent package).
 */
export interface CoordinatorMessageSource {
  kind: "coordinator";
  form: "relay";
  senderSessionId: string;
}

/**
 * A continuable child agent's report to its parent (subagent package).
 */
export interface SubagentReportMessageSource {
  kind: "subagent-report";
  form: "relay";
  senderSessionId: string;
}

/**
 * The runtime's one-line account of how a continuable child agent ended (subagent package).
 */
export interface SubagentSettledMessageSource {
  kind: "subagent-settled";
  form: "notice";
  summary: string;
  senderSessionId: string;
}

/**
 * A source of a kind this version does not declare: only a non-empty kind is required.
 */
export interface UnknownMessageSource {
  kind: NonEmptyString;
}
