// `load` (PROC-2) and `relations` (PROC-7) in one pass over the events, holding none of them.
//
// The reference runs the phases one after another over the whole log; a single pass cannot, but the
// verdict only needs the first fault of each phase. So each event goes through the phases in order,
// and the first fault of each phase is remembered; at the end the fault of the earliest phase wins,
// exactly as if the phases had run one by one. Once a phase has a fault, later phases stop working
// (their faults could never be reported), but earlier ones go on: a legacy type anywhere still beats
// a bad shape earlier in the log. Relations run on the events that passed replay and count only when
// the whole load passes.
//
// What is kept: the surface fold (reference/surface.ts: the current nodes), the tool/result events on
// the surface with their result content blanked (all a rewrite check reads, REWR-6), and the relation
// state with its open brackets. The message ids LEGACY-11 may inherit are kept only once a legacy
// rewrite asks for one, or from the start where the log cannot be read again (message-ids.ts).
import { isRecord, snapshotJson, type JsonRecord, type Snapshot } from '../../reference/lossless-json.ts'
import { effectiveSessionId, eventFault, messageIdOf, shapeFault } from '../../reference/processing.ts'
import { headerFieldsFault, headerIdentityFault } from '../../reference/storage-header.ts'
import { legacyRejectionFault, upgradeLegacyShapes, type UpgradeContext } from '../../reference/legacy.ts'
import { unknownTypeFault, vocabularyNamed } from '../../reference/unknown-types.ts'
import { applySurfacePlan, emptySurface, planSurfaceEvent, type SurfacePlan, type SurfaceState } from '../../reference/surface.ts'
import { withBlankedResultContent } from '../../reference/tool-result-rewrites.ts'
import { seqForRecord, type SessionEvent } from '../../reference/envelope.ts'
import { storedEventAt, storedEventCount, type StoredEvents } from '../../reference/chunk-rows.ts'
import type { ErrorCode, Fault } from '../../reference/result.ts'
import { RelationStream } from './relations-stream.ts'
import { ViolationList } from './violation-list.ts'
import { MessageIds, type RecallIds } from './message-ids.ts'
import { parsedSnapshot } from './parsed-snapshot.ts'

/** The phases of PROC-2 in order; `header-fields` is the start of the replay phase (META-4). */
export const LOAD_STAGES = ['header', 'legacy', 'shape', 'vocabulary', 'header-fields', 'replay'] as const
export type LoadStage = (typeof LOAD_STAGES)[number]

export interface LoadFault {
  stage: LoadStage
  code: ErrorCode
  message: string
  seq?: number
  line?: number
}

export interface LoadOutcome {
  fault: LoadFault | undefined
  events: number
  /** Relation violations; none when the load failed (relations run over loaded logs only). */
  violations: ViolationList
}

export interface LoadSettings {
  header: unknown
  sessionId?: unknown
  vocabulary?: unknown
}

/** The header is the artifact's first line (in zstd, the header frame's content). */
const HEADER_LINE = 1

/** Stage indexes, for the "has an earlier stage failed" test on every event. */
const HEADER = 0
const LEGACY = 1
const SHAPE = 2
const VOCABULARY = 3
const HEADER_FIELDS = 4
const REPLAY = 5

export class StreamingLoad {
  private readonly faults: (LoadFault | undefined)[] = LOAD_STAGES.map(() => undefined)
  /** The index of the earliest stage with a fault; a stage runs only while it is greater. */
  private earliest: number = LOAD_STAGES.length
  private readonly known: ReadonlySet<string> | undefined
  private readonly upgrades: UpgradeContext
  private readonly messageIds: MessageIds
  /** The line of the event being upgraded: a recall of message ids reads the lines before it. */
  private upgrading = 0
  private readonly surface: SurfaceState = emptySurface()
  /** tool/result events on the surface, by seq: the only events a replace can need (REWR-6). */
  private readonly surfaceResults = new Map<number, SessionEvent>()
  private readonly resultAt = (seq: number): SessionEvent | undefined => this.surfaceResults.get(seq)
  private readonly relations = new RelationStream()
  private count = 0

  /** `recall`: how to rebuild LEGACY-11's message ids from the log; without it they are all kept. */
  constructor(settings: LoadSettings, recall?: RecallIds) {
    const header = snapshotJson(settings.header)
    const sessionId = effectiveSessionId(header.value, settings.sessionId)
    this.messageIds = new MessageIds(sessionId, recall)
    this.upgrades = { sessionId, messageIdBySeq: { get: seq => this.messageIds.idBefore(seq, this.upgrading) } }
    this.known = vocabularyNamed(settings.vocabulary)
    const identity = headerIdentityFault(header.value, settings.sessionId)
    if (identity !== undefined) this.note(HEADER, identity, undefined, HEADER_LINE)
    if (this.known === undefined) {
      this.note(VOCABULARY, { code: 'FORMAT_UNKNOWN_EVENT_TYPE', message: `this reader has no vocabulary named ${String(settings.vocabulary)}` })
    }
    // The remaining fields are read only from a header that passed the header phase (META-4).
    const fields = identity === undefined ? headerFieldsFault(header) : undefined
    if (fields !== undefined) this.note(HEADER_FIELDS, fields, undefined, HEADER_LINE)
  }

