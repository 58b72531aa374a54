// The whole audit of one stored log: the artifact read and loaded, the seven rows, the replacements,
// the timeline and the budget, as one plain object that schemas/audit-report.schema.json describes.
// Every output format is rendered from this object alone.
import packageJson from '../../package.json' with { type: 'json' }
import type { AuditReport } from '../../generated/types/index.ts'
import { RequirementIndex } from '../check/requirements.ts'
import { readAuditedLog, type AuditSource } from './log.ts'
import { auditRows } from './rows.ts'
import { auditTimeline } from './timeline.ts'
import type { TokenCounter } from './tokens.ts'
import { overallVerdict } from './verdicts.ts'

const AUDIT_REPORT_SCHEMA = 'https://dsh-session-conformance.dev/schemas/v0/audit-report.schema.json'

export function buildAuditReport(source: AuditSource, counter: TokenCounter): AuditReport {
  const log = readAuditedLog(source, new RequirementIndex())
  // The pieces this audit estimated, each once, however often its text is counted (a system prompt in
  // force at the first replace and at the end).
  const estimated = new Set<string>()
  const { rows, replacements, budget } = auditRows(log, { ...counter, count: text => counter.count(text, estimated) })
  return {
    $schema: AUDIT_REPORT_SCHEMA,
    reportVersion: 1,
    generator: { name: 'dsh-conformance', version: packageJson.version },
    log: log.info,
    tokenizer: { name: counter.name, kind: counter.kind, note: counter.note, estimatedRuns: estimated.size },
    overall: overallVerdict(rows),
    rows: rows as AuditReport['rows'],
    replacements,
    timeline: log.loaded === undefined ? null : auditTimeline(log.loaded),
    budget,
  }
}
