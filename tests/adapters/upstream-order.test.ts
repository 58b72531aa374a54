// The adapter's mirror of each build's lossless-JSON walk (upstream-order.ts) names the fault the walk
// stopped at, which the build's message does not. Held to the build itself: on drawn values whose
// members are getters that log each read, the mirror passes exactly what the build's `isJsonValue`
// passes, and reads the same members in the same order before it stops, so it stops where the build does.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { upstreamEnvelopeFault, upstreamJsonFault } from '../../conformance/adapters/dsh-session/upstream-order.ts'
import { DSH_SESSION_VERSIONS } from '../../conformance/adapters/dsh-session/upstream.ts'

/** A drawn value: JSON, or one of the faults the walk tells apart, nested in objects and arrays. */
type Drawn = { kind: 'leaf'; value: unknown } | { kind: 'array'; items: Drawn[]; hole: boolean } | { kind: 'object'; members: [string, Drawn][]; foreign: boolean }

const leaf = fc.oneof(
  fc.constantFrom<unknown>(null, true, 'text', 1, -0, Number.NaN, Number.POSITIVE_INFINITY, undefined, 1n, Symbol.for('s'), () => 1),
  fc.integer(),
).map((value): Drawn => ({ kind: 'leaf', value }))

const drawn: fc.Arbitrary<Drawn> = fc.letrec<{ node: Drawn }>(tie => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ kind: fc.constant('array' as const), items: fc.array(tie('node'), { maxLength: 4 }), hole: fc.boolean() }),
    fc.record({ kind: fc.constant('object' as const), members: fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), tie('node')), { maxLength: 4, selector: ([key]) => key }), foreign: fc.boolean() }),
  ),
})).node

/** The host value of `node`, its object members getters that append their path to `reads`. */
function build(node: Drawn, path: string, reads: string[]): unknown {
  if (node.kind === 'leaf') return node.value
  if (node.kind === 'array') {
    const items = node.items.map((item, index) => build(item, `${path}[${index}]`, reads))
    // A hole one past the items: the array's length counts it, and no element is there.
    if (node.hole && items.length > 0) items.length += 1
    return items
  }
  const target: Record<string, unknown> = Object.create(node.foreign ? { inherited: true } : Object.prototype)
  for (const [key, member] of node.members) {
    const value = build(member, `${path}.${key}`, reads)
    Object.defineProperty(target, key, { enumerable: true, configurable: true, get: () => (reads.push(`${path}.${key}`), value) })
  }
  return target
}

describe.each(DSH_SESSION_VERSIONS)('the mirror of dsh-session@%s\'s lossless-JSON walk', (version) => {
  it('passes what the build passes, and reads what the build reads before it stops', async () => {
    const { isJsonValue } = await import(`dsh-session-${version}`) as { isJsonValue(value: unknown): boolean }
    fc.assert(fc.property(drawn, (node) => {
      const buildReads: string[] = []
      const mirrorReads: string[] = []
      const passed = isJsonValue(build(node, '$', buildReads))
      const fault = upstreamJsonFault(build(node, '$', mirrorReads))
      expect(fault === undefined).toBe(passed)
      expect(mirrorReads).toEqual(buildReads)
    }), { numRuns: 2000, seed: 7 })
  })
})

describe('the mirror of the builds\' envelope test', () => {
  const good = { type: 'plan/mode', seq: 0, time: 1, data: {} }

  it('takes its conditions in the build\'s order, with no storage-tag rule', () => {
    expect(upstreamEnvelopeFault(good)).toBeUndefined()
    expect(upstreamEnvelopeFault({ ...good, type: 'text-chunks' })).toBeUndefined()
    expect(upstreamEnvelopeFault({ ...good, type: 'text-chunks', seq: 'x' })).toBe('ENV_SEQ_INVALID')
    expect(upstreamEnvelopeFault({ ...good, extra: 1, type: 5 })).toBe('ENV_UNKNOWN_KEY')
    expect(upstreamEnvelopeFault({ ...good, type: 5, seq: -1, time: 1.5 })).toBe('ENV_TYPE_INVALID')
    expect(upstreamEnvelopeFault({ ...good, seq: -1, time: 1.5 })).toBe('ENV_SEQ_INVALID')
    expect(upstreamEnvelopeFault({ ...good, seq: -0, time: 1.5, data: undefined })).toBe('ENV_TIME_INVALID')
    expect(upstreamEnvelopeFault({ ...good, data: undefined, ignorable: false })).toBe('ENV_DATA_MISSING')
    expect(upstreamEnvelopeFault({ ...good, ignorable: false })).toBe('ENV_IGNORABLE_INVALID')
    // for…in also lists an inherited enumerable key.
    expect(upstreamEnvelopeFault(Object.assign(Object.create({ inherited: 1 }), good))).toBe('ENV_UNKNOWN_KEY')
  })
})
