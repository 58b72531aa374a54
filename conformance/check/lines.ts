// Splits a stream of byte chunks into lines (JSONL-4: a line ends at byte 0x0A) without holding more
// than one line. A line longer than the checker's limit is never assembled: its bytes are skipped up to
// its line feed and it is reported as oversized, so a 100 MB line costs time, not memory. Whether the
// skipped bytes could write a `turn/end` is noted on the way, for the torn tail (JSONL-11), by the test
// of reference/jsonl.ts's mayHoldTurnEnd (tests/check/artifact.test.ts compares the two on torn tails).

const LINE_FEED = 0x0a
const BACKSLASH = 0x5c
const TURN_END = Buffer.from('turn/end')
const NOTHING = Buffer.alloc(0)

export interface LineHandler {
  /** A complete line without its line feed; `start` and `end` are offsets, `end` just past the feed. */
  line(bytes: Buffer, number: number, start: number, end: number): void
  /**
   * A line over the limit, skipped. `mayHoldTurnEnd`: its bytes hold a backslash or `turn/end`, the only
   * ways to write that type; a line with neither cannot prove a torn tail committed (JSONL-11 step 2).
   */
  oversized(number: number, start: number, end: number, mayHoldTurnEnd: boolean): void
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/** Whether a whole line holds a backslash or `turn/end`: in a torn tail, the reader parses only such a line. */
export function mayWriteTurnEnd(bytes: Uint8Array): boolean {
  const line = asBuffer(bytes)
  return line.includes(BACKSLASH) || line.includes(TURN_END)
}

export class LineSplitter {
  /** The number the next line will get. */
  number: number
  /** The offset of the next byte of the chunk being split (carried bytes lie before it). */
  private position: number
  private carry: Buffer[] = []
  private carryLength = 0
  /** The current line already passed the limit: its bytes are dropped until its line feed. */
  private skipping = false
  /** Whether the bytes of the line being skipped so far hold a backslash or `turn/end`. */
  private skippedMark = false
  /** The last bytes skipped, so that a `turn/end` across two pieces is seen. */
  private skippedEnd = NOTHING
  private stopped = false

  constructor(
    private readonly handler: LineHandler,
    private readonly maxLineBytes: number,
    firstNumber = 1,
    base = 0,
  ) {
    this.number = firstNumber
    this.position = base
  }

  /** Bytes after the last line feed (the unterminated tail so far). */
  get tailLength(): number {
    return this.carryLength
  }

  /** No further line is handed out (the reader may stop reading). */
  stop(): void {
    this.stopped = true
  }

  get isStopped(): boolean {
    return this.stopped
  }

  /** Hands out the complete lines of `chunk`; the chunk may be reused by the caller afterwards. */
  push(chunk: Uint8Array): void {
    const bytes = asBuffer(chunk)
    let start = 0
    for (let feed = bytes.indexOf(LINE_FEED); feed !== -1 && !this.stopped; feed = bytes.indexOf(LINE_FEED, start)) {
      this.emit(bytes, start, feed)
      start = feed + 1
    }
    if (!this.stopped && start < bytes.length) this.keep(bytes.subarray(start))
    this.position += bytes.length - start
  }

  private emit(bytes: Buffer, start: number, feed: number): void {
    const lineStart = this.position - this.carryLength
    const length = this.carryLength + feed - start
    const end = this.position + feed - start + 1
    const number = this.number++
    this.position = end
    const oversized = this.skipping || length > this.maxLineBytes
    if (oversized) return this.emitSkipped(bytes.subarray(start, feed), number, lineStart, end)
    const whole = this.carry.length === 0 ? undefined : Buffer.concat([...this.carry, bytes.subarray(start, feed)], length)
    this.carry = []
    this.carryLength = 0
    this.handler.line(whole ?? bytes.subarray(start, feed), number, lineStart, end)
  }

  /** The end of a line over the limit: its last bytes noted as skipped, and the line reported. */
  private emitSkipped(last: Buffer, number: number, lineStart: number, end: number): void {
    for (const piece of [...this.carry, last]) this.skip(piece)
    const mayHoldTurnEnd = this.skippedMark
    this.carry = []
    this.carryLength = 0
    this.skipping = false
    this.skippedMark = false
    this.skippedEnd = NOTHING
    this.handler.oversized(number, lineStart, end, mayHoldTurnEnd)
  }

  private keep(rest: Buffer): void {
    this.carryLength += rest.length
    if (this.skipping) return this.skip(rest)
    if (this.carryLength > this.maxLineBytes) {
      for (const piece of [...this.carry, rest]) this.skip(piece)
      this.carry = []
      this.skipping = true
      return
    }
    this.carry.push(Buffer.from(rest))
  }

  /** Notes whether `piece`, the next bytes of a skipped line, holds a backslash or `turn/end`. */
  private skip(piece: Buffer): void {
    if (this.skippedMark || piece.length === 0) return
    const overlap = TURN_END.length - 1
    const across = Buffer.concat([this.skippedEnd, piece.subarray(0, overlap)])
    this.skippedMark = mayWriteTurnEnd(piece) || across.includes(TURN_END)
    const end = Buffer.concat([this.skippedEnd, piece.subarray(Math.max(0, piece.length - overlap))])
    this.skippedEnd = Buffer.from(end.subarray(Math.max(0, end.length - overlap)))
  }
}
