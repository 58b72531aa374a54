// Rewrites events of a valid log into the older shapes that readers upgrade (spec chapter 18,
// LEGACY-5 to LEGACY-11): a turn/start with a trigger, the legacy turn/end reasons, steering/message,
// and the message payloads from before messages were wrapped and had ids. Each event that has an older
// shape takes it with even odds. The result is not the same log: the upgrades give messages legacy ids
// and legacy reasons their own meaning, so only a reader's verdict on it says what it holds.
import { chance, pick, type Chooser } from './choices.ts'
import type { Json, JsonObject, LogEvent } from './events.ts'
import { isRecord } from './surface-model.ts'

function hasExactly(value: JsonObject, members: readonly string[]): boolean {
  const keys = Object.keys(value)
  return keys.length === members.length && members.every(member => member in value)
}

/** LEGACY-5: a trigger the upgrade drops. */
function turnStartWithTrigger(data: JsonObject, chooser: Chooser): JsonObject {
  const triggers: JsonObject[] = [{ kind: 'user' }, { kind: 'steering', source: 'cli' }]
  return { ...data, trigger: pick(chooser, triggers) }
}

/** LEGACY-6: the stored reasons that upgrade to the aborted and error reasons of today. */
function olderReason(reason: JsonObject, chooser: Chooser): JsonObject | undefined {
  if (reason['kind'] === 'aborted') return pick(chooser, [{ kind: 'aborted' }, { kind: 'disposed' }])
  const error = reason['error']
  if (reason['kind'] !== 'error' || !isRecord(error) || typeof error['message'] !== 'string' || typeof error['code'] !== 'string') return undefined
  if (chance(chooser, 50)) return { kind: 'error', step: 1, failure: { message: error['message'], code: error['code'] } }
  // Without a code, the upgrade gives the code UNKNOWN.
  return { kind: 'error', step: 0, message: error['message'], ...(chance(chooser, 50) ? { code: error['code'] } : {}) }
}

/** LEGACY-7 and LEGACY-9: a steering message (wrapped or not) or a bare user message. */
function olderUserMessage(event: LogEvent, turn: number, chooser: Chooser): LogEvent {
  const data = event.data as JsonObject
  const { content, source } = data
  const shape = chooser.int(3)
  if (shape === 0) return { ...event, data: { content: content!, source: source! } }
  const steering: JsonObject = shape === 1 ? { turn, message: data } : { turn, content: content!, source: source! }
  return { ...event, type: 'steering/message', data: steering }
}

/**
 * LEGACY-10: the content and provenance of an assistant message before it was wrapped, the provenance
 * with or without its kind. (One that is not an object upgrades to a source without provider and
 * model, which VOC-11 rejects: that case is left to the vectors.)
 */
function olderAssistantMessage(data: JsonObject, message: JsonObject, chooser: Chooser): JsonObject {
  const { message: _message, ...rest } = data
  const source = isRecord(message['source']) ? message['source'] : {}
  const { kind: _kind, ...withoutKind } = source
  return { ...rest, content: message['content']!, provenance: pick(chooser, [withoutKind, source]) }
}

/** LEGACY-11: a tool result's call id, content and error flag before it was wrapped. */
function olderToolResult(data: JsonObject, block: JsonObject): JsonObject {
  const { message: _message, ...rest } = data
  return { ...rest, callId: block['toolCallId']!, content: block['content']!, isError: block['isError']! }
}

/** The single tool-result block of a tool result whose legacy shape can say all it holds. */
function soleResultBlock(message: JsonObject): JsonObject | undefined {
  const content = message['content']
  if (!Array.isArray(content) || content.length !== 1) return undefined
  const block: Json | undefined = content[0]
  return isRecord(block) && hasExactly(block, ['type', 'toolCallId', 'content', 'isError']) ? block : undefined
}

function olderShape(event: LogEvent, turn: number, chooser: Chooser): LogEvent | undefined {
  const data = event.data
  if (!isRecord(data)) return undefined
  const message = data['message']
  switch (event.type) {
    case 'turn/start':
      return hasExactly(data, ['turn']) ? { ...event, data: turnStartWithTrigger(data, chooser) } : undefined
    case 'turn/end': {
      const reason = isRecord(data['reason']) ? olderReason(data['reason'], chooser) : undefined
      return reason === undefined ? undefined : { ...event, data: { ...data, reason } }
    }
    case 'user/message':
      return hasExactly(data, ['id', 'role', 'content', 'source']) ? olderUserMessage(event, turn, chooser) : undefined
    case 'assistant/message':
      return isRecord(message) && 'content' in message ? { ...event, data: olderAssistantMessage(data, message, chooser) } : undefined
    case 'tool/result': {
      const block = isRecord(message) ? soleResultBlock(message) : undefined
      return block === undefined ? undefined : { ...event, data: olderToolResult(data, block) }
    }
    default:
      return undefined
  }
}

function toolResultId(event: LogEvent): Json | undefined {
  if (!isRecord(event) || event.type !== 'tool/result') return undefined
  const message = isRecord(event.data) ? event.data['message'] : undefined
  return isRecord(message) ? message['id'] : undefined
}

/**
 * The log's events, each that has an older shape rewritten into it with even odds. A tool result and
 * its rewrites (they share a message id) change shape together: a rewrite in the older shape
 * inherits its target's id (LEGACY-11), but a current rewrite of an older result would keep an id the
 * upgraded result no longer has.
 */
export function inOlderShapes(events: readonly LogEvent[], chooser: Chooser): LogEvent[] {
  let turn = 0
  const drafts = events.map(event => {
    // A record an operator made no object (envelope-mutations.ts) has no older shape.
    if (!isRecord(event)) return { event, older: undefined }
    if (event.type === 'turn/start' && isRecord(event.data) && typeof event.data['turn'] === 'number') turn = event.data['turn']
    const older = olderShape(event, turn, chooser)
    return { event, older: older !== undefined && chance(chooser, 50) ? older : undefined }
  })
  const resultIdsKept = new Set<Json | undefined>(drafts.filter(draft => draft.older === undefined).map(draft => toolResultId(draft.event)))
  resultIdsKept.delete(undefined)
  return drafts.map(({ event, older }) => (older === undefined || resultIdsKept.has(toolResultId(event)) ? event : older))
}

/** Whether a record holds one of the older shapes LEGACY-5 to LEGACY-11 upgrade (as stored, before any upgrade). */
export function isOlderShape(record: unknown): boolean {
  if (!isRecord(record)) return false
  const data = record['data']
  if (record['type'] === 'steering/message') return true
  if (!isRecord(data)) return false
  const reason = data['reason']
  switch (record['type']) {
    case 'turn/start':
      return 'trigger' in data
    case 'turn/end':
      return isRecord(reason) && ((reason['kind'] === 'aborted' && !('reason' in reason)) || reason['kind'] === 'disposed' || (reason['kind'] === 'error' && !('error' in reason)))
    case 'user/message':
      return !('id' in data) && !('role' in data) && !('message' in data) && 'content' in data && 'source' in data
    case 'assistant/message':
      return !('message' in data) && 'content' in data && 'provenance' in data
    case 'tool/result':
      return !('message' in data) && 'callId' in data && 'content' in data && 'isError' in data
    default:
      return false
  }
}
