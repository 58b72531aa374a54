// The plain-data verdicts every summary and report is made of (conformance/results.ts): how requirement
// IDs sort, when a run tested nothing, which skips back a warning, and how a warning names an adapter.
import { describe, expect, it } from 'vitest'
import { adapterTitle, claimWarnings, compareRequirementIds, runFails, testedNothing } from '../conformance/results.ts'
import { NOT_PROVIDED } from '../conformance/run-case.ts'
import { summarize } from '../conformance/suite.ts'
import { referenceAdapter } from '../conformance/adapters/reference.ts'
import { CASES, plainRun, unstartedRun } from './support/fake-runs.ts'

describe('requirement IDs', () => {
  it('sort by the chapter of their prefix, then by number, not as text', () => {
    expect(['SURF-10', 'ENV-3', 'SURF-2', 'PROC-1', 'SURF-1'].sort(compareRequirementIds)).toEqual(['PROC-1', 'ENV-3', 'SURF-1', 'SURF-2', 'SURF-10'])
  })
})

describe('a run that tested nothing', () => {
  const skipped = (id: string) => ({ id, status: 'skip' as const, reason: 'profile "reader" not declared' })

  it('is a started run whose every case was skipped, or that was given none; it fails', () => {
    for (const outcomes of [[skipped('surf-a')], []]) {
      expect(testedNothing({ ...plainRun(), outcomes })).toBe(true)
      expect(runFails({ ...plainRun(), outcomes }, false)).toBe(true)
    }
    expect(testedNothing({ ...plainRun(), outcomes: [skipped('surf-a'), { id: 'surf-b', status: 'pass' }] })).toBe(false)
    // One that never started fails for that, and is not said to have tested nothing.
    expect(testedNothing(unstartedRun())).toBe(false)
    expect(runFails(unstartedRun(), false)).toBe(true)
  })

  it('fails through the package entry too: summarize of no case is no pass', () => {
    expect(summarize(referenceAdapter, [], []).failed).toBe(true)
    expect(summarize(referenceAdapter, [], []).text).toContain('warning: no case was given, so this run tested nothing: it fails')
  })
})

describe('warnings about claims', () => {
  it('count only skips: an error whose reason happens to hold the marker is no skip', () => {
    const outcomes = [
      { id: 'surf-a', status: 'error' as const, reason: `adapter error: ${NOT_PROVIDED}surface` },
      { id: 'surf-b', status: 'pass' as const },
    ]
    expect(claimWarnings({ ...plainRun(), outcomes }, CASES)).toEqual([])
  })

  it('say "were" of several skipped cases of an unclaimed profile', () => {
    const skipped = (id: string) => ({ id, status: 'skip' as const, reason: 'profile "reader" not declared, though the adapter provides the operations of this case: surface' })
    expect(claimWarnings({ ...plainRun(), outcomes: [skipped('surf-a'), skipped('surf-b'), { id: 'surf-c', status: 'pass' as const }] }, CASES)).toEqual([
      'profile reader is not claimed, so 2 of its cases were skipped, though the adapter provides their operations (surface): claim the profile to run them',
    ])
  })
})

describe('an adapter as a warning names it', () => {
  it('by name and version, with the command line\'s name when that differs; by the command line when it never started', () => {
    expect(adapterTitle({ ...plainRun(), label: 'fake-impl' })).toBe('fake-impl 1.2.3')
    expect(adapterTitle(plainRun())).toBe('fake-impl 1.2.3 (fake-impl-cmd)')
    expect(adapterTitle(unstartedRun())).toBe('broken-cmd --flag')
  })
})
