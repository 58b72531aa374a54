/**
 * Chapter 09: turn and step nesting and numbering. The payload shapes (TURN-1, TURN-2) are checked
 * by load and append; the relations (TURN-3..12) run over a loaded log and are pure: a check returns
 * either a fault or the next state, and never changes the state it was given.
 */
import { fault, type Fault } from './result.ts'
import { hasOnlyKeys, hasOwn, isNonEmptyString, isNonNegativeSafeInteger, isRecord, isSafeInteger, type JsonRecord } from './lossless-json.ts'
import type { SessionEvent } from './envelope.ts'

export interface TurnState {
  openTurn: number | null
  openStep: number | null
  /** Number of the last accepted turn/start (0 before the first); the next must be this + 1. */
  lastTurn: number
  nextStep: number
}

export const initialTurnState: TurnState = { openTurn: null, openStep: null, lastTurn: 0, nextStep: 1 }

// ---- TURN-1 and TURN-2: payload shapes -------------------------------------------------------

function isOrdinal(value: unknown): boolean {
  return isSafeInteger(value) && value >= 1
}

const NUMBERED_TYPES: ReadonlySet<string> = new Set(['turn/start', 'step/start', 'step/end', 'assistant/chunk', 'tool/call'])

function invalidPayload(type: string, why: string): Fault {
  return fault('PAYLOAD_INVALID', `${type} ${why}`)
}

/** TURN-1: the turn and step numbers and call id that relations and repair read. */
export function turnPayloadFault(type: string, data: unknown): Fault | undefined {
  if (!NUMBERED_TYPES.has(type)) return undefined
  if (!isRecord(data)) return invalidPayload(type, 'data must be an object')
  if (!isOrdinal(data['turn'])) return invalidPayload(type, 'data.turn must be a safe integer >= 1')
  if (type !== 'turn/start' && !isOrdinal(data['step'])) return invalidPayload(type, 'data.step must be a safe integer >= 1')
  if (type === 'tool/call' && !isNonEmptyString(data['callId'])) return invalidPayload(type, 'data.callId must be a non-empty string')
  return undefined
}

const KIND_ONLY_REASONS: ReadonlySet<string> = new Set(['completed', 'blocked', 'max-tokens', 'interrupted', 'disposed'])

function isLegacyFailure(value: unknown): boolean {
  if (!isRecord(value) || !hasOnlyKeys(value, ['message', 'code'], ['status', 'providerRetryAfterMs', 'requestId'])) return false
  return typeof value['message'] === 'string' && typeof value['code'] === 'string'
    && (!hasOwn(value, 'status') || typeof value['status'] === 'number')
    && (!hasOwn(value, 'providerRetryAfterMs') || typeof value['providerRetryAfterMs'] === 'number')
    && (!hasOwn(value, 'requestId') || typeof value['requestId'] === 'string')
}

function isLegacyErrorReason(reason: JsonRecord): boolean {
  if (!isNonNegativeSafeInteger(reason['step'])) return false
  if (hasOnlyKeys(reason, ['kind', 'step', 'failure'])) return isLegacyFailure(reason['failure'])
  const withCode = hasOwn(reason, 'code')
  const keys = withCode ? ['kind', 'step', 'message', 'code'] : ['kind', 'step', 'message']
  return hasOnlyKeys(reason, keys) && typeof reason['message'] === 'string' && (!withCode || typeof reason['code'] === 'string')
}

function reasonIsAcceptable(reason: JsonRecord): boolean {
  const kind = reason['kind'] as string
  if (KIND_ONLY_REASONS.has(kind)) return hasOnlyKeys(reason, ['kind'])
  if (kind === 'aborted') return hasOwn(reason, 'reason') || hasOnlyKeys(reason, ['kind'])
  if (kind === 'error') return hasOwn(reason, 'error') || isLegacyErrorReason(reason)
  return true
}

/** TURN-2: the stored `turn/end` payload, before any legacy upgrade. */
export function turnEndShapeFault(data: unknown): Fault | undefined {
  const malformed = (why: string): Fault => fault('TURN_END_MALFORMED', `turn/end ${why}`)
  if (!isRecord(data) || !hasOnlyKeys(data, ['turn', 'reason'])) return malformed('data must have exactly turn and reason')
  if (!isOrdinal(data['turn'])) return malformed('turn must be a safe integer >= 1')
  const reason = data['reason']
  if (!isRecord(reason) || typeof reason['kind'] !== 'string') return malformed('reason must be an object with a string kind')
  return reasonIsAcceptable(reason) ? undefined : malformed(`reason of kind "${reason['kind']}" has an unexpected shape`)
}

