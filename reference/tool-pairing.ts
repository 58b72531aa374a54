/**
 * Chapter 10: tool call / result pairing. An append-origin `tool/result` must answer a `tool/call`
 * pending in the open step, unless it is a not-started result (marked by isError and error code).
 * The pending set is immutable here: each accepted event yields a new one, sharing the old one's
 * structure (string-set.ts), so that keeping a version per event costs O(log n) per call, not O(n).
 */
import { fault, type Fault } from './result.ts'
import { isRecord } from './lossless-json.ts'
import { TOOL_NOT_STARTED } from './repair.ts'
import { isAppendOrigin } from './turns-and-steps.ts'
import type { SessionEvent } from './envelope.ts'
import { emptyStringSet, stringSetAdd, stringSetDelete, stringSetHas, type StringSet } from './string-set.ts'

export type PendingCalls = StringSet

export const noPendingCalls: PendingCalls = emptyStringSet

function answeredCallId(event: SessionEvent): string | undefined {
  const message = isRecord(event.data) ? event.data['message'] : undefined
  const source = isRecord(message) ? message['source'] : undefined
  const callId = isRecord(source) ? source['callId'] : undefined
  // Stryker disable next-line ConditionalExpression: load checks that a tool/result source.callId is a non-empty string
  return typeof callId === 'string' ? callId : undefined
}

/** PAIR-5: both marks of a synthetic not-started result. */
function isNotStartedResult(event: SessionEvent): boolean {
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: load checks that a tool/result's data is an object holding its message
  if (!isRecord(event.data)) return false
  const message = event.data['message']
  const content = isRecord(message) ? message['content'] : undefined
  const block: unknown = Array.isArray(content) ? content[0] : undefined
  const error = event.data['error']
  return isRecord(block) && block['isError'] === true && isRecord(error) && error['code'] === TOOL_NOT_STARTED
}

/** PAIR-2..5: the pairing check of an event that already passed the chapter 09 checks. */
export function pairingFault(pending: PendingCalls, event: SessionEvent): Fault | undefined {
  if (event.type !== 'tool/result' || !isAppendOrigin(event)) return undefined
  const callId = answeredCallId(event)
  // Stryker disable next-line ConditionalExpression: the pending set holds only strings, so with callId !== undefined taken as true an undefined callId is still not pending
  if (callId !== undefined && stringSetHas(pending, callId)) return undefined
  if (isNotStartedResult(event)) return undefined
  return fault('TOOL_RESULT_ORPHAN', `tool/result answers ${String(callId)}, which is not pending in the open step`)
}

/** PAIR-1: how an accepted event changes the pending set. */
export function nextPendingCalls(pending: PendingCalls, event: SessionEvent): PendingCalls {
  switch (event.type) {
    case 'tool/call': {
      const callId = isRecord(event.data) ? event.data['callId'] : undefined
      // Stryker disable next-line ConditionalExpression: load checks that tool/call data.callId is a non-empty string (TURN-1)
      return typeof callId === 'string' ? stringSetAdd(pending, callId) : pending
    }
    case 'tool/result': {
      const callId = answeredCallId(event)
      if (!isAppendOrigin(event) ||
        // Stryker disable next-line ConditionalExpression: load checks that a tool/result source.callId is a non-empty string, so it is never undefined here
        callId === undefined) return pending
      return stringSetDelete(pending, callId)
    }
    case 'step/end':
      return noPendingCalls
    default:
      return pending
  }
}
