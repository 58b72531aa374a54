// The state of checking one artifact, shared by the raw and the zstd readers: the header line
// (JSONL-6), the record scan with its torn-tail rules (JSONL-11, JSONL-14, JSONL-15), the streaming
// load and relations behind it, facts about the bytes worth a notice, and the checker's own limits.
import { isUtf8 } from 'node:buffer'
import { decodeHeaderLine, type TornTail } from '../../reference/jsonl.ts'
import type { JsonRecord } from '../../reference/lossless-json.ts'
import type { ErrorCode, RejectionError } from '../../reference/result.ts'
import type { StoredEvents } from '../../reference/chunk-rows.ts'
import { RecordScanner } from './record-scan.ts'
import { StreamingLoad, type LoadOutcome } from './streaming-load.ts'
import { MessageIdRecorder, RecallFailed, type RecallIds } from './message-ids.ts'
import { FileCutShort } from './byte-source.ts'
import { errorMessage, isSystemError, type ArtifactExtent } from '../wording.ts'
import { headerMembersFault, lineFormFault, rowOrderFault, shortRowFault } from './writer-rules.ts'
import { BatchPacking } from './batch-packing.ts'
import { mayWriteTurnEnd } from './lines.ts'
import { buildsMoreValues, BYTES_PER_VALUE, FEWEST_MOST_VALUES, mostLineValues, valuesUpTo } from './line-values.ts'

// As the reader decodes a line: a byte order mark stays, and makes the line unparsable.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })

export interface CheckSettings {
  vocabulary: string
  /** Longest line the checker assembles; a longer one stops the check (a limit, not a verdict). */
  maxLineBytes: number
  /** Gather the byte facts of every complete line and nothing else: no header decode, no scan, no load. */
  factsOnly?: boolean
  /**
   * The most bytes a zstd log's decompressed content may hold; past it the read stops, and the outcome
   * says so: a caller that holds the whole log (audit) learns that it could not, which the compressed
   * size does not tell. (A raw log's content is its size, which such a caller bounds before reading.)
   */
  mostContentBytes?: number
  /**
   * With `factsOnly`: the most values the content's lines may build when parsed, counted as their
   * arrays and objects and the members and elements after the first of each (their `[`, `{` and `,`
   * outside strings); past it the read stops, and the outcome says so, for a caller whose memory they
   * cost (audit).
   */
  mostContentValues?: number
  /** The largest zstd window the decoder holds (default MOST_WINDOW_BYTES, zstd-reader.ts). */
  mostWindowBytes?: number
  /** Also gather what the lines say of their writer (writer-rules.ts). */
  writer?: boolean
  /** A notice makes its file invalid too (`check --strict`). */
  strict?: boolean
  /** Read every file as a lone artifact: no name binds it to a place in the layout (`--no-layout`). */
  noLayout?: boolean
}

/** An error of reading the file, first or again: a failed system call, or the file found changed. */
export function isReadFailure(error: unknown): boolean {
  return error instanceof RecallFailed || error instanceof FileCutShort || isSystemError(error)
}

/** A reason the checker could not reach a verdict; it is not a rule of the spec. */
export type LimitFault =
  | { code: 'CHECK_LINE_TOO_LONG' | 'CHECK_IO_ERROR' | 'CHECK_INTERNAL_ERROR'; line?: number; message: string }
  /** `window`: the frame's first byte and the window it needs, for a caller's own words (audit). */
  | { code: 'CHECK_WINDOW_TOO_LARGE'; line?: number; message: string; window: { frameStart: number; bytes: bigint } }

/** Where the first line with a byte-level oddity is, and how many lines have it. */
export interface LineFact {
  first: number
  count: number
}

export interface ByteFacts {
  byteOrderMark?: LineFact
  carriageReturn?: LineFact
  invalidUtf8?: LineFact
}

/** Where the first zstd frame with a writer's fault starts, the line its content starts on, and how many there are. */
export interface FrameFact {
  byte: number
  line: number
  count: number
}

/** Where the first zstd frame whose batch departs from ROW-6 starts, the line of its first departure and why, and how many there are. */
export interface PackingFact {
  byte: number
  line: number
  why: string
  count: number
}

