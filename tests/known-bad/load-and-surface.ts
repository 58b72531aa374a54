// Known-bad readers and writers: load phases, the lossless JSON domain, vocabulary, surface and append.
import { vocabularyNamed } from '../../reference/unknown-types.ts'
import {
  EVENT_OPERATIONS, accepted, appendedEvent, isRecord, recordsOf, ref, rejected, skippingCheck, wrapEach,
  type Input, type KnownBad, type SyncOperation,
} from './wrap.ts'

const READER_OPERATIONS = EVENT_OPERATIONS.filter(name => name !== 'append')

function replaceOp(record: unknown): { start: unknown; end: unknown } | undefined {
  const op = isRecord(record) ? record['surfaceOp'] : undefined
  return isRecord(op) && op['op'] === 'replace' ? { start: op['start'], end: op['end'] } : undefined
}

function isNumericallyReversed(record: unknown): boolean {
  const op = replaceOp(record)
  return op !== undefined && typeof op.start === 'number' && typeof op.end === 'number' && op.start > op.end
}

/** Rejects every replace whose start seq is numerically greater than its end seq. */
function numericOrder(operation: SyncOperation): SyncOperation {
  return input => {
    const result = operation(input)
    if (!result.ok) return result
    const reversed = recordsOf(input).find(isNumericallyReversed)
    if (isRecord(reversed)) return rejected('SURFACE_REPLACE_REVERSED', reversed['seq'] as number)
    if (isRecord(input['candidate']) && isNumericallyReversed(input['candidate'])) return rejected('SURFACE_REPLACE_REVERSED', recordsOf(input).length)
    return result
  }
}

/** The -0 a lax JSON layer reads as 0; everything without one is returned as it is. */
function withoutNegativeZero(value: unknown, seen = new WeakSet<object>()): unknown {
  if (Object.is(value, -0)) return 0
  if (typeof value !== 'object' || value === null || seen.has(value)) return value
  seen.add(value)
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return value
    const copy = value.map(item => withoutNegativeZero(item, seen))
    return copy.some((item, index) => !Object.is(item, value[index])) ? copy : value
  }
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return value
  const entries = Object.entries(value).map(([key, item]) => [key, item, withoutNegativeZero(item, seen)] as const)
  if (entries.every(([, item, copy]) => Object.is(item, copy))) return value
  const copy = Object.create(prototype as object | null) as Record<string, unknown>
  for (const [key, , item] of entries) Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true })
  return copy
}

function acceptingNegativeZero(operation: SyncOperation): SyncOperation {
  return input => {
    const result = operation(input)
    return !result.ok && result.error.code === 'JSON_NEGATIVE_ZERO' ? operation(withoutNegativeZero(input) as Input) : result
  }
}

function withoutIgnorableFlag(input: Input): Input {
  const strip = (record: unknown): unknown => {
    if (!isRecord(record) || record['ignorable'] !== true) return record
    const { ignorable: _ignorable, ...rest } = record
    return rest
  }
  return { ...input, events: recordsOf(input).map(strip) }
}

const SHAPE_PHASE_CODES = new Set([
  'MESSAGE_ID_INVALID', 'MESSAGE_ROLE_INVALID', 'MESSAGE_SOURCE_INVALID', 'MESSAGE_CONTENT_INVALID',
  'MESSAGE_CALL_ID_MISMATCH', 'PAYLOAD_INVALID', 'TURN_END_MALFORMED', 'REQUEST_HEADER_INVALID', 'LEGACY_SHAPE_MALFORMED',
])

/** Runs the vocabulary phase before the shape phase: an unknown type hides a malformed event. */
function vocabularyFirst(operation: SyncOperation): SyncOperation {
  return input => {
    const result = operation(input)
    const known = vocabularyNamed(input['vocabulary'])
    if (result.ok || !SHAPE_PHASE_CODES.has(result.error.code) || known === undefined) return result
    const unknown = recordsOf(input).find(record => isRecord(record) && typeof record['type'] === 'string'
      && !known.has(record['type']) && record['ignorable'] !== true)
    return isRecord(unknown) ? rejected('FORMAT_UNKNOWN_EVENT_TYPE', unknown['seq'] as number) : result
  }
}

const SWAPPED_VERSION_CODES: Record<string, string> = { FORMAT_VERSION_NEWER: 'FORMAT_VERSION_OLDER', FORMAT_VERSION_OLDER: 'FORMAT_VERSION_NEWER' }

function swappedVersionCodes(operation: SyncOperation): SyncOperation {
  return input => {
    const result = operation(input)
    const swapped = result.ok ? undefined : SWAPPED_VERSION_CODES[result.error.code]
    return swapped === undefined || result.ok ? result : { ok: false, error: { ...result.error, code: swapped } }
  }
}

