// The record lines of an artifact (JSONL-9..11, and the strict scan of a zstd artifact's complete
// frames, JSONL-14), one line at a time, by the reference's own `scanLines`. The reference collects the
// accepted events in `scan.events`; it only reads that array's length and pushes to it, so here it gets
// a sink with those two members that hands each event on as it is accepted and keeps none.
import { scanLines, type LineScan } from '../../reference/jsonl.ts'
import type { Rejected } from '../../reference/result.ts'

/**
 * The events one line decoded to (several for a packed row), the line, and whether the line's text
 * shows that JSON.parse cannot have made a negative zero or an infinity in them.
 */
export type EventHandler = (records: unknown[], line: number, plainNumbers: boolean) => void

const DIGIT_0 = 0x30
const DIGIT_9 = 0x39
const MINUS = 0x2d
const SMALL_E = 0x65
const CAPITAL_E = 0x45
/** More digits in a row than this can make a number too large for a double. */
const MAX_SAFE_DIGIT_RUN = 300

/**
 * Whether JSON.parse may read a negative zero or an infinity from this line: only a number with a
 * minus sign before a 0, with an exponent, or with a very long run of digits can be one. Strings can
 * look the same; they only cost the full search of the parsed value, which decides.
 */
function mayHoldUnsafeNumber(bytes: Uint8Array): boolean {
  let digits = 0
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] as number
    if (byte >= DIGIT_0 && byte <= DIGIT_9) {
      digits += 1
      if (digits > MAX_SAFE_DIGIT_RUN) return true
      continue
    }
    if (digits > 0 && (byte === SMALL_E || byte === CAPITAL_E)) return true
    if (byte === MINUS && bytes[index + 1] === DIGIT_0) return true
    digits = 0
  }
  return false
}

class EventSink {
  length = 0
  line = 0
  plainNumbers = false

  constructor(private readonly handle: EventHandler) {}

  push(...events: unknown[]): number {
    this.handle(events, this.line, this.plainNumbers)
    this.length += events.length
    return this.length
  }
}

export class RecordScanner {
  private readonly sink: EventSink
  private scan: LineScan

  /** `committed`: the offset just after the header line (raw) or 0 (zstd). */
  constructor(handle: EventHandler, committed: number) {
    this.sink = new EventSink(handle)
    this.scan = this.freshScan(committed)
  }

  private freshScan(committed: number): LineScan {
    return { events: this.sink as unknown as unknown[], defect: undefined, committed }
  }

  get eventCount(): number {
    return this.sink.length
  }

  get state(): Readonly<LineScan> {
    return this.scan
  }

  /** A new torn-tail state that continues the event count (the torn frame of JSONL-15). */
  restart(committed: number): void {
    this.scan = this.freshScan(committed)
  }

  /** One complete line; the rejection when it makes the artifact corrupt. */
  judge(bytes: Uint8Array, number: number, start: number, end: number, strict: boolean): Rejected | undefined {
    this.sink.line = number
    this.sink.plainNumbers = !mayHoldUnsafeNumber(bytes)
    const result = scanLines([{ bytes, number, start, end }], this.scan, strict)
    return result.ok ? undefined : result
  }
}
