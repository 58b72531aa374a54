// What every known-bad adapter is built from: the reference's public operations, and small helpers
// that wrap one of them (change its input, its result, or a rejection it reports).
import type { Adapter } from '../../conformance/adapter.ts'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import type { OperationResult } from '../../conformance/expectations.ts'
import type { OperationName } from '../../conformance/vector-cases.ts'
import { compactionState } from '../../reference/compaction.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { reference } from '../../reference/index.ts'

export type Input = Record<string, unknown>
export type SyncOperation = (input: Input) => OperationResult
export type Patch = Partial<Record<OperationName, SyncOperation>>

/** The reference with one classic bug, and the vectors that must keep catching it. */
export interface KnownBad {
  name: string
  bug: string
  /** Vector ids that fail against this adapter; each must stay among its failures. */
  caughtBy: string[]
  patch: Patch
  /**
   * For a bug whose wrong answer is a crash (an implementation failure, never a verdict): the start of
   * its message, which the catching vectors' errors must give.
   */
  crashes?: string
}

export const ref = reference as unknown as Record<OperationName, SyncOperation>

/** The operations that take `events` and load them first. */
export const EVENT_OPERATIONS: readonly OperationName[] = [
  'load', 'append', 'surface', 'messages', 'requestHeader', 'requestContext', 'relations', 'repair',
  'resume', 'compactionState', 'regionBalance', 'fork',
]

/** The same wrapper around each named reference operation. */
export function wrapEach(names: readonly OperationName[], wrap: (operation: SyncOperation) => SyncOperation): Patch {
  return Object.fromEntries(names.map(name => [name, wrap(ref[name])]))
}

export function knownBadAdapter(bad: KnownBad): Adapter {
  return {
    meta: { ...referenceAdapter.meta, name: `known-bad:${bad.name}` },
    operations: { ...referenceAdapter.operations, ...bad.patch },
  }
}

/** A readable non-array object; one that throws when inspected (a revoked proxy) is none, so fakes skip it. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  try {
    return typeof value === 'object' && value !== null && !Array.isArray(value) && Reflect.ownKeys(value).length >= 0
  } catch {
    return false
  }
}

export function accepted(value: unknown): OperationResult {
  return { ok: true, value }
}

export function rejected(code: string, seq?: number): OperationResult {
  return { ok: false, error: { code, ...(seq === undefined ? {} : { seq }), message: 'known-bad adapter' } }
}

/** A rejection naming a line, as a JSONL decoder reports it. */
export function rejectedAtLine(code: string, line: number): OperationResult {
  return { ok: false, error: { code, line, message: 'known-bad adapter' } }
}

export function recordsOf(input: Input): unknown[] {
  return Array.isArray(input['events']) ? input['events'] : []
}

/** The loaded events of an input, or undefined when the reference does not load them. */
export function loadedEvents(input: Input): Record<string, unknown>[] | undefined {
  const result = ref.load(input)
  return result.ok ? result.value as Record<string, unknown>[] : undefined
}

/** The event an append step would produce for its candidate, as the reference builds it. */
export function appendedEvent(input: Input): Record<string, unknown> {
  const { type, data, ...markers } = isRecord(input['candidate']) ? input['candidate'] : {}
  return { type, seq: recordsOf(input).length, time: input['time'], data, ...markers }
}

/** The record a rejection points at: the candidate of an append, else the event with that seq. */
export function recordAt(input: Input, seq: number | undefined, isAppend: boolean): Record<string, unknown> | undefined {
  if (isAppend) return isRecord(input['candidate']) ? input['candidate'] : undefined
  const record = recordsOf(input).find(event => isRecord(event) && event['seq'] === seq)
  return isRecord(record) ? record : undefined
}

export function dataOf(event: unknown): Record<string, unknown> {
  return isRecord(event) && isRecord(event['data']) ? event['data'] : {}
}

/** The call id an append-origin tool/result answers, if the event is one. */
export function answeredCallId(event: unknown): unknown {
  if (!isRecord(event) || event['type'] !== 'tool/result' || event['surfaceOp'] !== 'append') return undefined
  const message = dataOf(event)['message']
  const source = isRecord(message) ? message['source'] : undefined
  return isRecord(source) ? source['callId'] : undefined
}

export type Violation = { code: string; seq: number }

/** `relations`, with the violations that `forgive` excuses dropped (a check the bug skips). */
export function forgivingRelations(forgive: (violation: Violation, events: Record<string, unknown>[]) => boolean): SyncOperation {
  return input => {
    const result = ref.relations(input)
    if (!result.ok) return result
    const events = loadedEvents(input) ?? []
    const violations = (result.value as { violations: Violation[] }).violations
    return accepted({ violations: violations.filter(violation => !forgive(violation, events)) })
  }
}

/** `load` and `append` that accept instead of reporting a rejection `skipped` matches. */
export function skippingCheck(skipped: (error: { code: string; seq?: number }, record: Record<string, unknown> | undefined) => boolean): Patch {
  const skip = (operation: SyncOperation, isAppend: boolean): SyncOperation => input => {
    const result = operation(input)
    if (result.ok || !skipped(result.error, recordAt(input, result.error.seq, isAppend))) return result
    return accepted(isAppend ? appendedEvent(input) : recordsOf(input))
  }
  return { load: skip(ref.load, false), append: skip(ref.append, true) }
}