  /**
   * The events one storage line stands for. Several are the members of a packed row (ROW-2): they
   * differ from the first only in seq and time (both already checked by the decoder, JSONL-10 and
   * ROW-3) and in their delta's text, which no load check or relation reads. So each member meets
   * exactly the checks the first met, with the same outcome and the same state after: the first goes
   * through every phase, and the others (never built) only repeat its relation outcome at their own
   * seqs (a fault of the first in any load phase is the first of that phase, so theirs would never
   * be reported).
   */
  line(events: StoredEvents, line: number): void {
    const first = storedEventAt(events, 0)
    const related = this.event(first, line)
    const members = storedEventCount(events) - 1
    if (members === 0) return
    this.count += members
    // The decoder accepted the row only with consecutive seqs (JSONL-10), the first at seq0.
    if (related) this.relations.repeatLast((first as SessionEvent).seq + 1, members, line)
  }

  /** One decoded event record, in order; true when it reached the relations. */
  private event(raw: unknown, line: number): boolean {
    const index = this.count++
    if (this.earliest <= LEGACY) return false
    const snapshot = parsedSnapshot(raw)
    let record = snapshot.value
    const seq = seqForRecord(record, index)
    const legacy = legacyRejectionFault(record)
    if (legacy !== undefined) return this.note(LEGACY, legacy, seq, line)
    if (this.earliest <= SHAPE) return false
    if (isRecord(record)) {
      const upgraded = this.upgrade(record, seq, line)
      if (upgraded === undefined) return false
      record = upgraded
    }
    if (this.earliest <= VOCABULARY) return false
    const unknown = unknownTypeFault(record, this.known as ReadonlySet<string>)
    if (unknown !== undefined) return this.note(VOCABULARY, unknown, seq, line)
    if (this.earliest <= REPLAY) return false
    return this.replay({ snapshot, record, seq }, index, line)
  }

  finish(): LoadOutcome {
    const fault = this.faults[this.earliest]
    const violations = this.relations.finish()
    return { fault, events: this.count, violations: fault === undefined ? violations : new ViolationList() }
  }

  /** Keeps the first fault of a stage; always false, so callers can return it. */
  private note(stage: number, found: Fault, seq?: number, line?: number): false {
    if (this.faults[stage] !== undefined) return false
    this.faults[stage] = { stage: LOAD_STAGES[stage] as LoadStage, code: found.code, message: found.message, ...(seq === undefined ? {} : { seq }), ...(line === undefined ? {} : { line }) }
    this.earliest = Math.min(this.earliest, stage)
    return false
  }

  /** Phase 3 for one record: its legacy upgrade, then its shapes; undefined after a fault. */
  private upgrade(record: JsonRecord, seq: number, line: number): JsonRecord | undefined {
    this.upgrading = line
    const upgraded = upgradeLegacyShapes(record, this.upgrades)
    if (!upgraded.ok) return void this.note(SHAPE, upgraded.fault, seq, line)
    const found = shapeFault(upgraded.record)
    if (found !== undefined) return void this.note(SHAPE, found, seq, line)
    const messageId = messageIdOf(upgraded.record)
    if (messageId !== undefined) this.messageIds.record(seq, messageId)
    return upgraded.record
  }

  /** Phase 5 for one event, then its relations; true when it reached them. */
  private replay(entry: { snapshot: Snapshot; record: unknown; seq: number }, index: number, line: number): boolean {
    const found = eventFault(entry, index)
    if (found !== undefined) return this.note(REPLAY, found, entry.seq, line)
    const event = entry.record as SessionEvent
    const planned = planSurfaceEvent(this.surface, event, this.resultAt)
    if (!planned.ok) return this.note(REPLAY, planned.fault, entry.seq, line)
    applySurfacePlan(this.surface, planned.plan)
    // The fold's list of replacements is for the `surface` operation; a check never reads it.
    if (planned.plan.kind === 'replace') this.surface.replacements.length = 0
    this.trackResults(planned.plan, event)
    this.relations.step(event, line)
    return true
  }

  private trackResults(plan: SurfacePlan, event: SessionEvent): void {
    if (plan.kind === 'none') return
    if (plan.kind === 'replace') for (const seq of plan.shadowedSeqs) this.surfaceResults.delete(seq)
    if (event.type === 'tool/result') this.surfaceResults.set(event.seq, { ...event, data: withBlankedResultContent(event.data) })
  }
}
