// Suite strength: each known-bad adapter (the reference with one classic bug, tests/known-bad/) must
// fail the vector run, and the vectors listed as catching it must stay among its failures, so a
// vector edit that stops catching a bug is noticed.
import { describe, expect, it } from 'vitest'
import { runSuite } from '../conformance/suite.ts'
import { loadVectorCases } from '../conformance/vector-cases.ts'
import { KNOWN_BAD } from './known-bad/index.ts'
import { knownBadAdapter } from './known-bad/wrap.ts'

const cases = loadVectorCases()
const caseIds = new Set(cases.map(vector => vector.id))

describe('known-bad adapters', () => {
  it('are at least fifteen, with distinct names, each naming vectors that exist', () => {
    expect(KNOWN_BAD.length).toBeGreaterThanOrEqual(15)
    expect(new Set(KNOWN_BAD.map(bad => bad.name)).size).toBe(KNOWN_BAD.length)
    for (const bad of KNOWN_BAD) {
      expect(bad.caughtBy.length, bad.name).toBeGreaterThan(0)
      expect(bad.caughtBy.filter(id => !caseIds.has(id)), bad.name).toEqual([])
    }
  })

  for (const bad of KNOWN_BAD) {
    it(`${bad.name}: ${bad.bug}`, async () => {
      const outcomes = await runSuite(knownBadAdapter(bad), cases)
      // A catching vector must fail on the bug's wrong answer, not on a crash of the fake itself.
      const failed = outcomes.filter(outcome => outcome.status === 'fail').map(outcome => outcome.id)
      const errors = outcomes.filter(outcome => outcome.status === 'error').map(outcome => `${outcome.id}: ${outcome.reason ?? ''}`)
      expect(errors).toEqual([])
      expect(failed.length).toBeGreaterThan(0)
      expect(bad.caughtBy.filter(id => !failed.includes(id))).toEqual([])
    })
  }
})
