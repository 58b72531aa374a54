// examples/store-in-the-middle: the README's recipe for a storage backend that never writes JSONL runs
// the suite with the backend between the runner and the reference. A store that keeps events whole
// passes every case of its profiles; one that loses a member fails the cases that hold it.
import { describe, expect, it } from 'vitest'
import { runSuite } from '../conformance/suite.ts'
import { loadVectorCases, type VectorCase } from '../conformance/vector-cases.ts'
import { decodeTagged } from '../conformance/tagged-values.ts'
import { snapshotJson } from '../reference/lossless-json.ts'
import { storeInTheMiddle, textStore, type SessionStore } from '../examples/store-in-the-middle/adapter.ts'

const cases = loadVectorCases()

/** A store that drops every event's `ignorable` (ENV-12: reading back must yield each event equal). */
function storeDroppingIgnorable(): SessionStore {
  const inner = textStore()
  return {
    write: (header, events) => inner.write(header, events.map(event => ({ ...(event as object), ignorable: undefined }))),
    read: () => inner.read(),
  }
}

describe('examples/store-in-the-middle', () => {
  it('passes every case of the profiles whose operations take a log, through a store that keeps events whole', async () => {
    const outcomes = await runSuite(storeInTheMiddle(textStore()), cases)
    expect(outcomes.filter(outcome => outcome.status === 'fail' || outcome.status === 'error').map(outcome => outcome.id)).toEqual([])
    // Only the jsonl cases are skipped: the example claims every other profile.
    const skipped = outcomes.filter(outcome => outcome.status === 'skip').map(outcome => outcome.id)
    expect(skipped.length).toBe(cases.filter(vector => vector.profile === 'jsonl').length)
  }, 120_000)

  it('puts through the store every log the lossless JSON domain admits, and no other', async () => {
    const inDomain = (value: unknown): boolean => snapshotJson(value).fault === undefined
    // The steps whose log a store can keep: each case passes, so every step runs and writes once.
    const admittedSteps = (vector: VectorCase): number => vector.steps.filter(step => {
      const { events, header } = decodeTagged(step.input) as Record<string, unknown>
      return Array.isArray(events) && inDomain(events) && (header === undefined || inDomain(header))
    }).length
    const departures: string[] = []
    for (const vector of cases.filter(item => item.profile !== 'jsonl')) {
      let writes = 0
      const inner = textStore()
      const counting: SessionStore = { write: (header, events) => { writes += 1; inner.write(header, events) }, read: () => inner.read() }
      await runSuite(storeInTheMiddle(counting), [vector])
      if (writes !== admittedSteps(vector)) departures.push(vector.id)
    }
    // The example takes only this realm's prototypes for plain (the spec admits any realm's, JSON-8/9).
    expect(departures).toEqual(['json-realm-foreign-plain-accepted-load', 'json-realm-foreign-header-accepted', 'json-realm-foreign-append'])
  }, 120_000)

  it('fails the cases holding an ignorable event when the store loses that member', async () => {
    const outcomes = await runSuite(storeInTheMiddle(storeDroppingIgnorable()), cases)
    const failed = outcomes.filter(outcome => outcome.status === 'fail')
    expect(outcomes.filter(outcome => outcome.status === 'error')).toEqual([])
    expect(failed.length).toBeGreaterThan(0)
    expect(failed.map(outcome => outcome.reason ?? '').some(reason => reason.includes('ignorable'))).toBe(true)
  }, 120_000)
})
