// The fork probes the fuzzer makes with the boundary -0, with a boolean boundary and with one that is
// no number (conformance/fuzz/fork-boundary.ts): one plan in sixteen each; FORK-2 rejects each as no
// non-negative safe integer, whatever the log.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { drawRun } from '../../conformance/fuzz/draw.ts'
import { BOOLEAN_BOUNDARY_VARIANT, booleanBoundary, boundaryOffLog, forkAtNegativeZero, OMITTED_BOUNDARY, NEGATIVE_ZERO_BOUNDARY_VARIANT, NON_NUMBER_BOUNDARY_VARIANT, nonNumberBoundary } from '../../conformance/fuzz/fork-boundary.ts'
import { deriveProbe } from '../../conformance/fuzz/probes.ts'
import { turnEnd, turnStart } from '../reference/helpers.ts'

/** A drawn boundary as text that tells the values apart (0n from [0], which String alone does not). */
function kindAndText(value: unknown): string {
  return `${typeof value} ${String(value)}`
}

/**
 * A boundary draw: for about one plan in sixteen, every one of `values`, never where `other` draws,
 * and on the fork probe of each run that takes it, with its variant.
 */
function expectDrawnAndMarked(draw: (seed: number) => unknown, values: unknown[], variant: string, other: (seed: number) => boolean): void {
  const seeds = Array.from({ length: 1600 }, (_, index) => index + 1)
  const drawn = seeds.map(draw).filter(value => value !== undefined)
  expect(drawn.length).toBeGreaterThan(60)
  expect(drawn.length).toBeLessThan(140)
  expect(new Set(drawn.map(kindAndText))).toEqual(new Set(values.map(kindAndText)))
  expect(seeds.filter(seed => draw(seed) !== undefined && other(seed))).toEqual([])
  const runs = Array.from({ length: 300 }, (_, index) => drawRun(1, index, 20)).filter(run => run.events.length > 0)
  const taking = runs.filter(run => draw(run.plan.batchSeed) !== undefined)
  expect(taking.length).toBeGreaterThan(0)
  for (const run of taking) {
    const probe = deriveProbe(run, 'fork')!
    expect(probe.extra['boundary']).toEqual(draw(run.plan.batchSeed))
    expect(probe.variant).toBe(variant)
  }
}

describe('fork at a -0 boundary', () => {
  it('is drawn for about one plan in sixteen', () => {
    let drawn = 0
    for (let seed = 1; seed <= 1600; seed += 1) if (forkAtNegativeZero(seed)) drawn += 1
    expect(drawn).toBeGreaterThan(60)
    expect(drawn).toBeLessThan(140)
  })

  it('gives the probe of such a plan the boundary -0 and its variant, and the others the drawn boundary', () => {
    const runs = Array.from({ length: 200 }, (_, index) => drawRun(1, index, 20)).filter(run => run.mutation === undefined && run.events.length > 0)
    const [atNegativeZero, atDrawn] = [runs.filter(run => forkAtNegativeZero(run.plan.batchSeed)), runs.filter(run => !forkAtNegativeZero(run.plan.batchSeed))]
    expect(atNegativeZero.length).toBeGreaterThan(0)
    expect(atDrawn.length).toBeGreaterThan(atNegativeZero.length)
    for (const run of atNegativeZero) {
      const probe = deriveProbe(run, 'fork')!
      expect(Object.is(probe.extra['boundary'], -0)).toBe(true)
      expect(probe.variant).toBe(NEGATIVE_ZERO_BOUNDARY_VARIANT)
    }
    for (const run of atDrawn) {
      const probe = deriveProbe(run, 'fork')!
      expect(Object.is(probe.extra['boundary'], -0)).toBe(false)
      expect(probe.variant).not.toBe(NEGATIVE_ZERO_BOUNDARY_VARIANT)
    }
  })

  it('is rejected by the reference as an invalid boundary, where boundary 0 meets the open turn', async () => {
    const events = [turnStart(0, 1), turnEnd(1, 1)]
    const fork = (boundary: number): unknown => referenceAdapter.operations.fork!({ events, boundary, childId: 'c', now: 5 }, { caseId: 'fork', step: 0 })
    expect(await fork(-0)).toMatchObject({ ok: false, error: { code: 'FORK_INVALID_BOUNDARY' } })
    expect(await fork(0)).toMatchObject({ ok: false, error: { code: 'FORK_OPEN_TURN' } })
  })
})

describe('fork at a boolean boundary', () => {
  it('is drawn for about one plan in sixteen, never beside -0, false and true alike, and marked as its variant', () => {
    expectDrawnAndMarked(booleanBoundary, [false, true], BOOLEAN_BOUNDARY_VARIANT, seed => forkAtNegativeZero(seed))
  })

  it('is rejected by the reference as an invalid boundary, where 0 and 1 are seqs of the log', async () => {
    const events = [turnStart(0, 1), turnEnd(1, 1)]
    const fork = (boundary: unknown): unknown => referenceAdapter.operations.fork!({ events, boundary, childId: 'c', now: 5 }, { caseId: 'fork', step: 0 })
    for (const boundary of [false, true]) expect(await fork(boundary)).toMatchObject({ ok: false, error: { code: 'FORK_INVALID_BOUNDARY' } })
    expect(await fork(1)).toMatchObject({ ok: true })
  })
})