/** What the artifact says of its writer, when the settings ask (writer-rules.ts). */
export interface WriterFacts {
  /** JSONL-8: the artifact holds its header and nothing else. */
  headerOnly?: true
  /** JSONL-13: the complete frames without a content checksum. */
  checksumless?: FrameFact
  /** JSONL-14: the frames whose window exceeds the 2^23 bytes a writer may declare, with the first one's. */
  wideWindow?: FrameFact & { window: number }
  /** JSONL-13: the complete frames after the header's that hold no batch: no content, or part of a line. */
  notABatch?: FrameFact & { why: string }
  /** JSONL-5: what is wrong with the header line's members. */
  headerMembers?: string
  /** ROW-6: the zstd frames whose batch packs chunk runs, but not as ROW-6 packs them, with the first one's first departure. */
  packing?: PackingFact
  /** ROW-6: the packed rows of one or two members, with the first one's fault. */
  shortRow?: LineFact & { why: string }
  /** ROW-7: the packed rows with their members, or their data's, in another order, with the first one's fault. */
  rowOrder?: LineFact & { why: string }
  /** JSON-12: the lines writing a member name twice, with the first such member. */
  duplicateMember?: LineFact & { name: string; path: string }
  /** JSONL-8: the other lines that JSON.stringify would write otherwise, with the first difference. */
  form?: LineFact & { difference: string }
}

/**
 * Where the events of the record lines go: the load, with the way to read the log again for its
 * message ids (none for a pipe); or, on that second read, a recorder of the ids before a line.
 */
type EventsTarget = { recall: RecallIds | undefined } | { idsBefore: number; sessionId: string }

export interface ArtifactOutcome {
  decodeError: RejectionError | undefined
  /** For a fault the spec reports without a line (a zstd frame): the line its frame's content starts on. */
  contextLine: number | undefined
  limit: LimitFault | undefined
  header: JsonRecord | undefined
  tornTail: TornTail | null
  /** Why the line that starts the torn tail cannot be read, for people; undefined for an unterminated line. */
  tornTailWhy: string | undefined
  /** How far the artifact runs: what a torn tail drops. */
  extent: ArtifactExtent
  load: LoadOutcome | undefined
  facts: ByteFacts
  writerFacts: WriterFacts
  /** Which content limit the read passed, so that it stopped: `mostContentBytes` or `mostContentValues`. */
  pastMost: 'bytes' | 'values' | undefined
}

/** `fact` with one more occurrence; when there was none, a new one from its first occurrence's details. */
function counted<T extends { count: number }>(fact: T | undefined, first: Omit<T, 'count'>): T {
  if (fact === undefined) return { ...first, count: 1 } as T
  fact.count += 1
  return fact
}

export class ArtifactCheck {
  decodeError: RejectionError | undefined
  contextLine: number | undefined
  limit: LimitFault | undefined
  header: JsonRecord | undefined
  readonly facts: ByteFacts = {}
  readonly writerFacts: WriterFacts = {}
  /**
   * The reader may vouch that every byte from this offset to the end of what it has handed on so far
   * is well-formed UTF-8 (it checks whole chunks at once); lines starting there need no check of their own.
   */
  wellFormedFrom = Number.POSITIVE_INFINITY
  private load: StreamingLoad | undefined
  private scanner: RecordScanner | undefined
  /** On a second read for message ids, what records them. */
  private recorder: MessageIdRecorder | undefined
  /** For `--writer`, where the artifact shows its batches (zstd): how the current batch was packed. */
  private packing: BatchPacking | undefined
  /** For `--writer`: the events of the line the reader accepted last, as the scanner hands them on. */
  private accepted: StoredEvents | undefined
  /** The bytes of a zstd log's content decompressed so far. */
  private contentBytes = 0
  /** With `mostContentValues`: the values the lines read so far would build, counted as it says. */
  private contentValues = 0

  /** The most arrays and objects one line may build (line-values.ts). */
  private readonly mostValues: number

  constructor(readonly settings: CheckSettings, private readonly target: EventsTarget = { recall: undefined }) {
    this.mostValues = mostLineValues(settings.maxLineBytes)
  }

  /**
   * A verdict of the storage layer or a limit is reached, so nothing later can change the outcome; or
   * a second read for message ids has all it needs.
   */
  get finished(): boolean {
    return this.decodeError !== undefined || this.limit !== undefined || this.recorder?.reached === true || this.exhausted
  }

  /** On a second read for message ids: the ids, once the read has reached its line. */
  get recalledIds(): Map<number, string> | undefined {
    return this.recorder?.reached === true ? this.recorder.ids : undefined
  }

  get scan(): RecordScanner | undefined {
    return this.scanner
  }

  rejectStorage(code: ErrorCode, message: string, line?: number): void {
    if (!this.finished) this.decodeError = { code, message, ...(line === undefined ? {} : { line }) }
  }

  /** A complete zstd frame that does not decompress; it outranks a bad line met inside it. */
  rejectFrame(start: number, firstLine: number, why: string): void {
    if (this.limit !== undefined) return
    this.decodeError = { code: 'JSONL_FRAME_INVALID', message: `the frame at byte ${start}, whose content starts on line ${firstLine}, does not decompress: ${why}` }
    this.contextLine = firstLine
  }

  stopAtLimit(found: LimitFault): void {
    if (!this.finished) this.limit = found
  }

