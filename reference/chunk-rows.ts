/**
 * Chapter 19 (ROW rules): packed chunk rows, the storage-only records that hold a run of
 * `assistant/chunk` deltas. `readStorageRecord` checks one parsed storage record (ROW-2, ROW-3) and
 * says which events it stands for, `recordEvents` builds them; `packChunkRuns` is the encoder of
 * ROW-5..7 (a writer may use it; readers never do), and its two tests, `packableTag` and
 * `continuesRun`, also serve to judge how a stored batch was packed (`check --writer`).
 */
import { fault, type Fault } from './result.ts'
import { hasOwn, isNonNegativeSafeInteger, isRecord, isSafeInteger, type JsonRecord } from './lossless-json.ts'
import type { ChunkRowType } from '../generated/types/index.ts'

export type RowTag = ChunkRowType
export const ROW_TAGS: readonly RowTag[] = ['text-chunks', 'reasoning-chunks', 'tool-call-chunks']

/** The smallest run the encoder packs; shorter runs stay one event per line. */
export const MIN_RUN = 3

const DELTA_TYPE_OF_TAG: Record<RowTag, string> = {
  'text-chunks': 'text-delta',
  'reasoning-chunks': 'reasoning-delta',
  'tool-call-chunks': 'tool-call-delta',
}
const TAG_OF_DELTA_TYPE: Record<string, RowTag> = {
  'text-delta': 'text-chunks',
  'reasoning-delta': 'reasoning-chunks',
  'tool-call-delta': 'tool-call-chunks',
}

/** A row that passed ROW-3: what its members share, and each member's payload and time. */
export interface CheckedRow {
  tag: RowTag
  seq0: number
  data: JsonRecord
  members: readonly string[]
  times: readonly number[]
}

/**
 * The events one storage record stands for: itself, or the members of a checked row. A row's members
 * are built only when asked for (`storedEventAt`, `recordEvents`), so a reader that needs only the
 * first of them and their count does not build the others.
 */
export type StoredEvents = { row?: undefined; event: unknown } | { row: CheckedRow }

export type Read = { ok: true; events: StoredEvents } | { ok: false; fault: Fault }

/** Whether `value` is one of the row tags: in JSONL text a row's type, and the storage tags no event may have (ENV-3). */
export function isRowTag(value: unknown): value is RowTag {
  return (ROW_TAGS as readonly unknown[]).includes(value)
}

function hasExactKeys(record: JsonRecord, keys: readonly string[]): boolean {
  // Stryker disable next-line MethodExpression: every caller reads each required key afterwards and rejects a missing one, so a same-size key set with a stray name fails there
  return Object.keys(record).length === keys.length && keys.every(key => hasOwn(record, key))
}

function rowFault(tag: string, why: string): Read {
  // Stryker disable next-line ObjectLiteral,StringLiteral: a failed row's fault text is for people (the line decoder quotes it in a message no vector compares)
  return { ok: false, fault: fault('JSONL_ROW_INVALID', `malformed ${tag} row: ${why}`) }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(item => typeof item === 'string')
}

/** Data keys of a row, by tag; `name` is the one optional key (tool rows only). */
function dataKeysFault(tag: RowTag, data: JsonRecord): string | undefined {
  if (tag !== 'tool-call-chunks') {
    return hasExactKeys(data, ['turn', 'step', 'index', 'dt', 'texts']) ? undefined : 'data keys must be turn, step, index, dt, texts'
  }
  const withName = hasExactKeys(data, ['turn', 'step', 'index', 'id', 'name', 'dt', 'args'])
  if (!withName && !hasExactKeys(data, ['turn', 'step', 'index', 'id', 'dt', 'args'])) {
    return 'data keys must be turn, step, index, id, name?, dt, args'
  }
  if (typeof data['id'] !== 'string' || (withName && typeof data['name'] !== 'string')) return 'id and name must be strings'
  return undefined
}

function payloadFault(data: JsonRecord, payload: unknown): string | undefined {
  if (typeof data['turn'] !== 'number' || typeof data['step'] !== 'number' || typeof data['index'] !== 'number') {
    return 'turn, step and index must be numbers'
  }
  if (!isStringArray(payload) ||
    // Stryker disable next-line ConditionalExpression: an empty payload fails the dt length test below as well, since no dt array has length -1 (ROW-3: the order matters only for the message)
    payload.length === 0) return 'the payload must be a non-empty string array'
  const dt = data['dt']
  if (!Array.isArray(dt) || !dt.every(isSafeInteger)) return 'dt must be an array of safe integers'
  if (dt.length !== payload.length - 1) return `dt has ${dt.length} gaps for ${payload.length} members`
  return undefined
}

