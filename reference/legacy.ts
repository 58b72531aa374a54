/**
 * Chapter 18 (LEGACY rules): retired types and reasons that are rejected, and the older v0 shapes a
 * reader upgrades to the current ones before validating them. Upgrades build new objects; the
 * records they are given are never changed.
 */
import { fault, type Fault } from './result.ts'
import { hasOnlyKeys, hasOwn, isNonEmptyString, isNonNegativeSafeInteger, isRecord, isSafeInteger, type JsonRecord } from './lossless-json.ts'
import { turnEndShapeFault } from './turns-and-steps.ts'

const RETIRED_TYPES: ReadonlySet<string> = new Set(['request/header-delta', 'mode/set'])

/** LEGACY-1, LEGACY-2: retired types, and the retired `fallback` reason of request/header. */
export function legacyRejectionFault(record: unknown): Fault | undefined {
  // Stryker disable next-line ConditionalExpression: without the guard a null record throws when read, and load's phase finds no fault in a record it cannot read (PROC-2), as it finds none here
  if (!isRecord(record)) return undefined
  const type = record['type']
  // Stryker disable next-line ConditionalExpression: the set holds only strings and has() does not convert, so with the type test taken as true a non-string is still not retired
  if (typeof type === 'string' && RETIRED_TYPES.has(type)) return fault('LEGACY_EVENT_TYPE', `the retired type ${type}`)
  if (type === 'request/header' && isRecord(record['data']) && record['data']['reason'] === 'fallback') {
    return fault('LEGACY_FALLBACK_REASON', 'request/header with the retired reason "fallback"')
  }
  return undefined
}

/**
 * LEGACY-3: a writer also rejects `steering/message`, which readers would upgrade to a surface event;
 * LEGACY-5: and a turn/start whose trigger a reader could not upgrade (a well-formed one is kept).
 */
export function writerLegacyFault(candidate: JsonRecord): Fault | undefined {
  if (candidate['type'] === 'steering/message') return fault('LEGACY_EVENT_TYPE', 'a writer does not append steering/message')
  const trigger = candidate['type'] === 'turn/start' ? upgradeTurnStart(candidate) : undefined
  return trigger?.ok === false ? trigger.fault : legacyRejectionFault(candidate)
}

/** What an upgrade needs besides the record: the session id and the message ids of earlier events. */
export interface UpgradeContext {
  sessionId: string
  messageIdBySeq: Pick<ReadonlyMap<number, string>, 'get'>
}

export type Upgraded = { ok: true; record: JsonRecord } | { ok: false; fault: Fault }

/**
 * LEGACY-8. The id of a record whose seq is unusable has no defined text, and such a record fails in the
 * replay phase. It is still a non-empty string, so that the shape phase checks the rest of the message;
 * `typeof` names the seq's kind, since the seq may be an object that cannot be turned into text.
 */
function legacyMessageId(context: UpgradeContext, record: JsonRecord): string {
  const seq = record['seq']
  return `legacy-message:${context.sessionId}:${isNonNegativeSafeInteger(seq) ? seq : typeof seq}`
}

function malformed(what: string): Upgraded {
  return { ok: false, fault: fault('LEGACY_SHAPE_MALFORMED', `malformed legacy ${what}`) }
}

function withData(record: JsonRecord, data: unknown, type?: string): Upgraded {
  return { ok: true, record: { ...record, ...(type === undefined ? {} : { type }), data } }
}

/** LEGACY-5: a turn/start with `trigger` becomes `{turn}`. */
function upgradeTurnStart(record: JsonRecord): Upgraded {
  const data = record['data']
  if (!isRecord(data) || !hasOwn(data, 'trigger')) return { ok: true, record }
  const trigger = data['trigger']
  const turn = data['turn']
  if (!isSafeInteger(turn) || turn < 1 || !hasOnlyKeys(data, ['turn', 'trigger']) || !isRecord(trigger) || !isNonEmptyString(trigger['kind'])) {
    return malformed('turn/start')
  }
  return withData(record, { turn })
}

function currentErrorReason(reason: JsonRecord): JsonRecord {
  if (isRecord(reason['failure'])) return { kind: 'error', error: reason['failure'] }
  return { kind: 'error', error: { message: reason['message'], code: typeof reason['code'] === 'string' ? reason['code'] : 'UNKNOWN' } }
}

