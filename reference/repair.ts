/**
 * Chapter 12: crash repair. When the log ends inside a turn, repair computes the closers that make
 * it balanced: one synthetic error result per tool call the model asked for and never got an answer
 * to, then `step/end` if a step is open, then `turn/end {kind:'interrupted'}`.
 */
import { isRecord, type JsonRecord } from './lossless-json.ts'
import { messageOf } from './vocabulary.ts'
import type { SessionEvent } from './envelope.ts'

export const TOOL_NOT_STARTED = 'TOOL_NOT_STARTED'
export const TOOL_OUTCOME_UNKNOWN = 'TOOL_OUTCOME_UNKNOWN'

const OUTCOME_UNKNOWN_TEXT = 'The tool call was interrupted after it was recorded, but no result was durably recorded. '
  + 'Its outcome is unknown. Decide whether to retry from the tool semantics: retry only if the operation is '
  + 'read-only or idempotent; if it may have side effects, first verify external state or ask the user. Do not retry blindly.'
const NOT_STARTED_TEXT = 'The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed.'

/** A call the model asked for (a tool-call block) that no result has answered yet. */
interface PendingCall {
  step: unknown
  callSeq?: number
}

interface RepairScan {
  openTurn: unknown
  openStep: unknown
  /** Keyed by the block's id as written (ids are not coerced to strings). */
  pending: Map<unknown, PendingCall>
}

function field(data: unknown, key: string): unknown {
  return isRecord(data) ? data[key] : undefined
}

function toolCallBlockIds(event: SessionEvent): unknown[] {
  const content = field(messageOf(event.type, event.data), 'content')
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: load checks that an assistant message's content is an array
  if (!Array.isArray(content)) return []
  return content.filter(isRecord).filter(block => block['type'] === 'tool-call').map(block => block['id'])
}

function scanEvent(scan: RepairScan, event: SessionEvent): void {
  switch (event.type) {
    case 'turn/start':
      scan.openTurn = field(event.data, 'turn')
      scan.openStep = null
      scan.pending.clear()
      return
    case 'turn/end':
      scan.openTurn = null
      scan.openStep = null
      scan.pending.clear()
      return
    case 'step/start':
      scan.openStep = field(event.data, 'step')
      return
    case 'step/end':
      scan.openStep = null
      scan.pending.clear()
      return
    case 'assistant/message':
      // Re-registering an id keeps its place in the map but forgets an earlier tool/call.
      for (const id of toolCallBlockIds(event)) scan.pending.set(id, { step: field(event.data, 'step') })
      return
    case 'tool/call': {
      const entry = scan.pending.get(field(event.data, 'callId'))
      if (entry !== undefined) entry.callSeq = event.seq
      return
    }
    case 'tool/result':
      scan.pending.delete(field(field(messageOf(event.type, event.data), 'source'), 'callId'))
      return
    // Stryker disable next-line ConditionalExpression: falling out of the switch returns as the empty default does
    default:
      return
  }
}

function syntheticResult(callId: unknown, call: PendingCall, turn: unknown, seq: number, time: number): SessionEvent {
  const started = call.callSeq !== undefined
  const message: JsonRecord = {
    id: `interrupted-tool-result-${String(callId)}-${seq}`,
    role: 'user',
    source: { kind: 'tool', callId },
    content: [{
      type: 'tool-result',
      toolCallId: callId,
      isError: true,
      content: [{ type: 'text', text: started ? OUTCOME_UNKNOWN_TEXT : NOT_STARTED_TEXT }],
    }],
  }
  const error = started
    ? { name: 'ToolOutcomeUnknownError', code: TOOL_OUTCOME_UNKNOWN }
    : { name: 'ToolNotStartedError', code: TOOL_NOT_STARTED }
  return {
    type: 'tool/result',
    seq,
    time,
    // REPAIR-8: a registering message without a step gives a result without one, not an undefined member.
    data: { turn, ...(call.step === undefined ? {} : { step: call.step }), message, error },
    surfaceOp: 'append',
    ...(started ? { sourceEventSeqs: [call.callSeq] } : {}),
  }
}

/** The closers for a loaded log; empty when no turn is open at its end. */
export function repairClosers(events: readonly SessionEvent[]): SessionEvent[] {
  const scan: RepairScan = { openTurn: null, openStep: null, pending: new Map() }
  for (const event of events) scanEvent(scan, event)
  const last = events.at(-1)
  // Stryker disable next-line ConditionalExpression: an empty log never opens a turn
  if (scan.openTurn === null || last === undefined) return []
  let seq = last.seq + 1
  const time = last.time
  const closers: SessionEvent[] = []
  for (const [callId, call] of scan.pending) closers.push(syntheticResult(callId, call, scan.openTurn, seq++, time))
  if (scan.openStep !== null) closers.push({ type: 'step/end', seq: seq++, time, data: { turn: scan.openTurn, step: scan.openStep } })
  // Stryker disable next-line UpdateOperator: the counter is not read after the last closer
  closers.push({ type: 'turn/end', seq: seq++, time, data: { turn: scan.openTurn, reason: { kind: 'interrupted' } } })
  return closers
}