/** The member times, or undefined when a running time leaves the safe range. */
function memberTimes(time0: number, dt: readonly number[]): number[] | undefined {
  const times = [time0]
  let time = time0
  for (const gap of dt) {
    time += gap
    if (!Number.isSafeInteger(time)) return undefined
    times.push(time)
  }
  return times
}

function memberChunk(tag: RowTag, data: JsonRecord, member: string): JsonRecord {
  const type = DELTA_TYPE_OF_TAG[tag]
  if (tag !== 'tool-call-chunks') return { type, index: data['index'], text: member }
  return {
    type,
    index: data['index'],
    id: data['id'],
    ...(hasOwn(data, 'name') ? { name: data['name'] } : {}),
    argumentsDelta: member,
  }
}

function checkRow(tag: RowTag, row: JsonRecord): Read {
  if (!hasExactKeys(row, ['type', 'seq0', 'time0', 'data'])) return rowFault(tag, 'keys must be type, seq0, time0, data')
  const { seq0, time0, data } = row
  // Negative zero is not a safe integer here (ROW-3): a decoder must not turn it into zero.
  if (!isNonNegativeSafeInteger(seq0)) return rowFault(tag, 'seq0 must be a non-negative safe integer')
  if (!isSafeInteger(time0)) return rowFault(tag, 'time0 must be a safe integer')
  if (!isRecord(data)) return rowFault(tag, 'data must be an object')
  const keysWhy = dataKeysFault(tag, data)
  if (keysWhy !== undefined) return rowFault(tag, keysWhy)
  const payload = data[tag === 'tool-call-chunks' ? 'args' : 'texts']
  const payloadWhy = payloadFault(data, payload)
  if (payloadWhy !== undefined) return rowFault(tag, payloadWhy)
  const members = payload as string[]
  if (!Number.isSafeInteger((seq0 as number) + (members.length - 1))) return rowFault(tag, 'member seqs leave the safe range')
  const times = memberTimes(time0 as number, data['dt'] as number[])
  if (times === undefined) return rowFault(tag, 'member times leave the safe range')
  return { ok: true, events: { row: { tag, seq0: seq0 as number, data, members, times } } }
}

/** ROW-2: member `k` of a checked row as the `assistant/chunk` event it stands for. */
function memberEvent(row: CheckedRow, k: number): JsonRecord {
  const { tag, data } = row
  return {
    type: 'assistant/chunk',
    seq: row.seq0 + k,
    time: row.times[k],
    data: { turn: data['turn'], step: data['step'], chunk: memberChunk(tag, data, row.members[k] as string) },
  }
}

/**
 * One parsed storage record checked: a record tagged as a row must be a valid row (ROW-3); anything
 * else (including non-objects) is one event, validated later by load.
 */
export function readStorageRecord(record: unknown): Read {
  if (isRecord(record)) {
    const tag = record['type']
    if (isRowTag(tag)) return checkRow(tag, record)
  }
  return { ok: true, events: { event: record } }
}

/** How many events a record stands for. */
export function storedEventCount(events: StoredEvents): number {
  return events.row === undefined ? 1 : events.row.members.length
}

/** The `k`-th event a record stands for (0 <= k < storedEventCount). */
export function storedEventAt(events: StoredEvents, k: number): unknown {
  return events.row === undefined ? events.event : memberEvent(events.row, k)
}

/** Every event a record stands for, in order. */
export function recordEvents(events: StoredEvents): unknown[] {
  return Array.from({ length: storedEventCount(events) }, (_, k) => storedEventAt(events, k))
}

// ---- encoder ---------------------------------------------------------------------------------

/** An event ROW-5 lets a writer pack, with the row tag of its kind. */
export interface Packable {
  tag: RowTag
  event: JsonRecord & { seq: number; time: number; data: JsonRecord & { chunk: JsonRecord } }
}

