// Known-bad readers from a third planted-bug review of `load` and `surface` (chapters 05-07): each
// passed every vector then, because the cases that would catch it were `append` cases, which a
// reader-only port skips, or because no case at all read a replace op that is no ordinary object, a
// surface that shrank before an append, an inner node of a shadowed run named again, a padded type
// name, or a rewrite changing a member the spec does not name. Each bends `load` (and `surface` where
// a case folds) the way the bug reads the log; `append` stays the reference's.
import type { SessionEvent } from '../../reference/envelope.ts'
import { provenanceFault } from '../../reference/provenance.ts'
import { rewriteFault } from '../../reference/tool-result-rewrites.ts'
import { vocabularyNamed } from '../../reference/unknown-types.ts'
import { isSurfaceEligibleType } from '../../reference/vocabulary.ts'
import type { OperationResult } from '../../conformance/expectations.ts'
import { loadReading } from './reader-review.ts'
import { rewritesRead, type Reading } from './surface-review.ts'
import {
  accepted, citationsOf, copiedByAssignment, isRecord, loadedEvents, readOr, recordAt, recordsOf, ref, rejected,
  type Input, type KnownBad, type Patch, type SyncOperation,
} from './wrap.ts'

type EventRecord = Record<string, unknown>

/** `load` and `surface` reading every record as `edit` makes it (a record it cannot read stays as it is). */
function readingRecords(edit: (record: EventRecord, input: Input) => EventRecord): Patch {
  const read = (input: Input) => (record: EventRecord): EventRecord => readOr(() => edit(record, input), record)
  return {
    load: input => loadReading(read(input))(input),
    surface: input => ref.surface({ ...input, events: recordsOf(input).map(record => (isRecord(record) ? read(input)(record) : record)) }),
  }
}

/** A surfaceOp object that is no `instanceof Object` (a null prototype, another realm) read as no object at all: the grammar finds null. */
function withOpNotInstanceOfObject(record: EventRecord): EventRecord {
  const op = record['surfaceOp']
  return typeof op === 'object' && op !== null && !Array.isArray(op) && !(op instanceof Object) ? { ...record, surfaceOp: null } : record
}

/** A replace object read as the own members of its copy made member by member: an own `__proto__` member becomes the copy's prototype and vanishes. */
function withOpCopiedByAssignment(record: EventRecord): EventRecord {
  const op = record['surfaceOp']
  return isRecord(op) && Object.hasOwn(op, '__proto__') ? { ...record, surfaceOp: { ...(copiedByAssignment(op) as EventRecord) } } : record
}

/** A type that is a surface type once trimmed read as that type (SURF-1 compared after trimming). */
function withTypeTrimmed(record: EventRecord): EventRecord {
  const type = record['type']
  return typeof type === 'string' && type.trim() !== type && isSurfaceEligibleType(type.trim()) ? { ...record, type: type.trim() } : record
}

/** A known log-only event marked ignorable read without its surface markers: the eligibility check (SURF-1) skips every ignorable event. */
function withIgnorableMarkersDropped(record: EventRecord, input: Input): EventRecord {
  const type = record['type']
  const known = vocabularyNamed(input['vocabulary'])
  if (record['ignorable'] !== true || typeof type !== 'string' || known?.has(type) !== true || isSurfaceEligibleType(type)) return record
  const { surfaceOp: _op, sourceEventSeqs: _sources, ...rest } = record
  return rest
}

/** A citation list with its null elements skipped as holes; a list of nulls alone reads as no list. */
function withNullCitationsSkipped(record: EventRecord): EventRecord {
  const sources = record['sourceEventSeqs']
  if (!Array.isArray(sources) || !sources.includes(null)) return record
  const kept = sources.filter(source => source !== null)
  if (kept.length > 0) return { ...record, sourceEventSeqs: kept }
  const { sourceEventSeqs: _sources, ...rest } = record
  return rest
}

/** A citation object with a numeric length read as the list Array.from makes of it (PROV-1 tested through `length`). */
function withArrayLikeCitationsAsList(record: EventRecord): EventRecord {
  const sources = record['sourceEventSeqs']
  if (!isRecord(sources)) return record
  const length = sources['length']
  return typeof length === 'number' && Number.isSafeInteger(length) && length >= 0 && length <= 1000 ? { ...record, sourceEventSeqs: Array.from(sources as unknown as ArrayLike<unknown>) } : record
}

const ENDPOINT_FAULTS_AFTER_PROVENANCE = ['SURFACE_REPLACE_END_NOT_FOUND', 'SURFACE_REPLACE_REVERSED']

