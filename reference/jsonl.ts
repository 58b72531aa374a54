/**
 * Chapter 19: decoding the JSONL storage encoding. The header line is checked first (refusal before
 * anything else), then the record lines are scanned with the torn-tail rules: the first defect starts
 * a discarded tail unless a later line holds a turn/end, which proves the defect was committed damage.
 * The zstd encoding (zstd.ts, JSONL-13..15) reuses the line scan over the decompressed frame contents.
 */
import { accept, fault, reject, rejectAt, type ErrorCode, type Fault, type Rejected, type Result } from './result.ts'
import { hasOwn, isNonNegativeSafeInteger, isRecord, type JsonRecord } from './lossless-json.ts'
import { versionRefusal } from './format-version.ts'
import { HEADER_MEMBERS } from './storage-header.ts'
import { packChunkRuns, readStorageRecord, recordEvents, storedEventAt, storedEventCount, type StoredEvents } from './chunk-rows.ts'

export interface TornTail {
  line: number
  offset: number
  reason: 'unterminated' | 'JSONL_LINE_UNPARSABLE' | 'JSONL_ROW_INVALID' | 'JSONL_SEQ_GAP'
}

export interface JsonlValue {
  header: JsonRecord
  events: unknown[]
  tornTail: TornTail | null
}

const LINE_FEED = 0x0a
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** JSONL-9 step 1 and 2: one line's bytes as one JSON text, or undefined when unparsable. */
function parseLine(bytes: Uint8Array): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(utf8.decode(bytes)) as unknown }
  }
  // Stryker disable next-line BlockStatement: an empty catch block returns undefined, as the return in it does
  catch {
    return undefined
  }
}

// ---- the header line (JSONL-6, JSONL-7) --------------------------------------------------------

const RETIRED_HEADER_MEMBERS = ['sandboxMode', 'approvalPolicy']

/** JSONL-6 step 3 or 4 fails; `why` names the member, for people. */
function invalid(why: string): Fault {
  return fault('JSONL_HEADER_INVALID', `the first line is not a session header line: ${why}`)
}

/** -0 fails the integer rules, so it must not read as 0; JSON.parse turns 1e400 into Infinity. */
function numberText(value: number): string {
  if (Object.is(value, -0)) return '-0'
  return Number.isFinite(value) ? String(value) : 'a number beyond the range of a double'
}

/** A value, for people: "absent", "the string \"1\"", "-1", "null", "an array". */
function valueText(value: unknown): string {
  if (value === undefined) return 'absent'
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
  if (typeof value === 'number') return numberText(value)
  if (value === null || typeof value !== 'object') return String(value)
  return Array.isArray(value) ? 'an array' : 'an object'
}

function headerLineFault(value: unknown): Fault | undefined {
  if (!isRecord(value)) return invalid(`it must be an object, and it is ${valueText(value)}`)
  if (value['type'] !== 'session') return invalid(`type must be "session", and it is ${valueText(value['type'])}`)
  if (typeof value['version'] !== 'number') return invalid(`version must be a number, and it is ${valueText(value['version'])}`)
  if (typeof value['id'] !== 'string') return invalid(`id must be a string, and it is ${valueText(value['id'])}`)
  if (!isNonNegativeSafeInteger(value['createdAt'])) return invalid(`createdAt must be a non-negative safe integer, and it is ${valueText(value['createdAt'])}`)
  if (!isNonNegativeSafeInteger(value['delegationDepth'])) return invalid(`delegationDepth must be a non-negative safe integer, and it is ${valueText(value['delegationDepth'])}`)
  if (hasOwn(value, 'origin') && value['origin'] !== 'subagent') return invalid(`origin, when present, must be "subagent", and it is ${valueText(value['origin'])}`)
  if (hasOwn(value, 'agentPreset') && typeof value['agentPreset'] !== 'string') return invalid(`agentPreset, when present, must be a string, and it is ${valueText(value['agentPreset'])}`)
  const retired = RETIRED_HEADER_MEMBERS.find(member => hasOwn(value, member))
  if (retired !== undefined) return fault('JSONL_HEADER_RETIRED_FIELD', `the header line carries ${retired}, a retired member`)
  return undefined
}

