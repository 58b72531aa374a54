import { describe, expect, it } from 'vitest'
import { firstDifference, firstDivergingSeq, judge } from '../conformance/expectations.ts'

describe('firstDifference', () => {
  it('tells 0 from -0 and NaN from NaN as equal', () => {
    expect(firstDifference({ a: 0 }, { a: -0 })).toBe('$.a')
    expect(firstDifference([Number.NaN], [Number.NaN])).toBeUndefined()
  })

  it('reports a missing member, an extra element and the first differing leaf in order', () => {
    expect(firstDifference({ a: 1, b: 2 }, { a: 1 })).toBe('$.b')
    expect(firstDifference([1, 2], [1, 2, 3])).toBe('$[2]')
    expect(firstDifference({ a: [1, { x: 1 }], b: 1 }, { a: [1, { x: 2 }], b: 2 })).toBe('$.a[1].x')
  })

  it('compares own members only, so a __proto__ member is not confused with the prototype', () => {
    const asData = JSON.parse('{"__proto__": {"admin": true}}')
    expect(firstDifference(asData, { admin: true })).toBe('$.__proto__')
    expect(firstDifference(asData, JSON.parse('{"__proto__": {"admin": true}}'))).toBeUndefined()
  })

  it('handles values far deeper than the call stack', () => {
    let deep: unknown = 1
    let other: unknown = 2
    for (let level = 0; level < 100_000; level += 1) {
      deep = [deep]
      other = [other]
    }
    expect(firstDifference(deep, other)?.length).toBeGreaterThan(100_000)
  })
})

describe('judge', () => {
  const rejection = { ok: false as const, error: { code: 'SURFACE_REPLACE_REVERSED', seq: 4 } }

  it('passes only the exact code, and the seq when the expectation gives one', () => {
    expect(judge(rejection, { reject: { code: 'SURFACE_REPLACE_REVERSED', seq: 4 } })).toEqual({ pass: true })
    expect(judge(rejection, { reject: { code: 'SURFACE_REPLACE_REVERSED' } })).toEqual({ pass: true })
    expect(judge(rejection, { reject: { code: 'SURFACE_REPLACE_REVERSED', seq: 5 } }).pass).toBe(false)
    expect(judge(rejection, { reject: { code: 'SURFACE_OP_INVALID' } }).pass).toBe(false)
    expect(judge(rejection, { accept: true }).pass).toBe(false)
  })

  it('fails an acceptance where a rejection was expected, and a wrong value', () => {
    expect(judge({ ok: true, value: 1 }, { reject: { code: 'X_Y' } }).pass).toBe(false)
    expect(judge({ ok: true, value: { nodes: [1, 2] } }, { value: { nodes: [2, 1] } })).toMatchObject({ pass: false, reason: expect.stringContaining('$.nodes[0]') })
  })

  it('names the first seq where two logs diverge', () => {
    const log = [{ seq: 0, type: 'a' }, { seq: 1, type: 'b' }]
    expect(firstDivergingSeq(log, [{ seq: 0, type: 'a' }, { seq: 1, type: 'c' }])).toBe(1)
    expect(firstDivergingSeq(log, log)).toBeUndefined()
  })
})