/** load looking up a replace's start, then checking its citations (PROV-8 steps 1-5), and only then its end and order. */
const provenanceBeforeEnd: SyncOperation = input => {
  const result = ref.load(input)
  if (result.ok || !ENDPOINT_FAULTS_AFTER_PROVENANCE.includes(result.error.code)) return result
  const record = recordAt(input, result.error.seq, false)
  const found = record === undefined ? undefined : readOr(() => provenanceFault(record as unknown as SessionEvent, []), undefined)
  return found === undefined ? result : rejected(found.code, result.error.seq)
}

/** The index of the record with this seq in the input, or -1. */
function indexOfSeq(records: readonly unknown[], seq: number | undefined): number {
  return seq === undefined ? -1 : records.findIndex(record => isRecord(record) && record['seq'] === seq)
}

/** The loaded events before the record a result rejects (all of them when it accepts), or undefined when there is no such prefix. */
function eventsBefore(input: Input, records: readonly unknown[], result: OperationResult): { index: number; events: EventRecord[] } | undefined {
  const index = result.ok ? records.length : indexOfSeq(records, result.error.seq)
  const events = index === -1 ? undefined : loadedEvents({ ...input, events: records.slice(0, index) })
  return events === undefined ? undefined : { index, events }
}

/** load also refusing a tool/result rewrite that cites anything but the one node it shadows, as if PROV-11 bound a reader. */
const rewritesCiteTheirTargetOnly: SyncOperation = input => {
  const result = ref.load(input)
  const before = eventsBefore(input, recordsOf(input), result)
  const folded = before === undefined ? undefined : ref.surface({ ...input, events: before.events })
  if (folded === undefined || !folded.ok) return result
  const replacements = (folded.value as { replacements: { seq: number; shadowedSeqs: number[] }[] }).replacements
  for (const { seq, shadowedSeqs } of replacements) {
    const event = before!.events.find(loaded => loaded['seq'] === seq)
    const cited = citationsOf(event)
    if (event?.['type'] === 'tool/result' && !(cited.length === 1 && cited[0] === shadowedSeqs[0])) return rejected('PROVENANCE_INCOMPLETE', seq)
  }
  return result
}

/** A port's surface: its list of current nodes, their order keys, and the seqs it wrongly keeps as nodes. */
interface PortSurface {
  nodes: number[]
  keys: Map<number, number>
  stale: Set<number>
}

/** An appended node's order key, from the append counter and the current surface length. */
type AppendKey = (counter: number, length: number) => number

/** A port's refusal of a replace the reference accepted, or undefined. */
type Judge = (seq: number, start: number, end: number, surface: PortSurface) => OperationResult | undefined

/** The port's surface after the loaded `events` (a replacing node keeps its start's key; `judge` may refuse a replace first). */
function portSurface(events: readonly EventRecord[], appendKey: AppendKey, judge?: Judge): { surface: PortSurface; refused?: OperationResult } {
  const surface: PortSurface = { nodes: [], keys: new Map(), stale: new Set() }
  let counter = 0
  for (const event of events) {
    const op = event['surfaceOp']
    const seq = event['seq'] as number
    if (op === 'append') {
      surface.keys.set(seq, appendKey(counter++, surface.nodes.length))
      surface.nodes.push(seq)
    }
    if (!isRecord(op)) continue
    const start = op['start'] as number
    const end = op['end'] as number
    const refused = judge?.(seq, start, end, surface)
    if (refused !== undefined) return { surface, refused }
    const from = surface.nodes.indexOf(start)
    const to = surface.nodes.indexOf(end)
    if (from === -1 || to < from) continue
    for (const inner of surface.nodes.slice(from + 1, to)) surface.stale.add(inner)
    surface.nodes.splice(from, to - from + 1, seq)
    surface.keys.set(seq, surface.keys.get(start)!)
  }
  return { surface }
}

/** The answer to the bug's reading of one rejected record: a record to load in its place, or the port's own rejection. */
type Reread = (record: EventRecord, error: { code: string; seq: number }, before: { events: EventRecord[]; surface: PortSurface }) => EventRecord | OperationResult | undefined

/**
 * load as a port whose surface keys nodes by `appendKey` reads the log: each rejection `reread` answers
 * is replaced by its answer (a record loaded in place of the stored one, returned as stored), and a
 * replace `judge` refuses in the accepted part is refused.
 */
function loadByPortSurface(appendKey: AppendKey, reread: Reread, judge?: Judge): SyncOperation {
  return input => {
    const stored = recordsOf(input)
    let records = stored
    for (;;) {
      const result = ref.load({ ...input, events: records })
      const before = eventsBefore(input, records, result)
      if (before === undefined) return result
      const { surface, refused } = portSurface(before.events, appendKey, judge)
      if (refused !== undefined) return refused
      if (result.ok) return accepted((result.value as unknown[]).map((event, index) => (records[index] === stored[index] ? event : stored[index])))
      const record = records[before.index]
      if (!isRecord(record) || record !== stored[before.index]) return result
      const answer = reread(record, { code: result.error.code, seq: result.error.seq! }, { events: before.events, surface })
      if (answer === undefined) return result
      if ('ok' in answer && typeof answer['ok'] === 'boolean') return answer as OperationResult
      records = records.with(before.index, answer)
    }
  }
}

