// reference/string-set.ts, the immutable set of pending tool calls, against a plain Set: every version
// answers as the plain set at that point did, after any mix of adds and deletes, strings whose 32-bit
// hashes collide included.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { emptyStringSet, stringSetAdd, stringSetDelete, stringSetHas, type StringSet } from '../../reference/string-set.ts'
import { runs } from '../properties/support.ts'

/** Two strings with the same FNV-1a hash (0x7573f977), found by search: they share one leaf. */
const COLLIDING = ['call-46469', 'call-253384']
/** Hashes that agree with theirs in the low twelve bits (both), and in every bit at a multiple of four (the second). */
const NEAR = ['call-5569', 'call-42964']
const KEYS = [...COLLIDING, ...NEAR, 'c1', 'c2', 'c10', 'call-1', '', 'ü', 'call-46470']

type Operation = { add: boolean; key: string }

describe('StringSet', () => {
  it('keeps strings whose hashes collide apart', () => {
    const both = stringSetAdd(stringSetAdd(emptyStringSet, COLLIDING[0]!), COLLIDING[1]!)
    expect([stringSetHas(both, COLLIDING[0]!), stringSetHas(both, COLLIDING[1]!)]).toEqual([true, true])
    const one = stringSetDelete(both, COLLIDING[0]!)
    expect([stringSetHas(one, COLLIDING[0]!), stringSetHas(one, COLLIDING[1]!)]).toEqual([false, true])
    expect(stringSetHas(both, COLLIDING[0]!)).toBe(true)
  })

  it('answers as a plain Set does, in every version, after any adds and deletes', () => {
    const operation = fc.record({ add: fc.boolean(), key: fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 3 })) })
    fc.assert(fc.property(fc.array(operation, { maxLength: 60 }), (operations: Operation[]) => {
      const versions: Array<[StringSet, Set<string>]> = [[emptyStringSet, new Set()]]
      for (const { add, key } of operations) {
        const [set, model] = versions.at(-1)!
        const next = new Set(model)
        if (add) next.add(key)
        else next.delete(key)
        versions.push([add ? stringSetAdd(set, key) : stringSetDelete(set, key), next])
      }
      for (const [set, model] of versions) {
        for (const key of [...KEYS, ...operations.map(({ key }) => key)]) expect(stringSetHas(set, key)).toBe(model.has(key))
      }
    }), runs(300))
  })
})