/** A value with each string in it (member names aside) replaced by `edit` of it, as a host that reads strings its own way holds them. */
export function stringsEdited(value: unknown, edit: (text: string) => string): unknown {
  if (typeof value === 'string') return edit(value)
  if (Array.isArray(value)) return value.map(item => stringsEdited(item, edit))
  if (!isRecord(value)) return value
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, stringsEdited(member, edit)]))
}

/** A deep copy written member by member, as many do by hand: `copy.__proto__ = …` sets its prototype. */
export function copiedByAssignment(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copiedByAssignment)
  if (typeof value !== 'object' || value === null) return value
  const copy: Record<string, unknown> = {}
  for (const [name, member] of Object.entries(value)) copy[name] = copiedByAssignment(member)
  return copy
}

/** The `sourceEventSeqs` of a record, or none. */
export function citationsOf(record: Record<string, unknown> | undefined): unknown[] {
  const sources = record?.['sourceEventSeqs']
  return Array.isArray(sources) ? sources : []
}

type SkippedRejection = Parameters<typeof skippingCheck>[0]

/** A late citation that a check of the last citation alone misses, as if every list were ascending. */
export const lateCitationNotLast: SkippedRejection = (error, record) => {
  const last = citationsOf(record).at(-1)
  return error.code === 'PROVENANCE_NOT_EARLIER' && typeof last === 'number' && last < error.seq!
}

/** A late citation that the largest of a default (text) sort misses: `[9, 10].sort()` gives `[10, 9]`. */
export const lateCitationHiddenByTextSort: SkippedRejection = (error, record) => {
  const latest = [...citationsOf(record)].sort().at(-1)
  return error.code === 'PROVENANCE_NOT_EARLIER' && typeof latest === 'number' && latest < error.seq!
}

type EventRecord = Record<string, unknown>

/**
 * compactionState as the reference computes it, over the loaded events as `rewrite` changes them (it
 * may read the input's records): a known-bad bracket scan is the reference's scan shown events marked otherwise.
 */
export function compactionStateOver(rewrite: (events: EventRecord[], input: Input) => EventRecord[]): SyncOperation {
  return input => {
    const events = loadedEvents(input)
    if (events === undefined) return ref.compactionState(input)
    const entry = input['entry'] === 'automatic' || input['entry'] === 'manual' ? input['entry'] : undefined
    return compactionState(rewrite(events, input) as unknown as SessionEvent[], entry) as OperationResult
  }
}

/**
 * compactionState with the reference's unmatched start judged by `live` instead of COMP-14 (true: it
 * holds the lock; false: stale; null: no unmatched start at all), and the entry checks behind the lock
 * following that judgement. The brackets stay the reference's.
 */
export function compactionStateWithLock(live: (events: EventRecord[], start: EventRecord) => boolean | null): SyncOperation {
  return input => {
    const { entry, ...withoutEntry } = input
    const state = ref.compactionState(withoutEntry)
    const events = loadedEvents(input)
    if (!state.ok || events === undefined) return state
    const value = state.value as { open: { startSeq: number } | null }
    const start = value.open === null ? undefined : events.find(event => event['seq'] === value.open?.startSeq)
    if (start === undefined) return ref.compactionState(input)
    const judged = live(events, start)
    const open = judged === null ? null : { ...value.open, live: judged }
    if (entry === undefined) return accepted({ ...value, open })
    if (judged === true) return rejected('COMPACTION_BUSY', start['seq'] as number)
    // The lock is free: the reference answers the entry for the log with the start already ended.
    const ended = [...events, { type: 'compaction/end', seq: events.length, time: start['time'], data: {} }]
    const answer = ref.compactionState({ ...input, events: ended })
    return answer.ok ? accepted({ ...value, open, owner: (answer.value as EventRecord)['owner'] }) : answer
  }
}

/** A batch cut around each event `alone` picks, which then stands alone: runs are packed within a batch, and a batch of one is written verbatim. */
function cutAround(batch: unknown, alone: (event: unknown) => boolean): unknown[][] {
  const pieces: unknown[][] = [[]]
  for (const event of Array.isArray(batch) ? batch : []) {
    if (alone(event)) pieces.push([event], [])
    else pieces.at(-1)!.push(event)
  }
  return pieces
}

/** encodeJsonl writing every event `alone` picks verbatim, cutting the run it is in. */
export function encodingAlone(alone: (event: unknown) => boolean): SyncOperation {
  return input => {
    const batches = input['batches']
    return ref.encodeJsonl(Array.isArray(batches) ? { ...input, batches: batches.flatMap(batch => cutAround(batch, alone)) } : input)
  }
}

/** What `read` gives, or `otherwise` when reading a hostile value (a revoked proxy, a throwing accessor) throws. */
export function readOr<T>(read: () => T, otherwise: T): T {
  try {
    return read()
  } catch {
    return otherwise
  }
}

/** A line's JSON value, or undefined when the line is no JSON text (no JSON text parses to undefined). */
export function lineJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The raw input's text, when it is UTF-8 (given as text, or as base64 of UTF-8 bytes). */
export function rawText(input: Input): string | undefined {
  if (input['encoding'] === 'zstd') return undefined
  if (typeof input['base64'] !== 'string') return typeof input['text'] === 'string' ? input['text'] : undefined
  const bytes = Buffer.from(input['base64'], 'base64')
  const text = bytes.toString('utf8')
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined
}
