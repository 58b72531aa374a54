// The results of running the suite against one adapter, as plain data, and the counts every summary,
// report and matrix is made of. A skip or an error is never counted as a pass.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AdapterMeta } from './adapter.ts'
import { baselineFailsRun, type BaselineVerdict } from './baseline.ts'
import type { CaseOutcome, CaseStatus } from './run-case.ts'
import { parseChapterPrefixes } from './spec-catalog.ts'
import { projectRoot, type VectorCase } from './vector-cases.ts'

export interface AdapterRun {
  /** The adapter as the command line named it (a registered name or a command). */
  label: string
  /** Undefined when the adapter could not be started; `startError` then says why. */
  adapter?: AdapterMeta
  startError?: string
  outcomes: CaseOutcome[]
  baseline?: BaselineVerdict
  durationMs: number
  /** The tail of the adapter's stderr, kept when the run failed. */
  stderrTail?: string
}

export type Counts = Record<CaseStatus, number>

export const STATUSES: readonly CaseStatus[] = ['pass', 'fail', 'error', 'skip']

export function emptyCounts(): Counts {
  return { pass: 0, fail: 0, error: 0, skip: 0 }
}

export function countOutcomes(outcomes: readonly CaseOutcome[]): Counts {
  const counts = emptyCounts()
  for (const outcome of outcomes) counts[outcome.status] += 1
  return counts
}

/** Counts per key, where each case may count under several keys (a case names several requirements). */
export function countBy(outcomes: readonly CaseOutcome[], keysOf: (id: string) => readonly string[]): Map<string, Counts> {
  const byKey = new Map<string, Counts>()
  for (const outcome of outcomes) {
    for (const key of keysOf(outcome.id)) {
      const counts = byKey.get(key) ?? emptyCounts()
      counts[outcome.status] += 1
      byKey.set(key, counts)
    }
  }
  return byKey
}

export function chapterKeys(cases: readonly VectorCase[]): (id: string) => string[] {
  const chapterOf = new Map(cases.map((vector) => [vector.id, vector.chapter]))
  return (id) => [chapterOf.get(id) ?? '?']
}

export function requirementKeys(cases: readonly VectorCase[]): (id: string) => readonly string[] {
  const requirementsOf = new Map(cases.map((vector) => [vector.id, vector.requirements]))
  return (id) => requirementsOf.get(id) ?? []
}

let prefixRank: Map<string, number> | undefined

/** Orders requirement IDs as the spec does: by the chapter of their prefix, then by number. */
export function compareRequirementIds(left: string, right: string): number {
  prefixRank ??= new Map([...parseChapterPrefixes(readFileSync(join(projectRoot, 'spec/README.md'), 'utf8')).values()].flat().map((prefix, index) => [prefix, index]))
  const [leftPrefix = '', leftNumber = '0'] = left.split('-')
  const [rightPrefix = '', rightNumber = '0'] = right.split('-')
  const rank = (prefix: string): number => prefixRank!.get(prefix) ?? Number.MAX_SAFE_INTEGER
  return rank(leftPrefix) - rank(rightPrefix) || leftPrefix.localeCompare(rightPrefix) || Number(leftNumber) - Number(rightNumber)
}

export function failedCount(counts: Counts): number {
  return counts.fail + counts.error
}

/** A run whose every case was skipped: whatever its claims, it tested nothing, which is no pass. */
export function testedNothing(run: AdapterRun): boolean {
  return run.outcomes.length > 0 && run.outcomes.every((outcome) => outcome.status === 'skip')
}

/**
 * Whether this adapter's run fails: it could not start, it tested nothing, it has a fail or an error
 * that no baseline covers, or (strict) a baseline case passed.
 */
export function runFails(run: AdapterRun, strictBaseline: boolean): boolean {
  if (run.startError !== undefined || testedNothing(run)) return true
  if (run.baseline !== undefined) return baselineFailsRun(run.baseline, strictBaseline)
  return failedCount(countOutcomes(run.outcomes)) > 0
}

/** How a case stands against the baseline, when there is one and it has something to say. */
export function baselineMark(run: AdapterRun, outcome: CaseOutcome): 'known-failure' | 'new-fail' | 'new-pass' | undefined {
  const verdict = run.baseline
  if (verdict === undefined) return undefined
  const listed = Object.hasOwn(verdict.reasons, outcome.id)
  if (outcome.status === 'fail' || outcome.status === 'error') return listed ? 'known-failure' : 'new-fail'
  return outcome.status === 'pass' && listed ? 'new-pass' : undefined
}

export function adapterTitle(run: AdapterRun): string {
  return run.adapter === undefined ? run.label : `${run.adapter.name} ${run.adapter.version}`
}
