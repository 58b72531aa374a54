// The record lines of an artifact (JSONL-9..11, and the strict scan of a zstd artifact's complete
// frames, JSONL-14), one line at a time, by the reference's own `scanLines`. The reference collects the
// accepted events in `scan.events`; it only reads that array's length and pushes to it, so here it gets
// a sink with those two members that keeps no more than the events of the line being judged.
import { scanLines, type LineScan } from '../../reference/jsonl.ts'
import type { Rejected } from '../../reference/result.ts'

/** The events one line decoded to (several for a packed row), and the line. */
export type EventHandler = (records: unknown[], line: number) => void

/**
 * What the reference's scan sees as its `events` array. The scan pushes a line's events one by one;
 * the sink gathers them, and the scanner hands them on together once the line is judged, so that the
 * members of a packed row reach the load as one row.
 */
class EventSink {
  length = 0
  private line: unknown[] = []

  push(event: unknown): number {
    this.line.push(event)
    return ++this.length
  }

  /** The events pushed since the last call. */
  take(): unknown[] {
    const events = this.line
    this.line = []
    return events
  }
}

export class RecordScanner {
  private readonly sink = new EventSink()
  private scan: LineScan

  /** `committed`: the offset just after the header line (raw) or 0 (zstd). */
  constructor(private readonly handle: EventHandler, committed: number) {
    this.scan = this.freshScan(committed)
  }

  private freshScan(committed: number): LineScan {
    return { events: this.sink as unknown as unknown[], defect: undefined, committed }
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
    const result = scanLines([{ bytes, number, start, end }], this.scan, strict)
    const events = this.sink.take()
    if (events.length > 0) this.handle(events, number)
    return result.ok ? undefined : result
  }
}
