// ROW-6 over one written batch, for `check --writer`: a writer that packs packs every run of three or
// more chunk events of the batch that continue each other into one row, whole, and nothing else.
// Packing is optional, so only a batch that holds a row shows that its writer packs; a batch without
// one may come from a writer that does not. The records are judged one by one, as they are read,
// keeping only the run they may go on with, so a large batch costs no memory. Only the zstd encoding
// shows where a batch ends (JSONL-13).
import { continuesRun, MIN_RUN, packableTag, storedEventAt, storedEventCount, type CheckedRow, type Packable, type StoredEvents } from '../../reference/chunk-rows.ts'

/** The run the next record may go on with: its last event, the line it starts on, and how it was written. */
interface OpenRun {
  last: Packable
  firstLine: number
  /** Written as a row (on `firstLine`), or one event per line. */
  inRow: boolean
  /** How many of its events were written one per line so far (0 for a row). */
  verbatim: number
}

/** Member `k` of a row the reader accepted: ROW-3 has checked all that ROW-5 asks of a packable event. */
function rowMember(events: { row: CheckedRow }, k: number): Packable {
  return { tag: events.row.tag, event: storedEventAt(events, k) as Packable['event'] }
}

/** A record written verbatim, when ROW-5 lets a writer pack it. */
function packable(event: unknown): Packable | undefined {
  const tag = packableTag(event)
  return tag === undefined ? undefined : { tag, event: event as Packable['event'] }
}

export class BatchPacking {
  private run: OpenRun | undefined
  private holdsRow = false
  /** The batch's first departure from ROW-6, kept until the batch shows (by a row) that its writer packs. */
  private departure: { line: number; why: string } | undefined

  /** The events of one record line of the batch, as the reader accepted it. */
  record(events: StoredEvents, line: number): void {
    if (events.row === undefined) return this.verbatim(packable(events.event), line)
    this.holdsRow = true
    const before = this.run
    if (before !== undefined && continuesRun(before.last, rowMember(events, 0))) {
      this.depart(line, `the row on line ${line} goes on with the run ${before.inRow ? `in the row on line ${before.firstLine}` : `written one event per line from line ${before.firstLine}`}, which a writer that packs writes whole in one row`)
    }
    this.run = { last: rowMember(events, storedEventCount(events) - 1), firstLine: line, inRow: true, verbatim: 0 }
  }

  /** Ends the batch: ROW-6's first departure in it when the batch packs, else undefined. */
  end(): { line: number; why: string } | undefined {
    const found = this.holdsRow ? this.departure : undefined
    this.run = undefined
    this.holdsRow = false
    this.departure = undefined
    return found
  }

  private verbatim(event: Packable | undefined, line: number): void {
    // ROW-6: an event a writer may not pack closes the run. (In a log its seq already breaks the chain.)
    if (event === undefined) return void (this.run = undefined)
    const run = this.run
    if (run === undefined || !continuesRun(run.last, event)) return void (this.run = { last: event, firstLine: line, inRow: false, verbatim: 1 })
    run.last = event
    if (run.inRow) return this.depart(line, `line ${line} writes on its own a chunk event that goes on with the row on line ${run.firstLine}, which a writer that packs writes into that row`)
    run.verbatim += 1
    if (run.verbatim === MIN_RUN) this.depart(line, `lines ${run.firstLine} to ${line} write one event per line a run of ${MIN_RUN} chunk events, which a writer that packs writes as one row`)
  }

  private depart(line: number, why: string): void {
    this.departure ??= { line, why }
  }
}
