// The record lines of an artifact (JSONL-9..11, and the strict scan of a zstd artifact's complete
// frames, JSONL-14), one line at a time, by the reference's own `scanLines`. The reference collects the
// accepted events in `scan.events`; it only reads that array's length and pushes to it, so here it gets
// a sink with those two members that hands each event on as it is accepted and keeps none.
import { scanLines, type LineScan } from '../../reference/jsonl.ts'
import type { Rejected } from '../../reference/result.ts'

/** The events one line decoded to (several for a packed row), and the line. */
export type EventHandler = (records: unknown[], line: number) => void

class EventSink {
  length = 0
  line = 0

  constructor(private readonly handle: EventHandler) {}

  push(...events: unknown[]): number {
    this.handle(events, this.line)
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
    const result = scanLines([{ bytes, number, start, end }], this.scan, strict)
    return result.ok ? undefined : result
  }
}
