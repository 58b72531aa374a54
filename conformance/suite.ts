// Runs many cases against one adapter, and summarizes the outcomes for people and CI.
import type { Adapter } from './adapter.ts'
import type { BaselineVerdict } from './baseline.ts'
import { adapterSummary } from './console-summary.ts'
import { runFails } from './results.ts'
import { missingCapability, runCase, type CaseOutcome, type RunOptions } from './run-case.ts'
import { notRestarted } from './subprocess-adapter.ts'
import type { VectorCase } from './vector-cases.ts'

/**
 * After this many cases in a row that end in a crash or a timeout, the run stops asking the adapter:
 * one that crashes or hangs on every case would otherwise take minutes to hours to say so, case by case.
 */
export const CRASHES_IN_A_ROW_TO_STOP = 10

/** A case that ended in a crash or a timeout of its own; one not sent once restarts stopped did not. */
function crashedOrHung(outcome: CaseOutcome): boolean {
  const reason = outcome.reason ?? ''
  return outcome.status === 'error' && (reason.startsWith('crash:') || reason.startsWith('timeout:')) && !notRestarted(reason)
}

/** The outcome of a case the run no longer asks the adapter about: an error, never a pass. */
function notAsked(vector: VectorCase): CaseOutcome {
  return { id: vector.id, status: 'error', reason: `crash: not run, since the adapter crashed or timed out on each of the ${CRASHES_IN_A_ROW_TO_STOP} cases before it, and the run stopped asking it` }
}

export async function runSuite(
  adapter: Adapter,
  cases: readonly VectorCase[],
  progress?: (done: number, total: number, outcome: CaseOutcome) => void,
  options: RunOptions = {},
): Promise<CaseOutcome[]> {
  const outcomes: CaseOutcome[] = []
  let inARow = 0
  for (const vector of cases) {
    // A case the adapter cannot run is a skip, as ever, and asks the adapter nothing.
    const outcome = inARow >= CRASHES_IN_A_ROW_TO_STOP && missingCapability(adapter, vector) === undefined ? notAsked(vector) : await runCase(adapter, vector, options)
    if (outcome.status !== 'skip') inARow = crashedOrHung(outcome) ? inARow + 1 : 0
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