describe('fork at a boundary that is no number', () => {
  it('is drawn for about one plan in sixteen, never beside -0 or a boolean, each value, and marked as its variant', () => {
    const values = [Number.NaN, Number.POSITIVE_INFINITY, 0n, [0]]
    expectDrawnAndMarked(nonNumberBoundary, values, NON_NUMBER_BOUNDARY_VARIANT, seed => forkAtNegativeZero(seed) || booleanBoundary(seed) !== undefined)
  })

  it('hands each probe an array boundary of its own, so that a probe cannot change a later one', () => {
    const runs = Array.from({ length: 300 }, (_, index) => drawRun(1, index, 20)).filter(run => run.events.length > 0)
    const drawing = runs.find(run => Array.isArray(nonNumberBoundary(run.plan.batchSeed)))
    expect(drawing).toBeDefined()
    const first = deriveProbe(drawing!, 'fork')!.extra['boundary'] as number[]
    first[0] = 7
    expect(deriveProbe(drawing!, 'fork')!.extra['boundary']).toEqual([0])
  })

  // By hand: FORK-2 step 1, none is a non-negative safe integer (a bigint is no number, even 0n, nor an
  // array, even one holding 0).
  it('is rejected by the reference as an invalid boundary, where 0 is a seq of the log', async () => {
    const events = [turnEnd(0, 1)]
    const fork = (boundary: unknown): unknown => referenceAdapter.operations.fork!({ events, boundary, childId: 'c', now: 5 }, { caseId: 'fork', step: 0 })
    for (const boundary of [Number.NaN, Number.POSITIVE_INFINITY, 0n, [0]]) expect(await fork(boundary)).toMatchObject({ ok: false, error: { code: 'FORK_INVALID_BOUNDARY' } })
    expect(await fork(0)).toMatchObject({ ok: true })
  })
})

describe('fork at a number that is no seq of the log, or with no boundary', () => {
  it('is drawn for about one plan in sixteen each, never beside the other boundary draws, each value', () => {
    const seeds = Array.from({ length: 1600 }, (_, index) => index + 1)
    const others = (seed: number): boolean => forkAtNegativeZero(seed) || booleanBoundary(seed) !== undefined || nonNumberBoundary(seed) !== undefined
    const drawn = seeds.map(seed => boundaryOffLog(seed, 10))
    const numbers = drawn.filter(value => typeof value === 'number')
    const omitted = drawn.filter(value => value === OMITTED_BOUNDARY)
    for (const taken of [numbers, omitted]) {
      expect(taken.length).toBeGreaterThan(60)
      expect(taken.length).toBeLessThan(140)
    }
    expect(new Set(numbers)).toEqual(new Set([10, 11, -1, 0.5, 2 ** 53]))
    expect(seeds.filter(seed => boundaryOffLog(seed, 10) !== undefined && others(seed))).toEqual([])
  })

  it("reaches the fork probe unmarked: the count of the log's events or another number that is no seq, or no boundary member", () => {
    const runs = Array.from({ length: 400 }, (_, index) => drawRun(1, index, 20)).filter(run => run.events.length > 0)
    let [offLog, omitted] = [0, 0]
    for (const run of runs) {
      const drawn = boundaryOffLog(run.plan.batchSeed, run.events.length)
      if (drawn === undefined) continue
      const probe = deriveProbe(run, 'fork')!
      expect([undefined, 'optional members undefined']).toContain(probe.variant)
      if (drawn === OMITTED_BOUNDARY) {
        omitted += 1
        expect(Object.hasOwn(probe.extra, 'boundary')).toBe(false)
      } else {
        offLog += 1
        expect(probe.extra['boundary']).toBe(drawn)
      }
    }
    expect(offLog).toBeGreaterThan(5)
    expect(omitted).toBeGreaterThan(5)
  })

  // By hand: FORK-2 checks 1 and 2 reject each number; FORK-1 forks an omitted boundary at the last seq.
  it('is rejected by the reference as an invalid boundary, and an omitted one forks the whole log', async () => {
    const events = [turnStart(0, 1), turnEnd(1, 1)]
    const fork = (members: Record<string, unknown>): unknown => referenceAdapter.operations.fork!({ events, childId: 'c', now: 5, ...members }, { caseId: 'fork', step: 0 })
    for (const boundary of [2, 3, -1, 0.5, 2 ** 53]) expect(await fork({ boundary })).toMatchObject({ ok: false, error: { code: 'FORK_INVALID_BOUNDARY' } })
    expect(await fork({})).toStrictEqual(await fork({ boundary: 1 }))
  })
})