/** ROW-5: the row tag an event could be packed under, or undefined when it must stay verbatim. */
export function packableTag(event: unknown): RowTag | undefined {
  if (!isRecord(event) || event['type'] !== 'assistant/chunk') return undefined
  if (!hasExactKeys(event, ['type', 'seq', 'time', 'data'])) return undefined
  if (!isNonNegativeSafeInteger(event['seq']) || !isSafeInteger(event['time'])) return undefined
  const data = event['data']
  if (!isRecord(data) || !hasExactKeys(data, ['turn', 'step', 'chunk'])) return undefined
  if (typeof data['turn'] !== 'number' || typeof data['step'] !== 'number') return undefined
  const chunk = data['chunk']
  if (!isRecord(chunk) || typeof chunk['index'] !== 'number') return undefined
  // Own members only: a chunk type such as "constructor" must not find Object.prototype's members.
  const type = String(chunk['type'])
  const tag = hasOwn(TAG_OF_DELTA_TYPE, type) ? TAG_OF_DELTA_TYPE[type] : undefined
  // Stryker disable next-line ConditionalExpression: with the test false, an undefined tag is not tool-call-chunks, so the branch below returns it: undefined again
  if (tag === undefined) return undefined
  if (tag !== 'tool-call-chunks') {
    return hasExactKeys(chunk, ['type', 'index', 'text']) && typeof chunk['text'] === 'string' ? tag : undefined
  }
  const named = hasExactKeys(chunk, ['type', 'index', 'id', 'name', 'argumentsDelta']) && typeof chunk['name'] === 'string'
  const shapeOk = named || hasExactKeys(chunk, ['type', 'index', 'id', 'argumentsDelta'])
  return shapeOk && typeof chunk['id'] === 'string' && typeof chunk['argumentsDelta'] === 'string' ? tag : undefined
}

/** ROW-6: whether `next` joins the run whose last member is `previous` (same kind, and `next` continues it). */
export function continuesRun(previous: Packable, next: Packable): boolean {
  const a = previous.event
  const b = next.event
  if (next.tag !== previous.tag || b.seq !== a.seq + 1) return false
  if (!Number.isSafeInteger(b.time - a.time)) return false
  if (b.data['turn'] !== a.data['turn'] || b.data['step'] !== a.data['step']) return false
  if (b.data.chunk['index'] !== a.data.chunk['index']) return false
  // Stryker disable next-line ConditionalExpression: text and reasoning chunks have neither id nor name, so the tool-call comparison below finds them equal
  if (next.tag !== 'tool-call-chunks') return true
  // Operators end these lines: a Stryker directive placed before a leading operator attaches to no expression.
  return b.data.chunk['id'] === a.data.chunk['id'] &&
    // Stryker disable next-line ConditionalExpression: among packable chunks a present name is a string, so presence differs only when the name values differ too
    hasOwn(a.data.chunk, 'name') === hasOwn(b.data.chunk, 'name') &&
    a.data.chunk['name'] === b.data.chunk['name']
}

function buildRow(run: readonly Packable[]): JsonRecord {
  const first = (run[0] as Packable).event
  const tag = (run[0] as Packable).tag
  const chunks = run.map(member => member.event.data.chunk)
  const dt = run.slice(1).map((member, k) => member.event.time - (run[k] as Packable).event.time)
  const base = { turn: first.data['turn'], step: first.data['step'], index: first.data.chunk['index'], dt }
  const data = tag === 'tool-call-chunks'
    ? {
        ...base,
        id: first.data.chunk['id'],
        ...(hasOwn(first.data.chunk, 'name') ? { name: first.data.chunk['name'] } : {}),
        args: chunks.map(chunk => chunk['argumentsDelta']),
      }
    : { ...base, texts: chunks.map(chunk => chunk['text']) }
  return { type: tag, seq0: first.seq, time0: first.time, data }
}

/** Pack maximal runs of at least MIN_RUN eligible chunks into rows; everything else stays verbatim. */
export function packChunkRuns(events: readonly unknown[]): unknown[] {
  const records: unknown[] = []
  let run: Packable[] = []
  const flush = (): void => {
    if (run.length >= MIN_RUN) records.push(buildRow(run))
    else records.push(...run.map(member => member.event))
    run = []
  }
  for (const event of events) {
    const tag = packableTag(event)
    if (tag === undefined) {
      flush()
      records.push(event)
      continue
    }
    const member = { tag, event } as Packable
    const last = run[run.length - 1]
    if (last === undefined || !continuesRun(last, member)) flush()
    run.push(member)
  }
  flush()
  return records
}
