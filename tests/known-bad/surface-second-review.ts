// Known-bad readers from a second planted-bug review of the surface fold and its checks (chapters
// 05-07): each passed every vector of those chapters then, because no reader case there read a
// surfaceOp or a type that differs only in case or kind, a window whose first seq is not its base, a
// late citation beside missing coverage, or a replace of one tool/result that only looks like a
// rewrite. Each wraps a reference operation: it edits the input the way the bug reads it, or the
// result the way the bug reports it.
import { isNonNegativeSafeInteger } from '../../reference/lossless-json.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import type { SurfaceValue } from '../../reference/surface.ts'
import { rewriteFault } from '../../reference/tool-result-rewrites.ts'
import { isSurfaceEligibleType } from '../../reference/vocabulary.ts'
import { loadReading } from './reader-review.ts'
import { rewritesRead, type Reading } from './surface-review.ts'
import {
  accepted, citationsOf, dataOf, isRecord, recordsOf, ref, rejected, type KnownBad, type SyncOperation,
} from './wrap.ts'

type EventRecord = Record<string, unknown>
type Rejection = { code: string; seq?: number }

/** The replace object a record carries, if it carries one. */
function replaceOf(record: unknown): EventRecord | undefined {
  const op = isRecord(record) ? record['surfaceOp'] : undefined
  return isRecord(op) ? op : undefined
}

/** The index of the record with this seq in the input, or -1. */
function indexOfSeq(records: readonly unknown[], seq: number | undefined): number {
  return records.findIndex(record => isRecord(record) && record['seq'] === seq)
}

/**
 * load of the records as the bug reads them: while the reference rejects a record that `reread` edits
 * (given the records as read so far), it loads the edited records instead. An edited event is returned as stored.
 */
function loadRereading(reread: (record: EventRecord, error: Rejection, records: readonly unknown[]) => EventRecord | undefined): SyncOperation {
  return input => {
    const stored = recordsOf(input)
    let records = stored
    for (;;) {
      const result = ref.load({ ...input, events: records })
      if (result.ok) return accepted((result.value as unknown[]).map((event, index) => (records[index] === stored[index] ? event : stored[index])))
      const index = indexOfSeq(records, result.error.seq)
      const edited = index === -1 ? undefined : reread(records[index] as EventRecord, result.error, records)
      if (edited === undefined) return result
      records = records.with(index, edited)
    }
  }
}

/** An ignorable record whose type is a surface type but for case, retyped to it: eligibility (SURF-1) folded case. */
function withEligibleTypeFolded(record: EventRecord): EventRecord {
  const type = record['type']
  if (record['ignorable'] !== true || typeof type !== 'string') return record
  const folded = type.toLowerCase()
  return folded !== type && isSurfaceEligibleType(folded) ? { ...record, type: folded } : record
}

/** A surfaceOp array ["replace", start, end] read as the replace object it lists. */
function withTupleAsReplace(record: EventRecord): EventRecord {
  const op = record['surfaceOp']
  if (!Array.isArray(op) || op.length !== 3 || op[0] !== 'replace') return record
  return { ...record, surfaceOp: { op: op[0], start: op[1], end: op[2] } }
}

const DIGITS = /^[0-9]+$/

/** A string of digits read as its number; any other value as it is. */
function digitsAsNumber(value: unknown): unknown {
  return typeof value === 'string' && DIGITS.test(value) ? Number(value) : value
}

/** A replace whose start or end is a string of digits read with that number. */
function withDigitEndpointsAsNumbers(record: EventRecord): EventRecord {
  const op = replaceOf(record)
  const read = (name: string, value: unknown): unknown => (name === 'start' || name === 'end' ? digitsAsNumber(value) : value)
  if (op === undefined || Object.entries(op).every(([name, value]) => read(name, value) === value)) return record
  return { ...record, surfaceOp: Object.fromEntries(Object.entries(op).map(([name, value]) => [name, read(name, value)])) }
}

/** The surfaceOp string, or a replace's op, lower-cased before the grammar (SURF-2) compares it; a record with no capitals in them as it is. */
function withSurfaceOpCaseFolded(record: EventRecord): EventRecord {
  const op = record['surfaceOp']
  if (typeof op === 'string' && op !== op.toLowerCase()) return { ...record, surfaceOp: op.toLowerCase() }
  const name = replaceOf(record)?.['op']
  return typeof name === 'string' && name !== name.toLowerCase() ? { ...record, surfaceOp: { ...(op as EventRecord), op: name.toLowerCase() } } : record
}