/** The endpoints of a stored record's replace, if it is a replace object with number endpoints. */
function endpointsOf(record: EventRecord): { start: number; end: number } | undefined {
  const op = record['surfaceOp']
  return isRecord(op) && typeof op['start'] === 'number' && typeof op['end'] === 'number' ? { start: op['start'], end: op['end'] } : undefined
}

/** The surface length as an appended node's key, so one appended after a shrinking replace may not sort after every node. */
const keyFromLength: AppendKey = (_counter, length) => length

/** A replace the length keys put in order, read as reversed. */
const reversedByLengthKeys: Judge = (seq, start, end, surface) =>
  surface.keys.get(start)! > surface.keys.get(end)! ? rejected('SURFACE_REPLACE_REVERSED', seq) : undefined

/** A reversed replace the length keys put in order, walked from its start to the end of the list. */
const walkedToTheTail: Reread = (record, error, { surface }) => {
  const op = endpointsOf(record)
  if (error.code !== 'SURFACE_REPLACE_REVERSED' || op === undefined || surface.keys.get(op.start)! > surface.keys.get(op.end)!) return undefined
  return { ...record, surfaceOp: { op: 'replace', start: op.start, end: surface.nodes.at(-1) } }
}

/** The reference's order keys: the append counter. */
const keyFromCounter: AppendKey = counter => counter

/**
 * A replace naming an inner node of an earlier run, which the port still holds (it removed only the run's
 * endpoints): ordered by its old key, checked against its endpoints as its run, and then accepted
 * without changing the list (the port links it between stale neighbours).
 */
const innerNodesStillFound: Reread = (record, error, { events, surface }) => {
  const op = endpointsOf(record)
  if (op === undefined || !['SURFACE_REPLACE_START_NOT_FOUND', 'SURFACE_REPLACE_END_NOT_FOUND'].includes(error.code)) return undefined
  const held = (seq: number): boolean => surface.nodes.includes(seq) || surface.stale.has(seq)
  if (!held(op.start)) return undefined
  if (!held(op.end)) return rejected('SURFACE_REPLACE_END_NOT_FOUND', error.seq)
  if (surface.keys.get(op.start)! > surface.keys.get(op.end)!) return rejected('SURFACE_REPLACE_REVERSED', error.seq)
  const run = op.start === op.end ? [op.start] : [op.start, op.end]
  const event = record as unknown as SessionEvent
  const found = provenanceFault(event, run) ?? rewriteFault(event, run, seq => events.find(loaded => loaded['seq'] === seq) as SessionEvent | undefined)
  if (found !== undefined) return rejected(found.code, error.seq)
  return { type: 'review/unlisted-replace', seq: record['seq'], time: record['time'], data: {}, ignorable: true }
}

/** The named members of a record, those it has, and no others. */
function named(value: unknown, names: readonly string[]): unknown {
  return isRecord(value) ? Object.fromEntries(names.filter(name => Object.hasOwn(value, name)).map(name => [name, value[name]])) : value
}

/** A tool/result's data decoded into structs of the members the spec names: data, message, source and the result block. */
const namedMembersOnly: Reading = data => {
  const message = data['message']
  const read = named(data, ['turn', 'step', 'message', 'error', 'meta']) as EventRecord
  if (!isRecord(message)) return read
  const content = Array.isArray(message['content']) ? message['content'] : undefined
  const readMessage = named(message, ['id', 'role', 'source', 'content']) as EventRecord
  if (isRecord(message['source'])) readMessage['source'] = named(message['source'], ['kind', 'callId'])
  if (content !== undefined) readMessage['content'] = content.map((block, index) => (index === 0 ? named(block, ['type', 'toolCallId', 'isError', 'content']) : block))
  return { ...read, message: readMessage }
}

/** A value with each number in it replaced by `edit` of it. */
function numbersEdited(value: unknown, edit: (number: number) => number): unknown {
  if (typeof value === 'number') return edit(value)
  if (Array.isArray(value)) return value.map(item => numbersEdited(item, edit))
  if (!isRecord(value)) return value
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, numbersEdited(member, edit)]))
}

/** Numbers compared to nine decimal places, as a tolerance of 1e-9 does. */
const numbersToNinePlaces: Reading = data => numbersEdited(data, number => (Math.abs(number) < 1e21 ? Number(number.toFixed(9)) : number)) as EventRecord

/** The data copied member by member before it is compared: a member named `__proto__` becomes the prototype and is no member. */
const copiedForComparison: Reading = data => copiedByAssignment(data) as EventRecord