/** Steps 2 to 5 of JSONL-6 on the header line's bytes, then the decoded header of JSONL-7. */
export function decodeHeaderLine(bytes: Uint8Array): Result<JsonRecord> {
  const parsed = parseLine(bytes)
  if (parsed === undefined) return reject('JSONL_HEADER_INVALID', 'the header line is not one JSON text', { line: 1 })
  const value = parsed.value
  if (isRecord(value)) {
    const refusal = versionRefusal(value['version'])
    if (refusal !== undefined) return rejectAt(refusal, { line: 1 })
  }
  const found = headerLineFault(value)
  if (found !== undefined) return rejectAt(found, { line: 1 })
  const line = value as JsonRecord
  return accept(Object.fromEntries(HEADER_MEMBERS.filter(key => hasOwn(line, key)).map(key => [key, line[key]])))
}

// ---- the record lines (JSONL-9..12) ------------------------------------------------------------

type Defect = TornTail['reason']
/** A line that cannot be read: its defect, and `why` for people. */
type DecodedLine = { ok: true; events: StoredEvents } | { ok: false; defect: Defect; why: string }

/** Why a line that is not one JSON text is not, for people: an empty line, one of whitespace, or other text. */
function unparsableWhy(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'it is empty, which no writer writes (JSONL-8 writes no empty batch)'
  return bytes.every(byte => byte === 0x20 || byte === 0x09 || byte === 0x0d) ? 'it holds only whitespace' : 'it is not one JSON text'
}

/** JSONL-9: one line's events, or why it is unreadable (unparsable or an invalid row). */
function decodeRecordLine(bytes: Uint8Array): DecodedLine {
  const parsed = parseLine(bytes)
  if (parsed === undefined) return { ok: false, defect: 'JSONL_LINE_UNPARSABLE', why: unparsableWhy(bytes) }
  const read = readStorageRecord(parsed.value)
  return read.ok ? { ok: true, events: read.events } : { ok: false, defect: 'JSONL_ROW_INVALID', why: read.fault.message }
}

// A line holds one event, or a row whose members are chunks with consecutive seqs (ROW-2), so its
// first event answers both questions below for all of its events.

function holdsTurnEnd(events: StoredEvents): boolean {
  const first = storedEventAt(events, 0)
  return isRecord(first) && first['type'] === 'turn/end'
}

/** JSONL-10: every event is an object whose seq continues the count. */
function continuesCount(events: StoredEvents, count: number): boolean {
  const first = storedEventAt(events, 0)
  return isRecord(first) && first['seq'] === count
}

/** A complete line of the decoded text: its bytes, its 1-based number, and where it starts and ends. */
export interface Line {
  bytes: Uint8Array
  number: number
  start: number
  end: number
}

export interface LineScan {
  /** How many events the accepted lines hold: the seq the next line must start at (JSONL-10). */
  count: number
  /**
   * The first defect, when one was found and no later turn/end made it fatal: the torn tail it
   * starts, and what is wrong with its line, for people.
   */
  defect: { tail: TornTail; why: string } | undefined
  /** The byte offset just after the last accepted line. */
  committed: number
}

type JudgedLine = { ok: true; events: StoredEvents } | { ok: false; defect: Defect; why: string; holdsTurnEnd: boolean }

/** Receives the events of each accepted line, with the line. */
export type AcceptLine = (events: StoredEvents, line: Line) => void

/** How a line's first event breaks the count (JSONL-10), for people, with what a numbered seq suggests. */
function seqGapText(count: number, first: unknown): string {
  const text = `the next seq is ${count}, but ${firstEventText(first)}`
  const seq = isRecord(first) ? first['seq'] : undefined
  if (!Number.isSafeInteger(seq)) return text
  const missing = (seq as number) - count
  const cause = missing > 0 ? `${missing === 1 ? 'an event before it is' : `${missing} events before it are`} missing` : 'it repeats an earlier seq'
  return `${text}: ${cause}, or the line is out of place`
}

function firstEventText(first: unknown): string {
  if (!isRecord(first)) return `the line holds ${valueText(first)}, not an event`
  if (hasOwn(first, 'seq')) return `its first event's seq is ${valueText(first['seq'])}`
  // A second header line, from two artifacts concatenated, is the likely case.
  return first['type'] === 'session' ? 'it is a header line (type "session"), which only the first line may be' : 'its first event has no seq'
}

