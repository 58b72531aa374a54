// Hand-made cases and adapter runs for the report, baseline and matrix tests: every outcome kind,
// a baseline with a known failure, a NEW FAIL and a NEW PASS, and an adapter that never started.
import { compareWithBaseline, type Baseline } from '../../conformance/baseline.ts'
import { noFilters } from '../../conformance/filters.ts'
import type { RunRecord } from '../../conformance/reports/json.ts'
import type { AdapterRun } from '../../conformance/results.ts'
import type { CaseOutcome } from '../../conformance/run-case.ts'
import { suiteIdentity } from '../../conformance/suite-identity.ts'
import type { OperationName, VectorCase } from '../../conformance/vector-cases.ts'

function vector(id: string, chapter: string, requirements: string[], profile = 'reader', operations: OperationName[] = []): VectorCase {
  const steps = operations.map(operation => ({ operation, input: { events: [] }, expect: { accept: true as const } }))
  return { id, title: `the case ${id}`, file: `vectors/${chapter}/x.yaml`, chapter, requirements, profile, review: false, steps }
}

export const CASES: VectorCase[] = [
  vector('surf-a', '05-surface', ['SURF-1']),
  vector('surf-b', '05-surface', ['SURF-1', 'SURF-5']),
  vector('surf-c', '05-surface', ['SURF-5'], 'reader', ['surface', 'load']),
  vector('comp-a', '13-compaction', ['COMP-2'], 'compaction'),
  vector('comp-b', '13-compaction', ['COMP-2', 'PROC-7'], 'relations', ['relations']),
  vector('jsonl-a', '19-jsonl', ['JSONL-6'], 'jsonl'),
]

export const SUITE = suiteIdentity(CASES)

const TRICKY = 'odd text: <tag> & "quotes" ]]> \u0001 lone \ud800 done'

/** One outcome of every kind: pass, fail with a diff, error, skip. */
export const OUTCOMES: CaseOutcome[] = [
  { id: 'surf-a', status: 'pass', durationMs: 1.5 },
  {
    id: 'surf-b', status: 'fail', step: 0, operation: 'surface', durationMs: 2,
    reason: 'step 0 (surface): value differs at $.nodes[0]: expected 3, actual 2',
    diff: { path: '$.nodes[0]', expected: '3', actual: '2' },
  },
  { id: 'surf-c', status: 'error', step: 1, operation: 'load', reason: `load threw: ${TRICKY}`, durationMs: 0.5 },
  { id: 'comp-a', status: 'skip', reason: 'profile "compaction" not declared' },
  {
    id: 'comp-b', status: 'fail', step: 0, operation: 'relations', durationMs: 1,
    reason: 'step 0 (relations): value differs at $.violations[1] (logs diverge at seq 3): expected {"code":"X"}, actual undefined',
    diff: { path: '$.violations[1]', expected: '{"code":"X"}', actual: 'undefined', divergingSeq: 3 },
  },
  { id: 'jsonl-a', status: 'pass', durationMs: 0.25 },
]

export const META = { name: 'fake-impl', version: '1.2.3', language: 'javascript', profiles: ['reader', 'relations', 'jsonl'], transport: 'subprocess' as const }

/** Lists comp-b (still failing) and jsonl-a (now passing); surf-b and surf-c are new failures. */
export const BASELINE: Baseline = {
  adapter: 'fake-impl',
  suiteHash: SUITE.contentHash,
  failures: [
    { id: 'comp-b', reason: 'U1: PROC-7 wants every violation' },
    { id: 'jsonl-a', reason: 'scope-jsonl: JSONL-6 not in the package' },
  ],
}

export function plainRun(): AdapterRun {
  return { label: 'fake-impl-cmd', adapter: META, outcomes: OUTCOMES, durationMs: 12 }
}

export function baselinedRun(): AdapterRun {
  const run = plainRun()
  return { ...run, baseline: compareWithBaseline(run.outcomes, BASELINE, { source: 'baselines/fake.yaml', adapter: META.name, suite: SUITE }) }
}

export function unstartedRun(): AdapterRun {
  return { label: 'broken-cmd --flag', startError: 'crash: the adapter exited with exit code 3 before it answered start', outcomes: [], durationMs: 0 }
}

export function record(runs: AdapterRun[], strictBaseline = false): RunRecord {
  return { suite: SUITE, filters: noFilters(), cases: CASES, runs, strictBaseline, startedAt: new Date('2025-01-02T03:04:05.678Z'), durationMs: 42 }
}
