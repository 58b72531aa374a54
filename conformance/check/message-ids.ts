// LEGACY-11's message ids in a streaming check. A legacy tool-result rewrite inherits the id recorded
// for the seq its replace starts at, which may be that of any earlier message event of the log, so the
// reference keeps every message id. A check that did so would hold memory growing with the log rather
// than with the surface. So a check of a file keeps no id until a rewrite first asks for one; it then
// reads the file again up to that rewrite's line, rebuilding the ids exactly as they would have been
// recorded, and records them from there on. Only a log holding such a rewrite pays: one more read of its
// prefix, and the ids' memory. A pipe cannot be read again, so a check of one records every id.
import { isRecord } from '../../reference/lossless-json.ts'
import { messageIdOf } from '../../reference/processing.ts'
import { upgradeLegacyShapes, type UpgradeContext } from '../../reference/legacy.ts'
import { seqForRecord } from '../../reference/envelope.ts'
import { storedEventAt, storedEventCount, type StoredEvents } from '../../reference/chunk-rows.ts'
import { parsedSnapshot } from './parsed-snapshot.ts'

/** Reads the artifact again; the ids the events of its lines before `line` record, by seq. */
export type RecallIds = (line: number, sessionId: string) => Map<number, string>

/** A second read that no longer reaches the line asked: the file changed, which is no defect of the checker. */
export class RecallFailed extends Error {}

/** The ids a load's upgrades read: recorded from the start, or only once a recall has brought them. */
export class MessageIds {
  private held: Map<number, string> | undefined

  constructor(private readonly sessionId: string, private readonly recall: RecallIds | undefined) {
    this.held = recall === undefined ? new Map() : undefined
  }

  /** The id of the event at `seq`, once ids are held (a later event at the same seq replaces it). */
  record(seq: number, id: string): void {
    this.held?.set(seq, id)
  }

  /** The id recorded for `seq` by the events before `line`, the line of the event that asks. */
  idBefore(seq: number, line: number): string | undefined {
    this.held ??= (this.recall as RecallIds)(line, this.sessionId)
    return this.held.get(seq)
  }
}

/**
 * The ids a load records from the events of the lines before `before`, rebuilt on a second read. The
 * load asks only while no event has failed its legacy, upgrade or shape checks (a fault there stops its
 * upgrades), so every event met here passed them, and its upgrade alone gives its id. A packed row's
 * members are chunks, which hold no message: its first member stands for them, as in the load.
 */
export class MessageIdRecorder {
  readonly ids = new Map<number, string>()
  /** A line at or after `before` has been met: the recall is complete. */
  reached = false
  private readonly context: UpgradeContext
  private count = 0

  constructor(sessionId: string, private readonly before: number) {
    this.context = { sessionId, messageIdBySeq: this.ids }
  }

  line(events: StoredEvents, line: number): void {
    if (line >= this.before) {
      this.reached = true
      return
    }
    const index = this.count
    this.count += storedEventCount(events)
    const record = parsedSnapshot(storedEventAt(events, 0)).value
    if (!isRecord(record)) return
    const upgraded = upgradeLegacyShapes(record, this.context)
    const id = upgraded.ok ? messageIdOf(upgraded.record) : undefined
    if (id !== undefined) this.ids.set(seqForRecord(record, index), id)
  }
}