// ---- relations ---------------------------------------------------------------------------------

type Checked = { ok: true; state: TurnState } | { ok: false; fault: Fault }

const STEP_SCOPED: ReadonlySet<string> = new Set(['step/end', 'assistant/chunk', 'assistant/message', 'tool/call'])
const TURN_SCOPED: ReadonlySet<string> = new Set(['request/header', 'request/context', 'todo/write'])

function field(event: SessionEvent, key: string): unknown {
  return isRecord(event.data) ? event.data[key] : undefined
}

export function isAppendOrigin(event: SessionEvent): boolean {
  return event.surfaceOp === 'append'
}

function failed(code: Fault['code'], message: string): Checked {
  return { ok: false, fault: fault(code, message) }
}

function turnStart(state: TurnState, event: SessionEvent): Checked {
  const turn = field(event, 'turn')
  if (state.openTurn !== null) return failed('TURN_ALREADY_OPEN', `turn/start while turn ${state.openTurn} is open`)
  if (turn !== state.lastTurn + 1) return failed('TURN_NUMBER_INVALID', `turn/start expected turn ${state.lastTurn + 1}`)
  return { ok: true, state: { openTurn: turn as number, openStep: null, lastTurn: turn as number, nextStep: 1 } }
}

function turnEnd(state: TurnState, event: SessionEvent): Checked {
  if (state.openTurn === null) return failed('TURN_NOT_OPEN', 'turn/end with no open turn')
  if (field(event, 'turn') !== state.openTurn) return failed('TURN_END_MISMATCH', `turn/end does not name open turn ${state.openTurn}`)
  if (state.openStep !== null) return failed('TURN_END_STEP_OPEN', `turn/end while step ${state.openStep} is open`)
  return { ok: true, state: { ...state, openTurn: null, openStep: null } }
}

function stepStart(state: TurnState, event: SessionEvent): Checked {
  if (state.openTurn === null) return failed('TURN_NOT_OPEN', 'step/start with no open turn')
  if (field(event, 'turn') !== state.openTurn) return failed('STEP_MISMATCH', `step/start does not name open turn ${state.openTurn}`)
  if (state.openStep !== null) return failed('STEP_ALREADY_OPEN', `step/start while step ${state.openStep} is open`)
  if (field(event, 'step') !== state.nextStep) return failed('STEP_NUMBER_INVALID', `step/start expected step ${state.nextStep}`)
  return { ok: true, state: { ...state, openStep: state.nextStep } }
}

/** TURN-8: step-scoped events, including append-origin tool/result. */
function stepScoped(state: TurnState, event: SessionEvent): Checked {
  if (state.openTurn === null) return failed('TURN_NOT_OPEN', `${event.type} with no open turn`)
  if (state.openStep === null) return failed('STEP_NOT_OPEN', `${event.type} with no open step`)
  if (field(event, 'turn') !== state.openTurn || field(event, 'step') !== state.openStep) {
    return failed('STEP_MISMATCH', `${event.type} does not name open turn ${state.openTurn} step ${state.openStep}`)
  }
  if (event.type !== 'step/end') return { ok: true, state }
  return { ok: true, state: { ...state, openStep: null, nextStep: state.nextStep + 1 } }
}

function turnScoped(state: TurnState, event: SessionEvent): Checked {
  return state.openTurn === null ? failed('TURN_NOT_OPEN', `${event.type} with no open turn`) : { ok: true, state }
}

/** The chapter 09 relation checks of one event (TURN-12 order). */
export function checkTurnRelations(state: TurnState, event: SessionEvent): Checked {
  switch (event.type) {
    case 'turn/start':
      return turnStart(state, event)
    case 'turn/end':
      return turnEnd(state, event)
    case 'step/start':
      return stepStart(state, event)
    case 'tool/result':
      return isAppendOrigin(event) ? stepScoped(state, event) : turnScoped(state, event)
    default:
      if (STEP_SCOPED.has(event.type)) return stepScoped(state, event)
      if (TURN_SCOPED.has(event.type)) return turnScoped(state, event)
      return { ok: true, state }
  }
}
