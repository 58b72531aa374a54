/**
 * Chapter 01: the event envelope and seq contiguity. Checks run in the order PROC-3 gives:
 * keys, type, seq, time, data present, ignorable (the record-is-object and lossless-JSON checks
 * come before these and live with their callers).
 */
import { fault, type Fault } from './result.ts'
import { hasOwn, isNonNegativeSafeInteger, isRecord, isSafeInteger, type JsonRecord } from './lossless-json.ts'
import { isRowTag } from './chunk-rows.ts'

/** One event of a log. Payloads stay `unknown` and are narrowed where a chapter reads them. */
export interface SessionEvent {
  type: string
  seq: number
  time: number
  data: unknown
  surfaceOp?: unknown
  sourceEventSeqs?: unknown
  ignorable?: true
}

export const ENVELOPE_KEYS: ReadonlySet<string> = new Set(['type', 'seq', 'time', 'data', 'surfaceOp', 'sourceEventSeqs', 'ignorable'])

/** The members an `append` candidate may have; seq, time and ignorable come from the writer. */
export const CANDIDATE_KEYS: ReadonlySet<string> = new Set(['type', 'data', 'surfaceOp', 'sourceEventSeqs'])

/** The first own key of `record` (a JSON-domain object, so for-in sees exactly its own keys) not in `allowed`. */
export function unknownKeyFault(record: JsonRecord, allowed: ReadonlySet<string>): Fault | undefined {
  for (const key in record) {
    if (!allowed.has(key)) return fault('ENV_UNKNOWN_KEY', `unknown envelope key "${key}"`)
  }
  return undefined
}

/** ENV-3: a string, and not a storage tag, which names a packed chunk row in JSONL text and no event. */
export function typeFault(record: JsonRecord): Fault | undefined {
  const type = record['type']
  if (typeof type !== 'string') return fault('ENV_TYPE_INVALID', 'type must be a string')
  return isRowTag(type) ? fault('ENV_TYPE_INVALID', `type ${type} is a storage tag, which names a packed chunk row, not an event`) : undefined
}

export function dataFault(record: JsonRecord): Fault | undefined {
  // Stryker disable next-line LogicalOperator,ConditionalExpression: an own data member holding undefined is rejected earlier as JSON_UNDEFINED
  return hasOwn(record, 'data') && record['data'] !== undefined ? undefined : fault('ENV_DATA_MISSING', 'data is missing')
}

/** Envelope checks of a stored record, in order; the record is an object in the JSON domain. */
export function envelopeFault(record: JsonRecord): Fault | undefined {
  return unknownKeyFault(record, ENVELOPE_KEYS)
    ?? typeFault(record)
    ?? (isNonNegativeSafeInteger(record['seq']) ? undefined : fault('ENV_SEQ_INVALID', 'seq must be a non-negative safe integer'))
    ?? (isSafeInteger(record['time']) ? undefined : fault('ENV_TIME_INVALID', 'time must be a safe integer'))
    ?? dataFault(record)
    ?? (!hasOwn(record, 'ignorable') || record['ignorable'] === true ? undefined : fault('ENV_IGNORABLE_INVALID', 'ignorable may only be the literal true'))
}

export function contiguityFault(event: SessionEvent, expectedSeq: number): Fault | undefined {
  return event.seq === expectedSeq
    ? undefined
    : fault('ENV_SEQ_NOT_CONTIGUOUS', `seq ${event.seq} is not the expected ${expectedSeq}`)
}

/** The seq an error should carry for a record: its own seq when usable, else its index (PROC-1). */
export function seqForRecord(record: unknown, index: number): number {
  if (!isRecord(record)) return index
  const seq = record['seq']
  return isNonNegativeSafeInteger(seq) ? seq : index
}