/** JSONL-9, JSONL-10 for a line met before any defect. */
function judgeLine(bytes: Uint8Array, count: number): JudgedLine {
  const decoded = decodeRecordLine(bytes)
  if (!decoded.ok) return { ...decoded, holdsTurnEnd: false }
  if (continuesCount(decoded.events, count)) return decoded
  return { ok: false, defect: 'JSONL_SEQ_GAP', why: seqGapText(count, storedEventAt(decoded.events, 0)), holdsTurnEnd: holdsTurnEnd(decoded.events) }
}

const BACKSLASH = 0x5c

/**
 * Whether a line may hold a turn/end: its type is written either as the bytes `turn/end` or with an
 * escape, which needs a backslash. After a defect a line with neither is passed over unparsed, since
 * it cannot prove the defect committed (JSONL-11), and a parser's throw on each line of a long torn
 * tail of junk took seconds.
 */
function mayHoldTurnEnd(bytes: Uint8Array): boolean {
  const line = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // Stryker disable next-line ConditionalExpression,StringLiteral: a line let through is parsed and found to hold no turn/end, so letting more through only costs time
  return line.includes(BACKSLASH) || line.includes('turn/end')
}

/**
 * JSONL-11 for one complete line, continuing `scan`; the line's events go to `accepted` when it is
 * accepted. `strict` (the complete frames of a zstd artifact, JSONL-14) makes every defect fatal as
 * JSONL_FRAME_INVALID. Returns the rejection when the line makes the artifact corrupt.
 */
export function scanLine(line: Line, scan: LineScan, strict: boolean, accepted: AcceptLine): Rejected | undefined {
  if (scan.defect !== undefined) {
    // Stryker disable next-line ConditionalExpression: a line let through is parsed and found to hold no turn/end, so letting more through only costs time
    if (!mayHoldTurnEnd(line.bytes)) return undefined
    const decoded = decodeRecordLine(line.bytes)
    if (decoded.ok && holdsTurnEnd(decoded.events)) {
      const { tail, why } = scan.defect
      // A line that breaks the count may be whole: a line before it was lost, or it was misplaced.
      return reject(tail.reason as ErrorCode, `line ${tail.line} ${tail.reason === 'JSONL_SEQ_GAP' ? 'breaks the seq count' : 'is damaged'} (${why}), and the turn/end on line ${line.number} proves it was committed`, { line: tail.line })
    }
    return undefined
  }
  const judged = judgeLine(line.bytes, scan.count)
  if (judged.ok) {
    accepted(judged.events, line)
    scan.count += storedEventCount(judged.events)
    scan.committed = line.end
    return undefined
  }
  if (strict) return reject('JSONL_FRAME_INVALID', `${judged.defect} on line ${line.number}, inside a complete frame: ${judged.why}`, { line: line.number })
  if (judged.holdsTurnEnd) return reject('JSONL_SEQ_GAP', `a seq gap on line ${line.number}, which holds a turn/end: ${judged.why}`, { line: line.number })
  scan.defect = { tail: { line: line.number, offset: line.start, reason: judged.defect }, why: judged.why }
  return undefined
}

/** `scanLine` over complete lines in order, up to the first rejection. */
export function scanLines(lines: Iterable<Line>, scan: LineScan, strict: boolean, accepted: AcceptLine): Result<LineScan> {
  for (const line of lines) {
    const rejected = scanLine(line, scan, strict, accepted)
    if (rejected !== undefined) return rejected
  }
  return accept(scan)
}

/** The complete lines of `bytes` from `from` on, numbered from `firstNumber`; offsets shifted by `base`. */
export function* completeLines(bytes: Uint8Array, from: number, firstNumber: number, base = 0): Generator<Line> {
  let start = from
  let number = firstNumber
  for (let feed = bytes.indexOf(LINE_FEED, start); feed !== -1; feed = bytes.indexOf(LINE_FEED, start)) {
    yield { bytes: bytes.subarray(start, feed), number, start: base + start, end: base + feed + 1 }
    start = feed + 1
    number += 1
  }
}

/** A consumer of accepted lines that appends their events to `events`. */
export function appendTo(events: unknown[]): AcceptLine {
  // One push per event: spreading a huge row into one call would overflow the argument stack.
  return stored => {
    for (const event of recordEvents(stored)) events.push(event)
  }
}

/** The number of line feeds in `bytes`. */
export function countLines(bytes: Uint8Array): number {
  let count = 0
  for (let feed = bytes.indexOf(LINE_FEED); feed !== -1; feed = bytes.indexOf(LINE_FEED, feed + 1)) count++
  return count
}