  /**
   * Whether a record line over the limit may be passed over unread: after the first defect, the reader
   * decodes a line only to look for a `turn/end` (JSONL-11 step 2), which a line holding neither a
   * backslash nor `turn/end` cannot write, so such a line changes nothing, as the reference's scan passes
   * it over too (its byte notices are not gathered). Any other over-long line stops the check.
   */
  passesOver(mayHoldTurnEnd: boolean): boolean {
    return !mayHoldTurnEnd && this.scanner?.state.defect !== undefined
  }

  oversized(line: number): void {
    this.stopAtLimit({ code: 'CHECK_LINE_TOO_LONG', line, message: `line ${line} is longer than the checker's limit of ${this.settings.maxLineBytes} bytes (--max-line-bytes)` })
  }

  /** A line whose parse would build more arrays and objects than check holds for one line (line-values.ts). */
  private tooManyValues(line: number): void {
    const why = `one per ${BYTES_PER_VALUE} bytes of --max-line-bytes, ${this.settings.maxLineBytes}, and at least ${FEWEST_MOST_VALUES}: each array or object costs check about 100 bytes of memory; a larger --max-line-bytes allows more`
    this.stopAtLimit({ code: 'CHECK_LINE_TOO_LONG', line, message: `line ${line} holds more than ${this.mostValues} opening brackets and braces outside strings, each an array or object a parser builds, the checker's limit for one line (${why})` })
  }

  /** `bytes` more of a zstd log's content were decompressed (a ContentBudget of zstd-inflate.ts). */
  content(bytes: number): void {
    this.contentBytes += bytes
  }

  /** The content limit passed, if one was: the decoder stops, and so does the read. */
  private get pastMost(): 'bytes' | 'values' | undefined {
    if (this.settings.mostContentBytes !== undefined && this.contentBytes > this.settings.mostContentBytes) return 'bytes'
    if (this.settings.mostContentValues !== undefined && this.contentValues > this.settings.mostContentValues) return 'values'
    return undefined
  }

  /** A content limit was passed (a ContentBudget of zstd-inflate.ts): the decoder stops, and so does the read. */
  get exhausted(): boolean {
    return this.pastMost !== undefined
  }

  /** JSONL-6 steps 2 to 5; a header that passes starts the load. `committed`: the offset after it. */
  headerLine(bytes: Uint8Array, committed: number): void {
    this.noteBytes(bytes, 1)
    if (this.settings.factsOnly === true) return this.countValues(bytes)
    if (buildsMoreValues(bytes, this.mostValues)) return this.tooManyValues(1)
    const decoded = decodeHeaderLine(bytes)
    if (!decoded.ok) return void (this.decodeError = decoded.error)
    if (this.settings.writer === true) this.noteWriter(bytes, 1)
    this.header = decoded.value
    const header = decoded.value
    if ('idsBefore' in this.target) {
      const recorder = new MessageIdRecorder(this.target.sessionId, this.target.idsBefore)
      this.recorder = recorder
      this.scanner = new RecordScanner((events, line) => recorder.line(events, line), committed)
      return
    }
    // As the corpus pipeline does: the session asked for is the one the header names.
    const load = new StreamingLoad({ header, sessionId: header['id'], vocabulary: this.settings.vocabulary }, this.target.recall)
    this.load = load
    // Without --writer the handler does the load's work alone: it runs once per line of every check.
    this.scanner = new RecordScanner(this.settings.writer === true
      ? (events, line) => {
          load.line(events, line)
          this.accepted = events
          this.packing?.record(events, line)
        }
      : (events, line) => load.line(events, line), committed)
  }

  /** One complete record line; `strict` inside a zstd artifact's complete frames. */
  recordLine(bytes: Uint8Array, number: number, start: number, end: number, strict: boolean): void {
    if (this.finished) return
    if (this.settings.factsOnly === true) {
      this.noteBytes(bytes, number, start >= this.wellFormedFrom)
      return this.countValues(bytes)
    }
    if (this.scanner === undefined) return
    this.noteBytes(bytes, number, start >= this.wellFormedFrom)
    // Every line the reader parses: in a torn tail, only one that may write a turn/end.
    const parsed = this.scanner.state.defect === undefined || mayWriteTurnEnd(bytes)
    if (parsed && buildsMoreValues(bytes, this.mostValues)) return this.tooManyValues(number)
    try {
      const rejected = this.scanner.judge(bytes, number, start, end, strict)
      if (rejected !== undefined) this.decodeError = rejected.error
      // Only a line the reader accepted: after the first defect, lines are the torn tail's.
      else if (this.settings.writer === true && this.scanner.state.defect === undefined) this.noteWriter(bytes, number, this.accepted)
    } catch (error) {
      // The reference's own limits (such as a recursion over a very deep value) surface as
      // exceptions; they are the checker's limits, reported with their line. A second read of the
      // file (LEGACY-11) that fails, or finds the file changed, is an I/O failure.
      const why = errorMessage(error)
      const code = isReadFailure(error) ? 'CHECK_IO_ERROR' : 'CHECK_INTERNAL_ERROR'
      this.stopAtLimit({ code, line: number, message: `line ${number} could not be checked: ${why}` })
    }
  }

