// The adapter's mirror of each build's lossless-JSON walk (upstream-order.ts) names the fault the walk
// stopped at, which the build's message does not. Held to the build itself: on drawn values whose
// members are getters that log each read, the mirror passes exactly what the build's `isJsonValue`
// passes, and reads the same members in the same order before it stops, so it stops where the build does.
// And on a value of exactly one fault of any kind, the code it names is the one the spec gives that
// fault (the reference's classifier, which has no priority to apply there).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { upstreamEnvelopeFault, upstreamJsonFault } from '../../conformance/adapters/dsh-session/upstream-order.ts'
import { DSH_SESSION_VERSIONS } from '../../conformance/adapters/dsh-session/upstream.ts'
import { snapshotJson } from '../../reference/lossless-json.ts'

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

/** Ways to put one fault into a container of a valid value (or, for `null-prototype`, none). */
const FAULTS = ['negative-zero', 'non-finite', 'undefined', 'bigint', 'function', 'symbol', 'cycle', 'symbol-key', 'hidden-member', 'foreign-prototype', 'null-prototype', 'hole'] as const
type FaultKind = (typeof FAULTS)[number]

const LEAF_FAULTS: Partial<Record<FaultKind, unknown>> = { 'negative-zero': -0, 'non-finite': Number.NaN, undefined, bigint: 1n, function: () => 1, symbol: Symbol.for('s') }

/** A copy of a JSON value with fresh containers, and those containers in depth-first order. */
function hostCopy(value: unknown, containers: object[]): unknown {
  if (typeof value !== 'object' || value === null) return value
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? value.map(item => hostCopy(item, containers)) : Object.fromEntries(Object.entries(value).map(([key, member]) => [key, hostCopy(member, containers)]))
  containers.unshift(copy)
  return copy
}

/** `json` with `fault` put into its `which`-th container (the value wrapped in an array when it has none). */
function withOneFault(json: unknown, fault: FaultKind, which: number): unknown {
  const containers: object[] = []
  let root = hostCopy(json, containers)
  if (containers.length === 0) containers.push((root = [root]) as object)
  const target = containers[which % containers.length]! as Record<string | symbol, unknown>
  const add = (value: unknown) => (Array.isArray(target) ? target.push(value) : (target['fault'] = value))
  if (fault in LEAF_FAULTS) add(LEAF_FAULTS[fault])
  else if (fault === 'cycle') add(target)
  else if (fault === 'symbol-key') target[Symbol.for('k')] = 1
  else if (fault === 'hidden-member') Object.defineProperty(target, 'hidden', { value: 1, enumerable: false })
  else if (fault === 'foreign-prototype') Object.setPrototypeOf(target, Array.isArray(target) ? Object.prototype : { inherited: 1 })
  else if (fault === 'null-prototype') { if (!Array.isArray(target)) Object.setPrototypeOf(target, null) }
  else if (Array.isArray(target)) {
    target.push(1, 2)
    delete target[0]
  } else target['hole'] = [, 1]
  return root
}

describe.each(DSH_SESSION_VERSIONS)('the mirror of dsh-session@%s\'s lossless-JSON walk, on one fault', (version) => {
  it('names the code the spec gives that fault, and passes what the build passes', async () => {
    const { isJsonValue } = await import(`dsh-session-${version}`) as { isJsonValue(value: unknown): boolean }
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }).map(json => JSON.parse(JSON.stringify(json)) as unknown), fc.constantFrom(...FAULTS), fc.nat(), (json, fault, which) => {
      const value = withOneFault(json, fault, which)
      const named = upstreamJsonFault(value)
      expect(named).toBe(snapshotJson(value).fault?.code)
      expect(named === undefined).toBe(isJsonValue(value))
    }), { numRuns: 1500, seed: 11 })
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
