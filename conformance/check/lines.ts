// Splits a stream of byte chunks into lines (JSONL-4: a line ends at byte 0x0A) without holding more
// than one line. A line longer than the checker's limit is never assembled: its bytes are skipped up to
// its line feed and it is reported as oversized, so a 100 MB line costs time, not memory.

const LINE_FEED = 0x0a

export interface LineHandler {
  /** A complete line without its line feed; `start` and `end` are offsets, `end` just past the feed. */
  line(bytes: Buffer, number: number, start: number, end: number): void
  oversized(number: number, start: number, end: number): void
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
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
    const whole = oversized || this.carry.length === 0 ? undefined : Buffer.concat([...this.carry, bytes.subarray(start, feed)], length)
    this.carry = []
    this.carryLength = 0
    this.skipping = false
    if (oversized) this.handler.oversized(number, lineStart, end)
    else this.handler.line(whole ?? bytes.subarray(start, feed), number, lineStart, end)
  }

  private keep(rest: Buffer): void {
    this.carryLength += rest.length
    if (this.skipping) return
    if (this.carryLength > this.maxLineBytes) {
      this.carry = []
      this.skipping = true
      return
    }
    this.carry.push(Buffer.from(rest))
  }
}
