// Known-bad JSONL decoders and encoders: packed chunk rows and the torn tail (raw encoding; zstd input is
// untouched, but for the torn tail's line number).
import { packableTag } from '../../reference/chunk-rows.ts'
import type { JsonlValue } from '../../reference/jsonl.ts'
import { accepted, dataOf, encodingAlone, isRecord, lineJson, rawText, ref, rejectedAtLine, type Input, type KnownBad, type SyncOperation } from './wrap.ts'

const ROW_PAYLOAD: Record<string, string> = { 'text-chunks': 'texts', 'reasoning-chunks': 'texts', 'tool-call-chunks': 'args' }

/** The complete lines of a raw artifact (1-based numbers), or none for zstd input. */
function completeLines(input: Input): { number: number; text: string }[] {
  if (input['encoding'] === 'zstd') return []
  const text = typeof input['base64'] === 'string'
    ? Buffer.from(input['base64'], 'base64').toString('utf8')
    : typeof input['text'] === 'string' ? input['text'] : ''
  return text.split('\n').slice(0, -1).map((line, index) => ({ number: index + 1, text: line }))
}

/** Whether a parsed line is tagged as a packed chunk row. */
function isRowTagged(value: unknown): value is Record<string, unknown> & { type: string } {
  return isRecord(value) && typeof value['type'] === 'string' && value['type'] in ROW_PAYLOAD
}

/** The seqs of every member of a packed row but its first. */
function droppedRowMembers(input: Input): Set<unknown> {
  const dropped = new Set<unknown>()
  for (const line of completeLines(input)) {
    const row = lineJson(line.text)
    if (!isRowTagged(row)) continue
    const payload = isRecord(row['data']) ? row['data'][ROW_PAYLOAD[row['type']]!] : undefined
    const length = Array.isArray(payload) ? payload.length : 0
    for (let k = 1; k < length; k++) dropped.add((row['seq0'] as number) + k)
  }
  return dropped
}

/** A packed chunk row expands to its first member only, so the seqs after it gap. */
const firstRowMemberOnly: SyncOperation = input => {
  const result = ref.decodeJsonl(input)
  if (!result.ok) return result
  const value = result.value as { events: Record<string, unknown>[] }
  const dropped = droppedRowMembers(input)
  return accepted({ ...value, events: value.events.filter(event => !dropped.has(event['seq'])) })
}

/** Only the damaged line is skipped: every later line that parses to an object is kept. */
const tornTailKept: SyncOperation = input => {
  const result = ref.decodeJsonl(input)
  if (!result.ok) return result
  const value = result.value as { events: unknown[]; tornTail: { line: number; reason: string } | null }
  if (value.tornTail === null || value.tornTail.reason === 'unterminated') return result
  const damaged = value.tornTail.line
  const kept = completeLines(input).filter(line => line.number > damaged).map(line => lineJson(line.text)).filter(isRecord)
  return accepted({ ...value, events: [...value.events, ...kept] })
}

type Row = Record<string, unknown> & { type: string }

/**
 * The artifact as a buggy JSON reader reads it: each packed row `read` gives a row for is written as
 * that row; other lines are kept as they are. Raw UTF-8 input only.
 */
function withRowsReadAs(input: Input, read: (row: Row) => Row | undefined): Input {
  const text = rawText(input)
  if (text === undefined) return input
  const lines = text.split('\n').map(line => {
    const row = lineJson(line)
    const readRow = isRowTagged(row) ? read(row) : undefined
    return readRow === undefined ? line : JSON.stringify(readRow)
  })
  const readText = lines.join('\n')
  return typeof input['base64'] === 'string' ? { ...input, base64: Buffer.from(readText, 'utf8').toString('base64') } : { ...input, text: readText }
}

/**
 * A `-0` in a packed row reads as 0, as a JSON reader that keeps no sign on zero reads it (Python's
 * json, for one), so a row ROW-3 rejects expands (U23's departure).
 */
const rowNegativeZeroAsZero: SyncOperation = input =>
  // Every row is written again as it parsed, and JSON.stringify writes -0 as 0.
  ref.decodeJsonl(withRowsReadAs(input, row => row))

/** Whether every running time of a row, time0 plus the gaps up to a member, is a safe integer. */
function runningTimesSafe(time0: number, dt: readonly number[]): boolean {
  let time = time0
  return dt.every(gap => Number.isSafeInteger((time += gap)))
}

/**
 * A row whose running times leave the safe range while time0 and time0 plus the sum of the gaps stay
 * in it, with gaps a check of those two alone lets pass: zeros, then the sum.
 */
function gapsCheckedAtEnds(row: Row): Row | undefined {
  const time0 = row['time0']
  const dt = dataOf(row)['dt']
  if (!Number.isSafeInteger(time0) || !Array.isArray(dt) || !dt.every(Number.isSafeInteger)) return undefined
  const total = (dt as number[]).reduce((sum, gap) => sum + gap, 0)
  if (runningTimesSafe(time0 as number, dt) || !Number.isSafeInteger((time0 as number) + total)) return undefined
  return { ...row, data: { ...dataOf(row), dt: dt.map((_, k) => (k === dt.length - 1 ? total : 0)) } }
}

/** A row's member times are checked for safety at time0 and the last member only, so a middle one beyond the safe integers passes. */
const rowTimesCheckedAtEnds: SyncOperation = input => ref.decodeJsonl(withRowsReadAs(input, gapsCheckedAtEnds))