/** `decodeJsonl` for the raw encoding (JSONL-6, JSONL-11, JSONL-12). */
export function decodeRawJsonl(bytes: Uint8Array): Result<JsonlValue> {
  const headerEnd = bytes.indexOf(LINE_FEED)
  if (headerEnd === -1) return reject('JSONL_HEADER_INVALID', 'the artifact has no complete header line', { line: 1 })
  const header = decodeHeaderLine(bytes.subarray(0, headerEnd))
  if (!header.ok) return header
  const events: unknown[] = []
  const scanned = scanLines(completeLines(bytes, headerEnd + 1, 2), { count: 0, defect: undefined, committed: headerEnd + 1 }, false, appendTo(events))
  if (!scanned.ok) return scanned
  const { defect, committed } = scanned.value
  const lastFeed = bytes.lastIndexOf(LINE_FEED)
  const unterminated = lastFeed < bytes.length - 1
  const tornTail: TornTail | null = defect?.tail
    ?? (unterminated ? { line: countLines(bytes) + 1, offset: committed, reason: 'unterminated' } : null)
  return accept({ header: header.value, events, tornTail })
}

/** JSONL-4: the artifact's bytes, from `base64`, else from `text` as UTF-8. */
export function artifactBytes(input: { text: unknown; base64: unknown }): Uint8Array {
  if (typeof input.base64 === 'string') return new Uint8Array(Buffer.from(input.base64, 'base64'))
  // Stryker disable next-line ConditionalExpression,StringLiteral: an artifact without text or base64 is outside decodeJsonl; any text without a line feed fails the same way
  return new TextEncoder().encode(typeof input.text === 'string' ? input.text : '')
}

// ---- writing (JSONL-5, JSONL-8) and where artifacts live (JSONL-1, JSONL-2) ---------------------

/** JSONL-5: the header line's members in the writer's order; delegationDepth is always written. */
export function headerLine(header: JsonRecord): JsonRecord {
  const line: JsonRecord = { type: 'session' }
  for (const key of HEADER_MEMBERS) {
    const value = key === 'delegationDepth' ? header[key] ?? 0 : header[key]
    // Stryker disable next-line ConditionalExpression: the header line is only ever serialised by JSON.stringify, which leaves out members holding undefined
    if (value !== undefined) line[key] = value
  }
  return line
}

/**
 * JSONL-8: the raw artifact of a header and its durable batches, packed by ROW-6. An empty batch is
 * not written (a writer must never write one; it would read back as a damaged blank line).
 */
export function encodeRawJsonl(header: JsonRecord, batches: readonly (readonly unknown[])[]): string {
  const lines = [JSON.stringify(headerLine(header))]
  for (const batch of batches) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: packing an empty batch yields no records
    if (batch.length > 0) for (const record of packChunkRuns(batch)) lines.push(JSON.stringify(record))
  }
  return `${lines.join('\n')}\n`
}

// Stryker disable next-line Regex: the pattern is only tested against single code units
const SAFE_UNIT = /^[A-Za-z0-9._-]$/
const SEPARATORS = '/\\:'

/** A UTF-16 code unit kept as it is, or escaped as `~` and four uppercase hex digits. */
function safeUnit(unit: string): string {
  return SAFE_UNIT.test(unit) ? unit : `~${unit.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
}

/** JSONL-2: the session id's directory name; undefined for the empty id. */
export function idSegment(id: string): string | undefined {
  if (id === '') return undefined
  if (id === '.') return '~002E'
  if (id === '..') return '~002E~002E'
  let segment = ''
  for (let index = 0; index < id.length; index++) segment += safeUnit(id[index] as string)
  return segment
}

/** JSONL-1: the project directory name for a working directory; undefined for the empty cwd. */
export function projectDirectory(cwd: string | undefined): string | undefined {
  if (cwd === undefined) return '_no-cwd'
  if (cwd === '') return undefined
  let slug = ''
  for (let index = 0; index < cwd.length; index++) {
    const unit = cwd[index] as string
    // Stryker disable next-line ConditionalExpression,EqualityOperator: at index 0 the previous unit is undefined, which is no separator
    const runContinues = index > 0 && SEPARATORS.includes(cwd[index - 1] as string)
    if (!SEPARATORS.includes(unit)) slug += safeUnit(unit)
    else if (!runContinues) slug += '-'
  }
  return `--${(slug.replace(/^-+/, '') || 'root').slice(0, 251)}--`
}
