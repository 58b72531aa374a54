// Runs many cases against one adapter, and summarizes the outcomes for people and CI.
import type { Adapter } from './adapter.ts'
import type { BaselineVerdict } from './baseline.ts'
import { adapterSummary } from './console-summary.ts'
import { runFails } from './results.ts'
import { runCase, type CaseOutcome, type RunOptions } from './run-case.ts'
import type { VectorCase } from './vector-cases.ts'

export async function runSuite(
  adapter: Adapter,
  cases: readonly VectorCase[],
  progress?: (done: number, total: number, outcome: CaseOutcome) => void,
  options: RunOptions = {},
): Promise<CaseOutcome[]> {
  const outcomes: CaseOutcome[] = []
  for (const vector of cases) {
    const outcome = await runCase(adapter, vector, options)
    outcomes.push(outcome)
    progress?.(outcomes.length, cases.length, outcome)
  }
  return outcomes
}

/**
 * The summary text and whether the run failed: without a baseline any fail or error fails it; with
 * one, only a NEW FAIL (or a NEW PASS under strict). Skips never pass: a run that tested nothing (every
 * case skipped, or no case given) fails.
 */
export function summarize(
  adapter: Adapter,
  cases: readonly VectorCase[],
  outcomes: readonly CaseOutcome[],
  options: { baseline?: BaselineVerdict; strictBaseline?: boolean } = {},
): { text: string; failed: boolean } {
  const run = { label: adapter.meta.name, adapter: adapter.meta, outcomes: [...outcomes], baseline: options.baseline, durationMs: 0 }
  return { text: adapterSummary(run, cases), failed: runFails(run, options.strictBaseline ?? false) }
}