/** A row as a decoder into typed fields (Go's encoding/json) reads it: a null turn, step or index is 0, a null text or argument "". */
function nullsAsZeroValues(row: Row): Row | undefined {
  const data = dataOf(row)
  const payloadName = ROW_PAYLOAD[row['type']]!
  const payload = data[payloadName]
  const numbers = ['turn', 'step', 'index'].filter(name => data[name] === null)
  const hasNullMember = Array.isArray(payload) && payload.includes(null)
  if (numbers.length === 0 && !hasNullMember) return undefined
  const zeros = Object.fromEntries(numbers.map(name => [name, 0]))
  const members = hasNullMember ? { [payloadName]: payload.map(member => member ?? '') } : {}
  return { ...row, data: { ...data, ...zeros, ...members } }
}

/** A null in a row's turn, step, index or payload reads as its type's zero value, so the row expands. */
const rowNullsAsZeroValues: SyncOperation = input => ref.decodeJsonl(withRowsReadAs(input, nullsAsZeroValues))

/** After a damaged line, any later line whose text holds "turn/end" proves the damage committed. */
const turnEndFoundInText: SyncOperation = input => {
  const result = ref.decodeJsonl(input)
  if (!result.ok) return result
  const tail = (result.value as JsonlValue).tornTail
  if (tail === null || tail.reason === 'unterminated') return result
  const committed = completeLines(input).some(line => line.number > tail.line && line.text.includes('"turn/end"'))
  return committed ? rejectedAtLine(tail.reason, tail.line) : result
}

/** The torn tail's line is counted in events: the header line, one per decoded event, then the tail's. */
const tornTailLineByEvents: SyncOperation = input => {
  const result = ref.decodeJsonl(input)
  if (!result.ok) return result
  const value = result.value as JsonlValue
  return value.tornTail === null ? result : accepted({ ...value, tornTail: { ...value.tornTail, line: value.events.length + 2 } })
}

/** The member lists of the chunks the writer packs, each in the one order it compares a chunk's members with. */
const PACKED_MEMBER_ORDERS = ['type,index,text', 'type,index,id,name,argumentsDelta', 'type,index,id,argumentsDelta']

/** A chunk event ROW-5 lets a writer pack, whose chunk's members come in another order than the writer's. */
function isReorderedChunk(event: unknown): boolean {
  const chunk = dataOf(event)['chunk']
  return packableTag(event) !== undefined && isRecord(chunk) && !PACKED_MEMBER_ORDERS.includes(Object.keys(chunk).join())
}

/** A chunk is packable only when its members come in the writer's own order; any other is written verbatim, cutting its run. */
const chunkMembersInOneOrder: SyncOperation = encodingAlone(isReorderedChunk)

export const STORAGE_BUGS: KnownBad[] = [
  {
    name: 'row-first-member-only',
    bug: 'a packed chunk row is decoded to its first chunk only, so the seqs after it gap',
    caughtBy: ['row-expand-text-and-reasoning', 'row-expand-tool-call-name-presence'],
    patch: { decodeJsonl: firstRowMemberOnly },
  },
  {
    name: 'row-negative-zero-as-zero',
    bug: 'every -0 in a packed row reads as 0 (seq0, time0 and dt among them), so the row expands where ROW-3 rejects it',
    caughtBy: ['row-negative-zero'],
    patch: { decodeJsonl: rowNegativeZeroAsZero },
  },
  {
    name: 'torn-tail-kept',
    bug: 'the decoder skips only the damaged line and keeps the lines after it',
    caughtBy: ['jsonl-torn-bad-line-drops-the-rest', 'jsonl-torn-seq-gap-dropped'],
    patch: { decodeJsonl: tornTailKept },
  },
  {
    name: 'torn-tail-turn-end-in-text',
    bug: 'after a damaged line, a later line whose text holds "turn/end" anywhere makes the damage committed',
    caughtBy: ['jsonl-torn-turn-end-only-as-an-event-type'],
    patch: { decodeJsonl: turnEndFoundInText },
  },
  {
    name: 'torn-tail-line-by-events',
    bug: "the torn tail's line is counted in events, not lines, so a packed row before it moves it on",
    caughtBy: ['jsonl-torn-unterminated-after-packed-row', 'zstd-torn-frame-after-packed-row'],
    patch: { decodeJsonl: tornTailLineByEvents },
  },
  {
    name: 'row-times-checked-at-ends',
    bug: "a row's member times are checked for safety at time0 and the last member only, so a middle one beyond the safe integers passes",
    caughtBy: ['row-edge-middle-time-beyond-safe'],
    patch: { decodeJsonl: rowTimesCheckedAtEnds },
  },
  {
    name: 'row-nulls-as-zero-values',
    bug: 'a null in a row reads as its typed zero value (Go\'s encoding/json): turn, step and index 0, a text or argument ""',
    caughtBy: ['row-edge-turn-null', 'row-edge-text-null'],
    patch: { decodeJsonl: rowNullsAsZeroValues },
  },
  {
    name: 'encode-chunk-members-in-one-order',
    bug: 'a chunk is packable only when its members come in the writer\'s order; others are written verbatim, cutting the run',
    caughtBy: ['enc-chunk-members-in-any-order-pack'],
    patch: { encodeJsonl: chunkMembersInOneOrder },
  },
]