  /** For `--writer`: the reader shows where each batch ends (batchEnd), so ROW-6's packing can be judged. */
  trackBatches(): void {
    this.packing = new BatchPacking()
  }

  /** ROW-6, for `--writer`: the batch of the frame at `byte` has ended (a torn frame's, where it is cut). */
  batchEnd(byte: number): void {
    const departure = this.packing?.end()
    if (departure !== undefined) this.writerFacts.packing = counted(this.writerFacts.packing, { byte, ...departure })
  }

  /** JSONL-13, for `--writer`: a complete frame without a content checksum. */
  frameWithoutChecksum(byte: number, line: number): void {
    this.writerFacts.checksumless = counted(this.writerFacts.checksumless, { byte, line })
  }

  /** JSONL-14, for `--writer`: a frame whose header declares a window over the writers' limit. */
  frameWithWideWindow(byte: number, line: number, window: number): void {
    this.writerFacts.wideWindow = counted(this.writerFacts.wideWindow, { byte, line, window })
  }

  /** JSONL-13, for `--writer`: a complete frame after the header's that holds no batch, and why. */
  frameNotABatch(byte: number, line: number, why: string): void {
    this.writerFacts.notABatch = counted(this.writerFacts.notABatch, { byte, line, why })
  }

  outcome(tornTail: TornTail | null, extent: ArtifactExtent, tornTailWhy?: string): ArtifactOutcome {
    const done = this.finished
    // JSONL-8: a writer's first write holds the header and the first batch, so no artifact it writes is a
    // header alone. With no event and no torn tail, only empty zstd frames can follow the header, and
    // those are WRITER_FRAME_BATCH's.
    const alone = !done && tornTail === null && this.scanner?.state.count === 0 && this.writerFacts.notABatch === undefined
    if (this.settings.writer === true && alone) this.writerFacts.headerOnly = true
    return {
      decodeError: this.decodeError,
      contextLine: this.contextLine,
      limit: this.limit,
      header: this.header,
      tornTail: done ? null : tornTail,
      tornTailWhy: done ? undefined : tornTailWhy,
      extent,
      load: done || this.load === undefined ? undefined : this.load.finish(),
      facts: this.facts,
      writerFacts: this.writerFacts,
      pastMost: this.pastMost,
    }
  }

  /** With `mostContentValues`, the values of one more line, counted only as far as the limit. */
  private countValues(bytes: Uint8Array): void {
    const most = this.settings.mostContentValues
    if (most !== undefined) this.contentValues += valuesUpTo(bytes, most - this.contentValues, true)
  }

  private noteBytes(bytes: Uint8Array, line: number, wellFormed = false): void {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) this.facts.byteOrderMark = counted(this.facts.byteOrderMark, { first: line })
    if (bytes[bytes.length - 1] === 0x0d) this.facts.carriageReturn = counted(this.facts.carriageReturn, { first: line })
    if (!wellFormed && !isUtf8(bytes)) this.facts.invalidUtf8 = counted(this.facts.invalidUtf8, { first: line })
  }

  /** The writer rules of a line the reader accepted (so it parses), with the events it read from a record line. */
  private noteWriter(bytes: Uint8Array, line: number, events?: StoredEvents): void {
    const text = utf8.decode(bytes)
    // A verbatim event is what the reader parsed from this very text; a row is read again, since the
    // reader keeps its data but not the order of its own members.
    const value = events !== undefined && events.row === undefined ? events.event : JSON.parse(text) as unknown
    if (line === 1) {
      const members = headerMembersFault(value)
      if (members !== undefined) this.writerFacts.headerMembers = members
    } else {
      const order = rowOrderFault(value)
      if (order !== undefined) this.writerFacts.rowOrder = counted(this.writerFacts.rowOrder, { first: line, why: order })
      const short = shortRowFault(value)
      if (short !== undefined) this.writerFacts.shortRow = counted(this.writerFacts.shortRow, { first: line, why: short })
    }
    const fault = lineFormFault(text, value)
    if (fault?.kind === 'duplicate-member') this.writerFacts.duplicateMember = counted(this.writerFacts.duplicateMember, { first: line, name: fault.name, path: fault.path })
    if (fault?.kind === 'form') this.writerFacts.form = counted(this.writerFacts.form, { first: line, difference: fault.difference })
  }
}