const MESSAGE_SHAPE_CODES = new Set(['MESSAGE_ID_INVALID', 'MESSAGE_ROLE_INVALID', 'MESSAGE_SOURCE_INVALID', 'MESSAGE_CONTENT_INVALID', 'MESSAGE_CALL_ID_MISMATCH'])

export const LOAD_AND_SURFACE_BUGS: KnownBad[] = [
  {
    name: 'numeric-replace-order',
    bug: 'replace endpoints are ordered by seq number instead of surface position',
    caughtBy: ['surf-order-reversed-numeric-after-replace', 'surf-order-chain-numeric-reversed-writer'],
    patch: wrapEach(EVENT_OPERATIONS, numericOrder),
  },
  {
    name: 'replace-endpoints-in-log',
    bug: 'replace endpoints are looked up in the log, so a shadowed endpoint counts as found',
    caughtBy: ['surf-order-start-shadowed-writer', 'surf-order-end-shadowed-reader'],
    patch: skippingCheck((error, record) => {
      const op = replaceOp(record)
      const seq = isRecord(record) && typeof record['seq'] === 'number' ? record['seq'] : error.seq ?? 0
      if (op === undefined) return false
      if (error.code === 'SURFACE_REPLACE_START_NOT_FOUND') return typeof op.start === 'number' && op.start < seq
      return error.code === 'SURFACE_REPLACE_END_NOT_FOUND' && typeof op.end === 'number' && op.end < seq
    }),
  },
  {
    name: 'ignorable-ignored',
    bug: 'readers drop the ignorable flag, so an ignorable unknown event is refused',
    caughtBy: ['unk-ignorable-kept-and-inert', 'env-ignorable-true-on-known-type-kept'],
    patch: wrapEach(READER_OPERATIONS, operation => input => operation(withoutIgnorableFlag(input))),
  },
  {
    name: 'negative-zero-accepted',
    bug: 'the JSON layer reads -0 as 0 instead of rejecting it',
    caughtBy: ['json-negative-zero-load', 'json-negative-zero-append', 'jsonl-seq-negative-zero-load-rejects'],
    patch: wrapEach([...EVENT_OPERATIONS, 'decodeJsonl'], acceptingNegativeZero),
  },
  {
    name: 'vocabulary-before-shapes',
    bug: 'load refuses unknown types before it checks message and payload shapes',
    caughtBy: ['proc-phase-shape-before-vocabulary', 'unk-later-malformed-message-beats-unknown'],
    patch: wrapEach(READER_OPERATIONS, vocabularyFirst),
  },
  {
    name: 'version-refusal-swapped',
    bug: 'a newer format version is reported as older and the other way round',
    caughtBy: ['fmt-version-greater-newer', 'fmt-version-negative-older', 'fmt-jsonl-version-refusal'],
    patch: wrapEach([...EVENT_OPERATIONS, 'decodeJsonl'], swappedVersionCodes),
  },
  {
    name: 'legacy-not-upgraded',
    bug: 'load returns the records as stored instead of their legacy upgrades',
    caughtBy: ['proc-load-returns-upgraded-events', 'legacy-turn-start-trigger-dropped'],
    patch: { load: input => { const result = ref.load(input); return result.ok ? accepted(recordsOf(input)) : result } },
  },
  {
    name: 'append-skips-message-shapes',
    bug: 'a writer appends a malformed message that load would reject',
    caughtBy: ['voc-order-user-message-append', 'proc-append-rejected-message-changes-nothing'],
    patch: {
      append: input => {
        const result = ref.append(input)
        return !result.ok && MESSAGE_SHAPE_CODES.has(result.error.code) ? accepted(appendedEvent(input)) : result
      },
    },
  },
  {
    name: 'provenance-coverage-unchecked',
    bug: 'a replace need not cite every node it shadows',
    caughtBy: ['prov-cover-missing-one-writer', 'prov-cover-absent-reader'],
    patch: skippingCheck(error => error.code === 'PROVENANCE_INCOMPLETE'),
  },
  {
    name: 'record-line-on-rejections',
    bug: 'a rejection of an event names the record\'s 1-based position as its line too, as a port sharing its JSONL reader\'s errors would',
    caughtBy: ['json-negative-zero-load', 'surf-order-start-shadowed-writer'],
    patch: wrapEach(EVENT_OPERATIONS, operation => input => {
      const result = operation(input)
      return result.ok || result.error.seq === undefined ? result : { ok: false, error: { ...result.error, line: result.error.seq + 1 } }
    }),
  },
]
