// The plain data every row is made of, the row definitions taken from spec/acceptance.md, and the
// rule that turns a row's evidence into its verdict.
import type { AuditEvidence, AuditEvidenceMark, AuditRejection, AuditReport, AuditRow, AuditVerdict } from '../../generated/types/index.ts'
import { isRecord } from '../../reference/lossless-json.ts'
import type { RequirementIndex } from '../check/requirements.ts'
import type { Violation } from '../../reference/processing.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import type { LoadedLog } from './log.ts'
import { shortened } from '../wording.ts'

export type RowId = AuditRow['id']

export interface RowDefinition {
  id: RowId
  title: string
  checkedBy: string
  needsHuman: string | null
}

export const ROW_DEFINITIONS: readonly RowDefinition[] = [
  {
    id: 'raw-facts',
    title: 'Raw-fact integrity',
    // A rejection is always this row's evidence, whichever rule it breaks (spec/acceptance.md).
    checkedBy: 'ENV-1…ENV-12, JSON-1…JSON-13, PROV-1…PROV-8, UNK-3…UNK-6, JSONL-6…JSONL-12, ROW-1…ROW-4, TURN-4…TURN-9, META-1…META-8, VOC-8…VOC-13, TURN-1, TURN-2, HDR-2, LEGACY-1…LEGACY-13, SURF-1…SURF-10, REWR-1…REWR-6',
    needsHuman: 'whether events were lost before they were appended (a producer that never wrote them)',
  },
  {
    id: 'surface-legality',
    title: 'Surface legality',
    checkedBy: 'SURF-1…SURF-10, PROV-7, REWR-1…REWR-6, PAIR-1…PAIR-8, REGION-1…REGION-7, COMP-10, COMP-12, COMP-13, REPAIR-8',
    needsHuman: null,
  },
  {
    id: 'constraint-preservation',
    title: 'Constraint preservation',
    checkedBy: 'none: SURF-6 and COMP-12 only say which nodes a replacement shadows and where its summary text is',
    needsHuman: 'whether each summary keeps the file state, user limits, open goals and key decisions of what it shadowed; no tool can decide it',
  },
  {
    id: 'request-rebuild',
    title: 'Request rebuild',
    checkedBy: 'HDR-1…HDR-9, TURN-9, DER-1…DER-8',
    needsHuman: 'whether the rebuilt request is the one that was sent (only the harness\'s own request log can say)',
  },
  {
    id: 'persistence',
    title: 'Persistence',
    checkedBy: 'JSONL-3, JSONL-9…JSONL-15, SEED-2…SEED-10, REPAIR-2, REPAIR-10, FMT-2…FMT-5, HDR-6',
    needsHuman: 'whether the backend flushed before the process died (the log records appends, not flushes)',
  },
  {
    id: 'failure-recovery',
    title: 'Failure recovery',
    checkedBy: 'REPAIR-1…REPAIR-13, COMP-1…COMP-9, COMP-14…COMP-17, PAIR-5, DER-10, VOC-3, VOC-4',
    needsHuman: 'whether an external side effect of an unknown-outcome call happened',
  },
  {
    id: 'budget',
    title: 'Budget',
    checkedBy: 'DER-1…DER-10, HDR-4, HDR-8, COMP-5, REGION-8',
    needsHuman: 'whether the trade of detail for room was worth it',
  },
]

export function definitionOf(id: RowId): RowDefinition {
  const definition = ROW_DEFINITIONS.find(row => row.id === id)
  if (definition === undefined) throw new Error(`no row ${id}`)
  return definition
}

/** One line of a row's evidence, cut as check cuts a message: it may quote an id or a value of the log, of any length. */
export function evidence(mark: AuditEvidenceMark, text: string, details: { seq?: number; requirements?: string[] } = {}): AuditEvidence {
  return {
    mark,
    text: shortened(text),
    ...(details.seq === undefined ? {} : { seq: details.seq }),
    ...(details.requirements === undefined ? {} : { requirements: details.requirements }),
  }
}

const SEVERITY: Record<AuditVerdict, number> = { pass: 0, human: 1, warn: 2, fail: 3 }

export function worst(verdicts: readonly AuditVerdict[]): AuditVerdict {
  return verdicts.reduce<AuditVerdict>((worstSoFar, verdict) => (SEVERITY[verdict] > SEVERITY[worstSoFar] ? verdict : worstSoFar), 'pass')
}

/** The verdict the evidence marks add up to: fail, then warn, then pass; info counts for nothing. */
export function verdictOf(items: readonly AuditEvidence[]): AuditVerdict {
  return worst(items.map(item => (item.mark === 'info' || item.mark === 'human' ? 'pass' : item.mark)))
}