/** A citation list given as a non-array object read as the list of its member values. */
function withObjectCitationsAsValues(record: EventRecord): EventRecord {
  const sources = record['sourceEventSeqs']
  return isRecord(sources) ? { ...record, sourceEventSeqs: Object.values(sources) } : record
}

/** The seqs a replace shadows (SURF-6): the run of `nodes` from its start to its end. */
function shadowedBy(op: EventRecord, nodes: readonly number[]): number[] {
  return nodes.slice(nodes.indexOf(op['start'] as number), nodes.indexOf(op['end'] as number) + 1)
}

/** PROV-8 with coverage (step 6) before not-earlier (step 5): a late citation on a replace that misses a shadowed seq is reported as incomplete. */
const coverageBeforeLateness: SyncOperation = input => {
  const result = ref.load(input)
  if (result.ok || result.error.code !== 'PROVENANCE_NOT_EARLIER') return result
  const records = recordsOf(input)
  const index = indexOfSeq(records, result.error.seq)
  const op = replaceOf(records[index])
  if (op === undefined) return result
  const before = ref.surface({ ...input, events: records.slice(0, index) })
  if (!before.ok) return result
  const cited = citationsOf(records[index] as EventRecord)
  const uncovered = shadowedBy(op, (before.value as SurfaceValue).nodes).some(seq => !cited.includes(seq))
  return uncovered ? rejected('PROVENANCE_INCOMPLETE', result.error.seq) : result
}

/** surface of a window based at its first event's own seq whenever a baseSeq is given, so baseSeq is never checked. */
const baseFromFirstSeq: SyncOperation = input => {
  const first = recordsOf(input)[0]
  const seq = isRecord(first) ? first['seq'] : undefined
  return ref.surface(isNonNegativeSafeInteger(input['baseSeq']) && isNonNegativeSafeInteger(seq) ? { ...input, baseSeq: seq } : input)
}

/** surface reporting a record with no usable seq (PROC-1: its index) at baseSeq plus that index. */
const indexOffsetByBase: SyncOperation = input => {
  const result = ref.surface(input)
  const base = input['baseSeq']
  const records = recordsOf(input)
  if (result.ok || result.error.seq === undefined || result.error.seq >= records.length || !isNonNegativeSafeInteger(base)) return result
  const record = records[result.error.seq]
  return isRecord(record) && isNonNegativeSafeInteger(record['seq']) ? result : rejected(result.error.code, base + result.error.seq)
}

/** A tool/result replace the span check refused read as one node when its endpoint seqs differ by at most 1: it then replaces its start alone. */
function spanByEndpointDistance(record: EventRecord, error: Rejection): EventRecord | undefined {
  const op = replaceOf(record)
  if (error.code !== 'REWRITE_SPAN_INVALID' || op === undefined || Math.abs((op['end'] as number) - (op['start'] as number)) > 1) return undefined
  return { ...record, surfaceOp: { ...op, end: op['start'] } }
}

/** A rewrite of a rewrite taken as unchanged: its data read as the data of the rewrite it shadows. */
function chainedRewriteUnchecked(record: EventRecord, error: Rejection, records: readonly unknown[]): EventRecord | undefined {
  if (error.code !== 'REWRITE_DATA_CHANGED') return undefined
  const shadowed = records[indexOfSeq(records, replaceOf(record)?.['start'] as number)]
  return replaceOf(shadowed) === undefined ? undefined : { ...record, data: dataOf(shadowed) }
}

/** load also refusing, as a rewrite (REWR-6), a user or assistant replace whose first shadowed node is a tool/result. */
const rewriteChecksOnAnyReplace: SyncOperation = input => {
  const result = ref.load(input)
  const folded = ref.surface(input)
  if (!result.ok || !folded.ok) return result
  const events = result.value as SessionEvent[]
  const eventAt = (seq: number): SessionEvent | undefined => events.find(event => event.seq === seq)
  for (const { seq, shadowedSeqs } of (folded.value as SurfaceValue).replacements) {
    const event = eventAt(seq)!
    if (event.type === 'tool/result' || eventAt(shadowedSeqs[0]!)?.type !== 'tool/result') continue
    const found = rewriteFault({ ...event, type: 'tool/result' }, shadowedSeqs, eventAt)
    if (found !== undefined) return rejected(found.code, seq)
  }
  return result
}

