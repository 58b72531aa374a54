/**
 * Chapter 04: event types, payloads, messages and content. This module knows the pinned
 * vocabulary, which types are surface-eligible, and the message shapes that load and append check.
 */
import { fault, type Fault } from './result.ts'
import { isNonEmptyString, isRecord, type JsonRecord } from './lossless-json.ts'

/** The 44 event types a v0 reader pinned at the upstream commit understands. */
export const V0_PINNED_TYPES: ReadonlySet<string> = new Set([
  'agent-preset/selected', 'agent/inbox/spliced',
  'approval/asked', 'approval/decided', 'approval/policy',
  'assistant/chunk', 'assistant/message',
  'command/done', 'command/run',
  'compaction/end', 'compaction/prune', 'compaction/start', 'compaction/summary',
  'feedback/record', 'goal/change',
  'hook/invoked', 'hook/result',
  'llm/retry', 'llm/retry-started',
  'permission/preset', 'plan/mode',
  'request/context', 'request/header',
  'sandbox/mode', 'schedule/change',
  'session/end-seed', 'session/title', 'session/title-llm-request',
  'step/end', 'step/start',
  'subagent/descriptor', 'todo/write',
  'tool-workflow/agent-end', 'tool-workflow/agent-start', 'tool-workflow/run-end', 'tool-workflow/run-start',
  'tool/call', 'tool/code-dispatch', 'tool/code-dispatch-start', 'tool/result',
  'turn/end', 'turn/start',
  'user/message',
  'web/deepseek-search-llm-request',
])

/** VOC-16: the four types upstream added after the pinned commit without a version bump. */
export const V0_RC8_TYPES: ReadonlySet<string> = new Set([
  ...V0_PINNED_TYPES, 'team/member', 'team/message/queued', 'team/message/delivered', 'team/task',
])

const SURFACE_EVENT_TYPES: ReadonlySet<string> = new Set(['user/message', 'assistant/message', 'tool/result'])

export function isSurfaceEligibleType(type: string): boolean {
  return SURFACE_EVENT_TYPES.has(type)
}

/** The message a surface event carries: `data` itself for user/message, `data.message` otherwise. */
export function messageOf(type: unknown, data: unknown): unknown {
  if (type === 'user/message') return data
  return isRecord(data) ? data['message'] : undefined
}

function hasProviderAndModel(record: JsonRecord): boolean {
  return isNonEmptyString(record['provider']) && isNonEmptyString(record['model'])
}

function toolResultFault(message: JsonRecord, source: JsonRecord): Fault | undefined {
  if (source['kind'] !== 'tool' || !isNonEmptyString(source['callId'])) {
    return fault('MESSAGE_SOURCE_INVALID', 'a tool/result message needs source {kind:"tool", callId}')
  }
  const content = message['content'] as unknown[]
  const block = content[0]
  if (content.length !== 1 || !isRecord(block) || block['type'] !== 'tool-result' || !Array.isArray(block['content'])) {
    return fault('MESSAGE_CONTENT_INVALID', 'a tool/result message holds exactly one tool-result block with array content')
  }
  if (block['toolCallId'] !== source['callId']) {
    return fault('MESSAGE_CALL_ID_MISMATCH', 'the tool-result block answers another call than its source')
  }
  return undefined
}

/** Message-shape checks (id, role, source, content, then per-type rules) of a surface event. */
export function messageShapeFault(type: string, data: unknown): Fault | undefined {
  if (!isSurfaceEligibleType(type)) return undefined
  const message = messageOf(type, data)
  if (!isRecord(message) || !isNonEmptyString(message['id'])) {
    return fault('MESSAGE_ID_INVALID', `${type} lacks a message with a non-empty string id`)
  }
  const role = type === 'assistant/message' ? 'assistant' : 'user'
  if (message['role'] !== role) return fault('MESSAGE_ROLE_INVALID', `${type} message must have role "${role}"`)
  const source = message['source']
  if (!isRecord(source) || !isNonEmptyString(source['kind'])) {
    return fault('MESSAGE_SOURCE_INVALID', `${type} message source needs a non-empty string kind`)
  }
  if (!Array.isArray(message['content'])) return fault('MESSAGE_CONTENT_INVALID', `${type} message content must be an array`)
  if (type === 'assistant/message') {
    return source['kind'] === 'model' && hasProviderAndModel(source)
      ? undefined
      : fault('MESSAGE_SOURCE_INVALID', 'an assistant message needs source {kind:"model", provider, model}')
  }
  return type === 'tool/result' ? toolResultFault(message, source) : undefined
}
