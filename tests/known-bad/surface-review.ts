// Known-bad adapters from a planted-bug review of the `surface` operation and of tool-result rewrites
// (chapters 05 and 07): a window check that reads the first event's seq, and rewrite comparisons
// (REWR-3) that a port's typed decoding or its host's strings make looser. Each wraps a reference
// operation: it edits the input the way the bug reads it, or the result the way the bug reports it.
import { isNonNegativeSafeInteger, jsonEqual } from '../../reference/lossless-json.ts'
import { withBlankedResultContent } from '../../reference/tool-result-rewrites.ts'
import {
  accepted, appendedEvent, dataOf, isRecord, recordsOf, ref, rejected, stringsEdited, type KnownBad, type Patch, type SyncOperation,
} from './wrap.ts'

type EventRecord = Record<string, unknown>

/** surface over an empty window from a baseSeq refused: the port compares the missing events[0].seq with the base. */
const emptyWindowRefused: SyncOperation = input => {
  const result = ref.surface(input)
  return result.ok && isNonNegativeSafeInteger(input['baseSeq']) && recordsOf(input).length === 0 ? rejected('ENV_SEQ_NOT_CONTIGUOUS') : result
}

/** How the bug reads a tool/result's data before it compares a rewrite with its original. */
export type Reading = (data: EventRecord) => EventRecord

/** Whether the bug takes a rewrite's data for its original's: equal but for the block content, both read by `reading`. */
function sameAsRead(reading: Reading, original: unknown, rewrite: unknown): boolean {
  return jsonEqual(withBlankedResultContent(reading(dataOf(original))), withBlankedResultContent(reading(dataOf(rewrite))))
}

/** The start seq of a record's replace, if it has one (a tool/result rewrite shadows exactly that node). */
function replacedSeq(record: unknown): unknown {
  const op = isRecord(record) ? record['surfaceOp'] : undefined
  return isRecord(op) ? op['start'] : undefined
}

/**
 * The records with the rewrite at index `at` (load and append reject it at seq `at`) given the data of
 * the node it shadows, so the reference's comparison passes, when the bug reads the two as stored as
 * equal; else undefined.
 */
function forgiven(reading: Reading, stored: readonly unknown[], records: readonly unknown[], at: number | undefined): unknown[] | undefined {
  const start = at === undefined ? undefined : replacedSeq(records[at])
  const from = typeof start === 'number' ? records.findIndex(record => isRecord(record) && record['seq'] === start) : -1
  if (at === undefined || from === -1 || !sameAsRead(reading, stored[from], stored[at])) return undefined
  return records.with(at, { ...(records[at] as EventRecord), data: dataOf(records[from]) })
}

/** load with each rewrite the bug takes for its original accepted; the forgiven rewrites keep their own data in what it returns. */
function loadReadingRewrites(reading: Reading): SyncOperation {
  return input => {
    const stored = recordsOf(input)
    let records: readonly unknown[] = stored
    for (;;) {
      const result = ref.load({ ...input, events: records })
      if (result.ok) return accepted((result.value as EventRecord[]).map((event, index) => (records[index] === stored[index] ? event : { ...event, data: dataOf(stored[index]) })))
      const edited = result.error.code === 'REWRITE_DATA_CHANGED' ? forgiven(reading, stored, records, result.error.seq) : undefined
      if (edited === undefined) return result
      records = edited
    }
  }
}

/** append with each rewrite the bug takes for its original accepted, in the log it reads and as the candidate (the last of the records). */
function appendReadingRewrites(reading: Reading): SyncOperation {
  return input => {
    const stored = [...recordsOf(input), input['candidate']]
    let records: readonly unknown[] = stored
    for (;;) {
      const result = ref.append({ ...input, events: records.slice(0, -1), candidate: records.at(-1) })
      if (result.ok) return records === stored ? result : accepted(appendedEvent(input))
      const edited = result.error.code === 'REWRITE_DATA_CHANGED' ? forgiven(reading, stored, records, result.error.seq) : undefined
      if (edited === undefined) return result
      records = edited
    }
  }
}

/** The rewrite comparison of load and append, both sides read by `reading`. */
export function rewritesRead(reading: Reading): Patch {
  return { load: loadReadingRewrites(reading), append: appendReadingRewrites(reading) }
}

/** error decoded into a struct of its two named fields: only name and code are left to compare. */
const errorByNameAndCode: Reading = data => {
  const error = data['error']
  if (!isRecord(error)) return data
  return { ...data, error: Object.fromEntries(['name', 'code'].filter(name => Object.hasOwn(error, name)).map(name => [name, error[name]])) }
}

/** error as an optional struct: one holding null is no error at all. */
const errorNullAsAbsent: Reading = data => {
  if (data['error'] !== null) return data
  const { error: _error, ...rest } = data
  return rest
}

/** turn and step decoded into integer fields: an absent one reads as 0. */
const absentTurnAsZero: Reading = data => ({ turn: 0, step: 0, ...data })

/** Every string NFC-normalized, as a language whose string equality normalizes compares them. */
const stringsNormalized: Reading = data => stringsEdited(data, text => text.normalize('NFC')) as EventRecord

/** A lone surrogate, high or low, as String.prototype.toWellFormed finds it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Every string made well-formed (lone surrogates as U+FFFD), as a host whose strings must be valid Unicode holds them. */
const stringsWellFormed: Reading = data => stringsEdited(data, text => text.replace(LONE_SURROGATE, '\uFFFD')) as EventRecord

export const SURFACE_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'surface-window-empty-rejected',
    bug: 'surface with a baseSeq over no events is refused as ENV_SEQ_NOT_CONTIGUOUS, as a port reading events[0].seq to check the base does',
    caughtBy: ['surf-order-window-empty'],
    patch: { surface: emptyWindowRefused },
  },
  {
    name: 'rewrite-error-by-name-and-code',
    bug: "load and append compare a rewrite's data.error by its name and code members only",
    caughtBy: ['rewr-data-error-compared-whole'],
    patch: rewritesRead(errorByNameAndCode),
  },
  {
    name: 'rewrite-error-null-as-absent',
    bug: 'load and append take an error holding null for no error when they compare a rewrite',
    caughtBy: ['rewr-data-error-null-vs-absent', 'rewr-data-error-null-vs-absent-reader'],
    patch: rewritesRead(errorNullAsAbsent),
  },
  {
    name: 'rewrite-absent-turn-as-zero',
    bug: 'load and append read an absent data.turn or data.step as 0 when they compare a rewrite',
    caughtBy: ['rewr-data-absent-turn-is-not-zero'],
    patch: rewritesRead(absentTurnAsZero),
  },
  {
    name: 'rewrite-strings-normalized',
    bug: 'load and append compare the strings of a rewrite after NFC normalization',
    caughtBy: ['rewr-data-strings-by-code-unit'],
    patch: rewritesRead(stringsNormalized),
  },
  {
    name: 'rewrite-strings-lossy',
    bug: 'load and append compare the strings of a rewrite with lone surrogates replaced by U+FFFD',
    caughtBy: ['rewr-data-strings-by-code-unit'],
    patch: rewritesRead(stringsWellFormed),
  },
]