/** A JSON value's text with members in name order: equal texts for equal values. */
function textInNameOrder(value: unknown): string {
  return JSON.stringify(value, (_name, member: unknown) => (isRecord(member) ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : 1))) : member))
}

/** A value with every array in it sorted by its elements' texts: equal for arrays equal as multisets. */
function withArraysSorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withArraysSorted).sort((a, b) => (textInNameOrder(a) < textInNameOrder(b) ? -1 : 1))
  if (!isRecord(value)) return value
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, withArraysSorted(member)]))
}

const arraysAsMultisets: Reading = data => withArraysSorted(data) as EventRecord

export const SURFACE_SECOND_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'eligible-type-case-folded',
    bug: 'on load, an ignorable type equal to a surface type but for case (User/message) is a surface type',
    caughtBy: ['surf-elig-type-compared-exactly-reader', 'surf-elig-type-exact-unmarked-not-node'],
    patch: { load: loadReading(withEligibleTypeFolded) },
  },
  {
    name: 'surface-op-case-folded',
    bug: 'on load, the surfaceOp string and the op of a replace object are compared case-insensitively',
    caughtBy: ['surf-grammar-append-case-reader', 'surf-grammar-op-case-reader'],
    patch: { load: loadReading(withSurfaceOpCaseFolded) },
  },
  {
    name: 'surface-op-array-as-replace',
    bug: 'on load, a surfaceOp array ["replace", start, end] is read as a replace object',
    caughtBy: ['surf-grammar-array-tuple-reader'],
    patch: { load: loadReading(withTupleAsReplace) },
  },
  {
    name: 'replace-endpoints-digit-strings',
    bug: 'on load, a replace start or end given as a string of digits is read as that number',
    caughtBy: ['surf-grammar-numeric-string-endpoints-reader'],
    patch: { load: loadReading(withDigitEndpointsAsNumbers) },
  },
  // Also fails env-window-wrong-first-seq (chapter 01), outside the review's chapters.
  {
    name: 'window-base-from-first-seq',
    bug: "surface takes a window's base from its first event's seq, never checking the baseSeq given",
    caughtBy: ['surf-window-first-seq-must-be-base'],
    patch: { surface: baseFromFirstSeq },
  },
  // Also fails proc-window-unusable-seq-carries-input-index (chapter 00), outside the review's chapters.
  {
    name: 'window-index-offset-by-base',
    bug: 'surface reports a window record with no usable seq at baseSeq plus its index, not at its index',
    caughtBy: ['surf-window-unusable-seq-carries-index'],
    patch: { surface: indexOffsetByBase },
  },
  {
    name: 'citation-object-as-list',
    bug: 'on load, a citation list given as an object is read as the list of its member values',
    caughtBy: ['prov-not-array-object-reader'],
    patch: { load: loadReading(withObjectCitationsAsValues) },
  },
  {
    name: 'citation-coverage-before-lateness',
    bug: 'on load, a replace citing a later seq and missing a shadowed one is reported incomplete, not as citing late',
    caughtBy: ['prov-order-not-earlier-before-incomplete-reader'],
    patch: { load: coverageBeforeLateness },
  },
  {
    name: 'rewrite-span-by-endpoint-distance',
    bug: 'on load, a rewrite whose start and end seqs differ by at most 1 passes the span check, whatever it shadows',
    caughtBy: ['rewr-span-adjacent-seqs-reader'],
    patch: { load: loadRereading(spanByEndpointDistance) },
  },
  {
    name: 'rewrite-checks-on-any-replace-of-result',
    bug: 'on load, a user or assistant message replacing a tool/result node is held to the rewrite rules',
    caughtBy: ['rewr-user-assistant-replace-one-result-not-rewrite'],
    patch: { load: rewriteChecksOnAnyReplace },
  },
  {
    name: 'chained-rewrite-data-unchecked',
    bug: 'on load, a rewrite of a rewrite is not compared with the rewrite it shadows',
    caughtBy: ['rewr-chain-second-changes-id-reader'],
    patch: { load: loadRereading(chainedRewriteUnchecked) },
  },
  {
    name: 'rewrite-arrays-as-multisets',
    bug: "load and append compare the arrays in a rewrite's data without regard to order",
    caughtBy: ['rewr-eq-reordered'],
    patch: rewritesRead(arraysAsMultisets),
  },
]
