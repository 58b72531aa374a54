// The closing table of `dsh-conformance run`: counts and a verdict per adapter, printed for one adapter
// too, so that a run that --strict-baseline fails does not read like a pass.
import { describe, expect, it } from 'vitest'
import { adapterSummary, overallSummary } from '../conformance/console-summary.ts'
import { compareWithBaseline } from '../conformance/baseline.ts'
import type { AdapterRun } from '../conformance/results.ts'
import { BASELINE, baselinedRun, CASES, META, plainRun, SUITE, unstartedRun } from './support/fake-runs.ts'

/** A run whose only news against the baseline is a listed case that now passes (jsonl-a). */
function onlyNewPassRun(): AdapterRun {
  const outcomes = plainRun().outcomes.map((outcome) => (outcome.status === 'error' || outcome.id === 'surf-b' ? { ...outcome, status: 'pass' as const } : outcome))
  return { ...plainRun(), outcomes, baseline: compareWithBaseline(outcomes, BASELINE, { source: 'baselines/fake.yaml', adapter: META.name, suite: SUITE }) }
}

const verdictOf = (run: AdapterRun, strict: boolean): string => overallSummary([run], strict).split('\n')[1]!.split(/\s{2,}/).at(-1)!

describe('the closing table of a run', () => {
  it('gives each run its verdict', () => {
    expect(verdictOf(plainRun(), false)).toBe('FAILED')
    expect(verdictOf(baselinedRun(), false)).toBe('FAILED')
    expect(verdictOf(unstartedRun(), false)).toBe('not started')
    expect(verdictOf(onlyNewPassRun(), false)).toBe('passed (baseline)')
  })

  it('ends each adapter summary with its counts, errors apart from failures', () => {
    expect(adapterSummary(plainRun(), CASES).split('\n').at(-1)).toBe('2 passed, 2 failed, 1 error, 1 skipped')
  })

  it('says when a run fails only because --strict-baseline makes a NEW PASS fatal', () => {
    expect(verdictOf(onlyNewPassRun(), true)).toBe('FAILED (NEW PASS under --strict-baseline)')
  })
})

describe('claims a run did not back', () => {
  const skipped = (id: string, reason: string) => ({ id, status: 'skip' as const, reason })

  it('warns about a claimed profile whose cases were skipped for lacking operations', () => {
    const outcomes = [
      skipped('surf-a', 'operation(s) not provided: messages'),
      skipped('surf-b', 'operation(s) not provided: messages, headerEquals'),
      { id: 'surf-c', status: 'pass' as const },
      skipped('comp-a', 'profile "compaction" not declared'),
    ]
    const summary = adapterSummary({ ...plainRun(), outcomes }, CASES)
    expect(summary).toContain('warning: profile reader is claimed, but 2 of its cases were skipped for operations the adapter does not provide: messages, headerEquals')
    expect(summary).not.toContain('tested nothing')
    expect(verdictOf({ ...plainRun(), outcomes }, false)).toBe('passed')
  })

  it('fails a run in which every case was skipped: it tested nothing', () => {
    const outcomes = CASES.map((vector) => skipped(vector.id, `profile "${vector.profile}" not declared`))
    const run = { ...plainRun(), outcomes }
    expect(adapterSummary(run, CASES)).toContain('warning: every selected case was skipped, so this run tested nothing: it fails')
    expect(verdictOf(run, false)).toBe('FAILED (no case ran)')
  })
})
