// The requestContext probes the fuzzer makes over contexts whose data is no object
// (conformance/fuzz/context-data.ts): one plan in four, every request/context record edited, each of
// the three values drawn; HDR-8 says the reference reads such a context as {}. And, on three plans in
// sixteen others, over contexts with a member holding null and a contextWindow of 0 or of a string of
// digits, which HDR-8 takes whole, as stored.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { withContextDataNotObject, withContextZeroAndNullMembers } from '../../conformance/fuzz/context-data.ts'
import { event, turnStart } from '../reference/helpers.ts'

const LOG = [turnStart(0, 1), event('request/context', 1, { contextWindow: 1000 }), event('request/context', 2, { provider: 'p' })]

describe('request contexts whose data is no object', () => {
  it('are drawn for about one plan in four, with each value, and read by the reference as {}', async () => {
    const values = new Set<string>()
    let edited = 0
    for (let seed = 1; seed <= 400; seed += 1) {
      const events = withContextDataNotObject(LOG, seed)
      if (events === undefined) continue
      edited += 1
      const data = events.filter(item => (item as { type: string }).type === 'request/context').map(item => JSON.stringify((item as { data: unknown }).data))
      expect(new Set(data).size).toBe(1)
      values.add(data[0]!)
      expect(await referenceAdapter.operations.requestContext!({ events }, { caseId: 'contexts', step: 0 })).toEqual({ ok: true, value: {} })
    }
    expect(edited).toBeGreaterThan(60)
    expect(edited).toBeLessThan(140)
    expect([...values].sort()).toEqual(['"wide"', '[1,2]', 'null'])
  })

  it('leave a log without a request/context as it is', () => {
    for (let seed = 1; seed <= 40; seed += 1) expect(withContextDataNotObject([turnStart(0, 1)], seed)).toBeUndefined()
  })
})

describe('request contexts with a null member and a contextWindow of 0 or of digits', () => {
  it('are drawn for about three plans in sixteen, none of them a plan whose data is made no object, and taken whole by the reference', async () => {
    const windows = new Set<unknown>()
    let edited = 0
    for (let seed = 1; seed <= 800; seed += 1) {
      const events = withContextZeroAndNullMembers(LOG, seed)
      if (events === undefined) continue
      edited += 1
      expect(withContextDataNotObject(LOG, seed)).toBeUndefined()
      const window = (events[2] as { data: { contextWindow: unknown } }).data.contextWindow
      windows.add(window)
      // By hand: the record at seq 2 is in force, taken whole and as stored with the members the edit
      // added (HDR-8): the string stays a string.
      const inForce = { provider: 'p', contextWindow: window, region: null }
      expect(await referenceAdapter.operations.requestContext!({ events }, { caseId: 'contexts', step: 0 })).toEqual({ ok: true, value: inForce })
    }
    expect([...windows]).toEqual(expect.arrayContaining([0, '131072']))
    expect(windows.size).toBe(2)
    expect(edited).toBeGreaterThan(100)
    expect(edited).toBeLessThan(200)
  })

  it('leave a log without a request/context in force as it is', () => {
    for (let seed = 1; seed <= 80; seed += 1) {
      expect(withContextZeroAndNullMembers([turnStart(0, 1)], seed)).toBeUndefined()
      expect(withContextZeroAndNullMembers(LOG, seed, 0)).toBeUndefined()
    }
  })
})