/** LEGACY-6: every turn/end is checked strictly (TURN-2), then old reasons become current ones. */
function upgradeTurnEnd(record: JsonRecord): Upgraded {
  const data = record['data']
  const found = turnEndShapeFault(data)
  if (found !== undefined) return { ok: false, fault: found }
  const reason = (data as JsonRecord)['reason'] as JsonRecord
  let current: JsonRecord | undefined
  if (reason['kind'] === 'aborted' && !hasOwn(reason, 'reason')) current = { kind: 'aborted', reason: { kind: 'legacy' } }
  if (reason['kind'] === 'disposed') current = { kind: 'aborted', reason: { kind: 'disposed' } }
  if (reason['kind'] === 'error' && !hasOwn(reason, 'error')) current = currentErrorReason(reason)
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: a turn/end kept as it is has nothing more for the shape phase to check (TURN-2 is checked above) and no message id, so ending its phase there changes nothing
  return current === undefined ? { ok: true, record } : withData(record, { ...(data as JsonRecord), reason: current })
}

/** LEGACY-7: steering/message becomes user/message. */
function upgradeSteering(record: JsonRecord, context: UpgradeContext): Upgraded {
  const data = record['data']
  if (!isRecord(data) || !isSafeInteger(data['turn'])) return malformed('steering/message')
  if (hasOnlyKeys(data, ['turn', 'message']) && isRecord(data['message'])) return withData(record, data['message'], 'user/message')
  if (!hasOnlyKeys(data, ['turn', 'content', 'source'])) return malformed('steering/message')
  const { turn: _turn, ...message } = data
  return withData(record, { ...message, id: legacyMessageId(context, record), role: 'user' }, 'user/message')
}

function replaceStart(record: JsonRecord): unknown {
  const op = record['surfaceOp']
  return isRecord(op) && op['op'] === 'replace' ? op['start'] : undefined
}

/** LEGACY-9..11: message events written before messages had ids and wrappers. */
function upgradeMessageWrapper(record: JsonRecord, context: UpgradeContext): Upgraded {
  const data = record['data']
  if (!isRecord(data)) return { ok: true, record }
  switch (record['type']) {
    case 'user/message':
      if (hasOwn(data, 'id') || hasOwn(data, 'role') || hasOwn(data, 'message') || !hasOwn(data, 'content') || !hasOwn(data, 'source')) return { ok: true, record }
      return withData(record, { ...data, id: legacyMessageId(context, record), role: 'user' })
    case 'assistant/message': {
      if (hasOwn(data, 'message') || !hasOwn(data, 'content') || !hasOwn(data, 'provenance')) return { ok: true, record }
      const { content, provenance, ...rest } = data
      const source = { ...(isRecord(provenance) ? provenance : {}), kind: 'model' }
      return withData(record, { ...rest, message: { id: legacyMessageId(context, record), role: 'assistant', content, source } })
    }
    case 'tool/result': {
      if (hasOwn(data, 'message') || !hasOwn(data, 'callId') || !hasOwn(data, 'content') || !hasOwn(data, 'isError')) return { ok: true, record }
      const { callId, content, isError, ...rest } = data
      const start = replaceStart(record)
      // Ids are recorded under usable seqs only, so -0 finds none, even where seq 0 has one (JSON-3).
      const inherited = isNonNegativeSafeInteger(start) ? context.messageIdBySeq.get(start) : undefined
      const id = typeof start === 'number' ? inherited : legacyMessageId(context, record)
      const block = { type: 'tool-result', toolCallId: callId, content, isError }
      // With no id recorded for the replaced seq the message gets no id, and the shape check rejects it.
      // Stryker disable next-line ConditionalExpression: an id member holding undefined fails the message shape exactly as a missing id does
      const message = { ...(id === undefined ? {} : { id }), role: 'user', content: [block], source: { kind: 'tool', callId } }
      return withData(record, { ...rest, message })
    }
    default:
      return { ok: true, record }
  }
}

/** All upgrades of one record, in the order turn/start, turn/end, steering, message wrappers. */
export function upgradeLegacyShapes(record: JsonRecord, context: UpgradeContext): Upgraded {
  let current: Upgraded = { ok: true, record }
  if (record['type'] === 'turn/start') current = upgradeTurnStart(record)
  else if (record['type'] === 'turn/end') current = upgradeTurnEnd(record)
  else if (record['type'] === 'steering/message') current = upgradeSteering(record, context)
  return current.ok ? upgradeMessageWrapper(current.record, context) : current
}
