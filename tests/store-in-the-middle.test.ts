// examples/store-in-the-middle: the README's recipe for a storage backend that never writes JSONL runs
// the suite with the backend between the runner and the reference. A store that keeps events whole
// passes every case of its profiles; one that loses a member fails the cases that hold it.
import { describe, expect, it } from 'vitest'
import { runSuite } from '../conformance/suite.ts'
import { loadVectorCases } from '../conformance/vector-cases.ts'
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

  it('fails the cases holding an ignorable event when the store loses that member', async () => {
    const outcomes = await runSuite(storeInTheMiddle(storeDroppingIgnorable()), cases)
    const failed = outcomes.filter(outcome => outcome.status === 'fail')
    expect(outcomes.filter(outcome => outcome.status === 'error')).toEqual([])
    expect(failed.length).toBeGreaterThan(0)
    expect(failed.map(outcome => outcome.reason ?? '').some(reason => reason.includes('ignorable'))).toBe(true)
  }, 120_000)
})
