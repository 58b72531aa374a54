// Suite strength: each known-bad adapter (the reference with one classic bug, tests/known-bad/) must
// fail the vectors listed as catching it, so a vector edit that stops catching a bug is noticed. Only
// those vectors are run against it: the whole suite against each of the 370 adapters took three
// minutes of every CI run, and no other vector's outcome is asserted.
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
      const catching = cases.filter(vector => bad.caughtBy.includes(vector.id))
      const outcomes = await runSuite(knownBadAdapter(bad), catching)
      // A catching vector must fail on the bug's wrong answer, not on a crash of the fake itself; a bug
      // that is a crash must err with its own message.
      const caught = (outcome: (typeof outcomes)[number]): boolean => outcome.status === 'fail'
        || (bad.crashes !== undefined && outcome.status === 'error' && outcome.reason?.startsWith(bad.crashes) === true)
      const notFailed = outcomes.filter(outcome => !caught(outcome)).map(outcome => `${outcome.id}: ${outcome.status} ${outcome.reason ?? ''}`)
      expect(outcomes.map(outcome => outcome.id).sort()).toEqual([...new Set(bad.caughtBy)].sort())
      expect(notFailed).toEqual([])
    })
  }
})
