// PROC-7 relations, event by event, with the reference's `checkEventRelations`. The one input it
// needs from the future is staleness (chapter 13, Terms): a turn/start or turn/end inside the open
// bracket started at seq S is a violation unless S is stale, that is unless the next compaction/start,
// compaction/end or session/end-seed after S (by position, whether it passes or not) is an end-seed.
//
// So when such a turn event meets a bracket whose staleness is still open, the runner keeps two
// relation states from there on, "S live" and "S stale", each with its own pending violations, and
// picks one at the next of those three event types (or "live" at the end of the log). Both states keep
// the same bracket S until then, since only those three event types open or close a bracket.
import { checkEventRelations, type RelationState } from '../../reference/processing.ts'
import { initialTurnState } from '../../reference/turns-and-steps.ts'
import { initialCompactionState } from '../../reference/compaction.ts'
import { noPendingCalls } from '../../reference/tool-pairing.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import type { Fault } from '../../reference/result.ts'
import { violationOf, ViolationList } from './violation-list.ts'

interface Branch {
  state: RelationState
  violations: ViolationList
  /** The last event's violation, undefined when it passed. */
  last: { fault: Fault; event: SessionEvent } | undefined
}

const NOT_STALE: ReadonlySet<number> = new Set()

function isStalenessMarker(type: string): boolean {
  return type === 'compaction/start' || type === 'compaction/end' || type === 'session/end-seed'
}

export class RelationStream {
  /** Violations whose fate no longer depends on later events. */
  readonly violations = new ViolationList()
  private live: Branch = { state: { turns: initialTurnState, pending: noPendingCalls, compaction: initialCompactionState }, violations: new ViolationList(), last: undefined }
  /** While the staleness of `speculated` is open: the state under "it is stale". */
  private stale: Branch | undefined
  private speculated: number | undefined
  /** The latest compaction/start by position with no compaction/end or end-seed after it yet. */
  private positionalStart: number | undefined

  step(event: SessionEvent, line: number): void {
    if (isStalenessMarker(event.type) && this.stale !== undefined) this.resolve(event.type === 'session/end-seed')
    if (this.stale === undefined && this.stalenessMatters(event)) this.speculate()
    this.advance(this.live, event, line, NOT_STALE)
    if (this.stale !== undefined) this.advance(this.stale, event, line, new Set([this.speculated as number]))
    this.trackPosition(event)
  }

  /**
   * `count` events at seqs `from`, `from + 1`, ... whose checks are those of the last event (the later
   * members of a packed row, none a staleness marker): in each state each fails as the last one did,
   * or passes and leaves the state as it is.
   */
  repeatLast(from: number, count: number, line: number): void {
    this.repeat(this.live, from, count, line)
    if (this.stale !== undefined) this.repeat(this.stale, from, count, line)
  }

  /** The end of the log: an open question of staleness is answered "live", so the live branch's violations stand. */
  finish(): ViolationList {
    this.violations.append(this.live.violations)
    return this.violations
  }

  private stalenessMatters(event: SessionEvent): boolean {
    const bracket = this.live.state.compaction.bracket
    return (event.type === 'turn/start' || event.type === 'turn/end')
      && bracket !== undefined && bracket.startSeq === this.positionalStart
  }

  private speculate(): void {
    this.violations.append(this.live.violations)
    this.live.violations = new ViolationList()
    this.speculated = this.positionalStart
    this.stale = { state: this.live.state, violations: new ViolationList(), last: this.live.last }
  }

  private resolve(isStale: boolean): void {
    const kept = isStale ? (this.stale as Branch) : this.live
    this.violations.append(kept.violations)
    this.live = { state: kept.state, violations: new ViolationList(), last: kept.last }
    this.stale = undefined
    this.speculated = undefined
  }

  private advance(branch: Branch, event: SessionEvent, line: number, stale: ReadonlySet<number>): void {
    const checked = checkEventRelations(branch.state, event, stale)
    if (checked.ok) branch.state = checked.state
    else branch.violations.add(violationOf(checked.fault, event, event.seq, line))
    branch.last = checked.ok ? undefined : { fault: checked.fault, event }
  }

  private repeat(branch: Branch, from: number, count: number, line: number): void {
    const last = branch.last
    if (last !== undefined) branch.violations.addRepeated(violationOf(last.fault, last.event, from, line), from, count)
  }

  private trackPosition(event: SessionEvent): void {
    if (event.type === 'compaction/start') this.positionalStart = event.seq
    else if (event.type === 'compaction/end' || event.type === 'session/end-seed') this.positionalStart = undefined
  }
}