/** A row whose verdict is read off its evidence (unless given), with a summary for that verdict. */
export function row(id: RowId, items: AuditEvidence[], summary: (verdict: AuditVerdict) => string, verdict = verdictOf(items)): AuditRow {
  return { ...definitionOf(id), verdict, summary: summary(verdict), evidence: items }
}

/** The overall verdict: a human row alone leaves pass. */
export function overallVerdict(rows: readonly AuditRow[]): AuditVerdict {
  return worst(rows.map(item => (item.verdict === 'human' ? 'pass' : item.verdict)))
}

/**
 * How many items a row lists of those it has for each replace (rows 3 and 7) before it counts the rest:
 * a log of 100,000 replaces gave 200,000 such lines, and the report's replacements hold each anyway.
 */
export const REPLACE_ITEMS_LISTED = 1_000

/**
 * At most `limit` items of a long list of like facts, and one line that counts the rest, marked as the
 * gravest of them, so that the row's verdict is what all of them make it.
 */
export function capped(items: readonly AuditEvidence[], limit = 20): AuditEvidence[] {
  if (items.length <= limit) return [...items]
  const rest = items.slice(limit)
  const mark = verdictOf(rest)
  return [...items.slice(0, limit), evidence(mark === 'pass' ? 'info' : mark, `… and ${rest.length} more like these`)]
}

/** The row of a log that load rejected for one of the row's own rules: that rejection is its evidence. */
export function rejectionRow(id: RowId, rejection: AuditRejection, summary: string, requirements?: string[]): AuditRow {
  const where = rejection.seq === undefined ? '' : ` at seq ${rejection.seq}`
  return row(id, [evidence('fail', `load rejects the log with ${rejection.code}${where}: ${rejection.message}`, { seq: rejection.seq, requirements })], () => summary)
}

/** The persistence row's failure for a `session.jsonl[.zstd]` that is not where its header places it (JSONL-3). */
export function isMisplacement(item: AuditEvidence): boolean {
  return item.mark === 'fail' && item.requirements?.includes('JSONL-3') === true
}

/**
 * Whether the log is refused (FMT-5) and nothing else: a log that is also not where its header places
 * it (JSONL-3, which a store checks before it reads) is invalid, as check has it.
 */
export function refusedOnly(report: AuditReport): boolean {
  if (report.log.rejection?.class !== 'refusal') return false
  return !report.rows.some(item => item.evidence.some(isMisplacement))
}

/** The row of a log that does not load: its checks cannot run. `refused`: the log is refused (FMT-5). */
export function notEvaluated(id: RowId, reason: string, refused: boolean): AuditRow {
  const text = `not evaluated: ${reason}; the operations behind this row are defined only for a log that load accepts`
  const summary = refused ? 'This reader cannot read the log, so this row cannot be established here.' : 'The log does not load, so this row cannot be established.'
  // Nothing was judged, so there is nothing for a person to weigh either.
  return { ...definitionOf(id), verdict: 'fail', summary, needsHuman: null, evidence: [evidence('fail', text)] }
}

/**
 * The row a relation violation (PROC-7) belongs to, by its code and the type of the vetoed event:
 * turn and step nesting under Raw-fact integrity, pairing and claims under Surface legality, the
 * compaction bracket under Failure recovery (docs/audit.md). A new relation code needs its row here;
 * tests/audit/verdict-logic.test.ts lists every relation code of spec/errors.md with its row.
 */
export function rowOfViolation(code: string, eventType: string): RowId {
  if (code === 'TOOL_RESULT_ORPHAN' || code === 'COMPACTION_CLAIM_MISMATCH') return 'surface-legality'
  if (code.startsWith('COMPACTION_')) return 'failure-recovery'
  if (code === 'TURN_NOT_OPEN' && eventType.startsWith('request/')) return 'request-rebuild'
  return 'raw-facts'
}

export interface RowViolation {
  /** The row it belongs to. */
  row: RowId
  code: string
  seq: number
  /** The vetoed event's type. */
  type: string
  /** The rule it breaks, as `check` names it; empty when no rule names the code. */
  requirements: string[]
  /** What the event breaks, in the reference's words, as `check` prints them. */
  message: string
}

/** Each relation violation of a loaded log with its row and the rule it breaks, the one `check` cites. */
export function attributeViolations(violations: readonly Violation[], events: readonly SessionEvent[], requirements: RequirementIndex): RowViolation[] {
  return violations.map(({ code, seq, message }) => {
    const event = events[seq]
    const type = event?.type ?? '?'
    const requirement = requirements.ofViolation({ code, eventType: type, replaces: isRecord(event?.surfaceOp) })
    return { row: rowOfViolation(code, type), code, seq, type, requirements: requirement === undefined ? [] : [requirement], message }
  })
}

/** The relation violations that belong to row `id`. */
export function violationsOfRow(loaded: LoadedLog, id: RowId): RowViolation[] {
  return loaded.violations.filter(violation => violation.row === id)
}
