// Run reports written by hand, for the tests that compare whole reports or push them to their limits.
import type { RunReport, RunReportAdapter, RunReportAdapterRun, RunReportCase, RunReportCounts } from '../../generated/types/index.ts'

export const entry = (id: string, chapter: string, requirements: string[], rest: Partial<RunReportCase>): RunReportCase =>
  ({ id, title: `the case ${id}`, chapter, requirements, profile: 'reader', status: 'pass', ...rest })
export const counts = (pass: number, fail: number, error: number, skip: number): RunReportCounts => ({ pass, fail, error, skip })

/** An adapter's run as a report holds it: the reports compared whole do not read its duration. */
export function reportRun(label: string, adapter: RunReportAdapter | null, passed: boolean, totals: RunReportCounts, cases: RunReportCase[], rest: Partial<RunReportAdapterRun> = {}): RunReportAdapterRun {
  return { label, adapter, passed, partialClaim: false, durationMs: 1, totals, cases, ...rest }
}

export const adapter = (name: string, version: string, language: string, profiles = ['reader'], transport: 'in-process' | 'subprocess' = 'in-process'): RunReportAdapter =>
  ({ name, version, language, profiles, transport })

/** A report with every kind of case, a baseline, a protocol broken at the end and an adapter that never started. */
export const HAND_REPORT: RunReport = {
  $schema: 'https://dsh-session-conformance.dev/schemas/v0/run-report.schema.json',
  reportVersion: 1,
  tool: { name: 'dsh-conformance', version: '9.9.9' },
  suite: { name: 'dsh-session-conformance', version: '9.9.9', contentHash: 'sha256:abc', caseCount: 5 },
  selection: { chapters: [], requirements: [], profiles: [], operations: [], cases: [], caseCount: 5 },
  strictBaseline: false,
  startedAt: '2025-01-02T03:04:05.678Z',
  durationMs: 4321,
  passed: false,
  runs: [
    reportRun('impl-cmd', adapter('impl', '1.0.0', 'go', ['reader'], 'subprocess'), false, counts(1, 2, 1, 1), [
      entry('surf-b', '05-surface', ['SURF-1', 'SURF-5'], {
        status: 'fail', step: 0, operation: 'surface', reason: 'step 0 (surface): value differs\nsecond line',
        diff: { path: '$.nodes[0]', expected: '3', actual: '2', divergingSeq: 4 }, baseline: 'new-fail', durationMs: 1500,
      }),
      entry('surf-a', '05-surface', ['SURF-1'], { baseline: 'new-pass', baselineReason: 'U1: "listed"', durationMs: 2 }),
      entry('comp-b', '13-compaction', ['COMP-2'], { status: 'fail', reason: 'wrong\tanswer', baseline: 'known-failure', baselineReason: 'U2: "SURF-6"', durationMs: 250 }),
      entry('comp-a', '13-compaction', ['COMP-2'], { status: 'skip' }),
      entry('comp-c', '13-compaction', ['COMP-2'], { status: 'error', reason: 'threw <x>', baseline: 'new-fail', durationMs: 1000 }),
    ], {
      stopError: 'garbage after the last reply\nmore',
      stderrTail: 'stopping <now>',
      baseline: { source: 'b.yaml', newFailures: ['surf-b', 'comp-c'], newPasses: ['surf-a'], stillFailing: ['comp-b'], notRun: [], unknownIds: [], notes: [] },
    }),
    reportRun('broken\t"cmd"\r\n--flag', null, false, counts(0, 0, 0, 0), [], { startError: 'crash: exit 3\nstack', stderrTail: 'Traceback:\n\t```\nValueError: \u001b[31mbad' }),
  ],
}
