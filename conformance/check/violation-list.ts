// The relation violations check keeps of one log: the first MOST_VIOLATIONS_LISTED by position, each
// with its message cut for a report, and past them a count per kind (code, event type, whether the
// event replaces), with the first of each kind. A log of a million bad chunks would otherwise hold a
// million violations, and a message that quotes a 1 MB id a megabyte each.
import { reportMessage } from '../wording.ts'
import type { ErrorCode, Fault } from '../../reference/result.ts'
import type { SessionEvent } from '../../reference/envelope.ts'

/** The most relation violations of one log that check lists; the rest it counts. */
export const MOST_VIOLATIONS_LISTED = 10_000

export interface RelationViolation {
  code: ErrorCode
  message: string
  seq: number
  line: number
  /** The vetoed event's type, and whether it replaces surface nodes: which turn rule it breaks depends on them. */
  eventType: string
  replaces: boolean
}

/** The violations of one kind past the listed ones: how many, and the first of them. */
export interface UnlistedViolations {
  count: number
  first: RelationViolation
}

/** The violation of `event` at `seq` (a packed row's member has the seq of its own). */
export function violationOf(fault: Fault, event: SessionEvent, seq: number, line: number): RelationViolation {
  const replaces = typeof event.surfaceOp === 'object' && event.surfaceOp !== null
  return { code: fault.code, message: fault.message, seq, line, eventType: event.type, replaces }
}

/** The violation as kept: its message cut for a report, so that it holds on to nothing of the log. */
const kept = (violation: RelationViolation): RelationViolation => ({ ...violation, message: reportMessage(violation.message) })

const kindOf = (violation: RelationViolation): string => `${violation.code} ${violation.eventType} ${violation.replaces}`

export class ViolationList {
  readonly listed: RelationViolation[] = []
  /** The violations past the listed ones, by kind, in the order each kind first came. */
  readonly unlisted = new Map<string, UnlistedViolations>()

  get full(): boolean {
    return this.listed.length >= MOST_VIOLATIONS_LISTED
  }

  add(violation: RelationViolation): void {
    if (!this.full) this.listed.push(kept(violation))
    else this.count(violation, 1, false)
  }

  /** `count` violations like `template` at seqs `from`, `from + 1`, ...: as many listed as there is room for. */
  addRepeated(template: RelationViolation, from: number, count: number): void {
    const listed = Math.min(count, MOST_VIOLATIONS_LISTED - this.listed.length)
    const cut = listed > 0 ? kept(template) : template
    for (let seq = from; seq < from + listed; seq++) this.listed.push({ ...cut, seq })
    if (listed < count) this.count({ ...cut, seq: from + listed }, count - listed, listed > 0)
  }

  /** Adds another list's violations, which all come after this one's (and are kept already). */
  append(other: ViolationList): void {
    for (const violation of other.listed) {
      if (!this.full) this.listed.push(violation)
      else this.count(violation, 1, true)
    }
    for (const { count, first } of other.unlisted.values()) this.count(first, count, true)
  }

  total(): number {
    let total = this.listed.length
    for (const { count } of this.unlisted.values()) total += count
    return total
  }

  /** Counts `count` violations of the kind of `first`; its message is cut only if it is the first of its kind. */
  private count(first: RelationViolation, count: number, isKept: boolean): void {
    const kind = kindOf(first)
    const seen = this.unlisted.get(kind)
    if (seen === undefined) this.unlisted.set(kind, { count, first: isKept ? first : kept(first) })
    else seen.count += count
  }
}
