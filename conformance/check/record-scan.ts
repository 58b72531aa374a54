// The record lines of an artifact (JSONL-9..11, and the strict scan of a zstd artifact's complete
// frames, JSONL-14), one line at a time, by the reference's own `scanLine`, which hands on the events
// of each accepted line as it read them: a packed row stays one row, its members not built.
import { scanLine, type LineScan } from '../../reference/jsonl.ts'
import type { StoredEvents } from '../../reference/chunk-rows.ts'
import type { Rejected } from '../../reference/result.ts'

/** The events one accepted line stands for (one event, or a packed row's members), and the line. */
export type EventHandler = (events: StoredEvents, line: number) => void

export class RecordScanner {
  private scan: LineScan
  private readonly accepted = (events: StoredEvents, line: { number: number }): void => this.handle(events, line.number)

  /** `committed`: the offset just after the header line (raw) or 0 (zstd). */
  constructor(private readonly handle: EventHandler, committed: number) {
    this.scan = { count: 0, defect: undefined, committed }
  }

  get state(): Readonly<LineScan> {
    return this.scan
  }

  /** A new torn-tail state that continues the event count (the torn frame of JSONL-15). */
  restart(committed: number): void {
    this.scan = { count: this.scan.count, defect: undefined, committed }
  }

  /** One complete line; the rejection when it makes the artifact corrupt. */
  judge(bytes: Uint8Array, number: number, start: number, end: number, strict: boolean): Rejected | undefined {
    return scanLine({ bytes, number, start, end }, this.scan, strict, this.accepted)
  }
}