/** The rewrite comparison of load alone read by `reading` (append compares as the reference does). */
function loadReadingRewrites(reading: Reading): Patch {
  return { load: rewritesRead(reading).load! }
}

export const SURFACE_THIRD_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'replace-op-by-instanceof',
    bug: 'load and surface take a replace op for an object only when it is instanceof Object, so one with a null prototype or from another realm is SURFACE_OP_INVALID',
    caughtBy: ['surf-grammar-null-prototype-op-is-replace', 'surf-grammar-foreign-realm-op-is-replace'],
    patch: readingRecords(withOpNotInstanceOfObject),
  },
  {
    name: 'replace-op-copied-by-assignment',
    bug: 'load and surface copy a replace op member by member before counting its members, so an own __proto__ member vanishes',
    caughtBy: ['surf-grammar-proto-member-is-extra-reader'],
    patch: readingRecords(withOpCopiedByAssignment),
  },
  {
    name: 'append-key-from-surface-length',
    bug: "on load, an appended node's order key is the current surface length, so after a shrinking replace it may not sort after every node",
    caughtBy: ['surf-order-append-after-shrink-is-after-every-node'],
    patch: { load: loadByPortSurface(keyFromLength, walkedToTheTail, reversedByLengthKeys) },
  },
  {
    name: 'replace-removes-endpoints-only',
    bug: 'on load, a replace removes only its start and end from the set of current nodes, so an inner node of its run is still found',
    caughtBy: ['surf-replace-inner-node-of-run-is-gone-start', 'surf-replace-inner-node-of-run-is-gone-end'],
    patch: { load: loadByPortSurface(keyFromCounter, innerNodesStillFound) },
  },
  {
    name: 'eligible-type-trimmed',
    bug: 'load and surface trim a type before comparing it with the surface-eligible names',
    caughtBy: ['surf-elig-space-padded-type-not-allowed-reader', 'surf-elig-space-padded-type-never-node'],
    patch: readingRecords(withTypeTrimmed),
  },
  {
    name: 'ignorable-log-only-markers-allowed',
    bug: 'load and surface skip the eligibility check for any event marked ignorable, so a known log-only event may carry surface markers',
    caughtBy: ['surf-elig-ignorable-known-log-only-with-surfaceop', 'surf-elig-ignorable-known-log-only-with-sources'],
    patch: readingRecords(withIgnorableMarkersDropped),
  },
  {
    name: 'replace-end-checked-after-citations',
    bug: "on load, a replace's citations are checked before its end is looked up and its order judged",
    caughtBy: ['surf-check-end-missing-beats-null-sources-reader', 'surf-check-reversed-beats-string-sources-reader'],
    patch: { load: provenanceBeforeEnd },
  },
  {
    name: 'citation-null-elements-skipped',
    bug: 'load and surface skip null citations as holes instead of rejecting them as invalid elements',
    caughtBy: ['prov-null-element-after-valid-one-reader'],
    patch: readingRecords(withNullCitationsSkipped),
  },
  {
    name: 'citation-array-like-as-list',
    bug: 'load and surface read a citation object with a numeric length as the list of its indexed members',
    caughtBy: ['prov-array-like-object-not-array-reader'],
    patch: readingRecords(withArrayLikeCitationsAsList),
  },
  {
    name: 'rewrite-must-cite-its-target-only',
    bug: 'on load, a tool/result rewrite citing anything besides the node it shadows is refused as PROVENANCE_INCOMPLETE',
    caughtBy: ['prov-rewrite-cites-call-and-result-loads'],
    patch: { load: rewritesCiteTheirTargetOnly },
  },
  {
    name: 'rewrite-named-members-only',
    bug: 'on load, a rewrite is compared by the members the spec names alone, in its data, message, source and result block',
    caughtBy: [
      'rewr-data-unnamed-member-changed-reader', 'rewr-message-unnamed-member-changed-reader', 'rewr-source-unnamed-member-changed-reader',
      'rewr-block-unnamed-member-changed-reader', 'rewr-data-proto-member-changed-reader',
    ],
    patch: loadReadingRewrites(namedMembersOnly),
  },
  {
    name: 'rewrite-numbers-within-tolerance',
    bug: 'on load, the numbers of a rewrite are compared to nine decimal places',
    caughtBy: ['rewr-data-close-numbers-differ-reader'],
    patch: loadReadingRewrites(numbersToNinePlaces),
  },
  {
    name: 'rewrite-data-copied-by-assignment',
    bug: "on load, a rewrite's data is copied member by member before it is compared, so a member named __proto__ is not compared",
    caughtBy: ['rewr-data-proto-member-changed-reader'],
    patch: loadReadingRewrites(copiedForComparison),
  },
]
