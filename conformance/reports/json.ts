// The JSON report (schemas/run-report.schema.json): the run as data, which the JUnit and Markdown
// reports are rendered from too.
import type { RunReport, RunReportAdapterRun, RunReportCase } from '../../generated/types/index.ts'
import type { CaseFilters } from '../filters.ts'
import { baselineMark, claimIsPartial, claimWarnings, countOutcomes, runFails, type AdapterRun } from '../results.ts'
import type { CaseOutcome } from '../run-case.ts'
import type { SuiteIdentity } from '../suite-identity.ts'
import type { VectorCase } from '../vector-cases.ts'

export const RUN_REPORT_SCHEMA_ID = 'https://dsh-session-conformance.dev/schemas/v0/run-report.schema.json' as const

export interface RunRecord {
  suite: SuiteIdentity
  filters: CaseFilters
  /** The selected cases, in suite order. */
  cases: readonly VectorCase[]
  runs: readonly AdapterRun[]
  strictBaseline: boolean
  startedAt: Date
  durationMs: number
  /** What is wrong with the run as a whole (a baseline that applied to no adapter, or to two). */
  warnings?: readonly string[]
}

function reportCase(run: AdapterRun, vector: VectorCase, outcome: CaseOutcome): RunReportCase {
  const entry: RunReportCase = {
    id: vector.id,
    title: vector.title,
    chapter: vector.chapter,
    requirements: [...vector.requirements],
    profile: vector.profile,
    status: outcome.status,
  }
  if (outcome.step !== undefined) entry.step = outcome.step
  if (outcome.operation !== undefined) entry.operation = outcome.operation
  if (outcome.reason !== undefined) entry.reason = outcome.reason
  if (outcome.diff !== undefined) entry.diff = { ...outcome.diff }
  if (outcome.unsupported === true) entry.unsupported = true
  const mark = baselineMark(run, outcome)
  if (mark !== undefined) entry.baseline = mark
  const listedReason = run.baseline?.reasons[outcome.id]
  if (listedReason !== undefined) entry.baselineReason = listedReason
  if (outcome.durationMs !== undefined) entry.durationMs = outcome.durationMs
  return entry
}

function reportRun(run: AdapterRun, cases: readonly VectorCase[], strictBaseline: boolean): RunReportAdapterRun {
  const vectorOf = new Map(cases.map((vector) => [vector.id, vector]))
  const entry: RunReportAdapterRun = {
    label: run.label,
    adapter: run.adapter === undefined ? null : {
      name: run.adapter.name,
      version: run.adapter.version,
      language: run.adapter.language,
      ...(run.adapter.homepage === undefined ? {} : { homepage: run.adapter.homepage }),
      profiles: [...run.adapter.profiles],
      transport: run.adapter.transport ?? 'in-process',
    },
    passed: !runFails(run, strictBaseline),
    durationMs: run.durationMs,
    partialClaim: claimIsPartial(run.outcomes),
    totals: countOutcomes(run.outcomes),
    cases: run.outcomes.flatMap((outcome) => {
      const vector = vectorOf.get(outcome.id)
      return vector === undefined ? [] : [reportCase(run, vector, outcome)]
    }),
  }
  if (run.startError !== undefined) entry.startError = run.startError
  if (run.stopError !== undefined) entry.stopError = run.stopError
  if (run.baseline !== undefined) {
    const { source, newFailures, newPasses, stillFailing, notRun, unknownIds, notes } = run.baseline
    entry.baseline = { source, newFailures, newPasses, stillFailing, notRun, unknownIds, notes }
  }
  if (run.stderrTail !== undefined) entry.stderrTail = run.stderrTail
  const warnings = claimWarnings(run, cases)
  if (warnings.length > 0) entry.warnings = warnings
  return entry
}

export function runReport(record: RunRecord): RunReport {
  const runs = record.runs.map((run) => reportRun(run, record.cases, record.strictBaseline))
  return {
    $schema: RUN_REPORT_SCHEMA_ID,
    reportVersion: 1,
    tool: { name: 'dsh-conformance', version: record.suite.version },
    suite: { ...record.suite },
    selection: {
      chapters: [...record.filters.chapters],
      requirements: [...record.filters.requirements],
      profiles: [...record.filters.profiles],
      operations: [...record.filters.operations],
      cases: [...record.filters.cases],
      caseCount: record.cases.length,
    },
    strictBaseline: record.strictBaseline,
    startedAt: record.startedAt.toISOString(),
    durationMs: record.durationMs,
    passed: runs.every((run) => run.passed),
    runs,
    ...(record.warnings === undefined || record.warnings.length === 0 ? {} : { warnings: [...record.warnings] }),
  }
}

export function jsonReport(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`
}
