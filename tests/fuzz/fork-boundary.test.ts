// The fork probes the fuzzer makes with the boundary -0 and with a boolean boundary
// (conformance/fuzz/fork-boundary.ts): one plan in sixteen each; FORK-2 rejects both as no
// non-negative safe integer, whatever the log.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { drawRun } from '../../conformance/fuzz/draw.ts'
import { BOOLEAN_BOUNDARY_VARIANT, booleanBoundary, forkAtNegativeZero, NEGATIVE_ZERO_BOUNDARY_VARIANT } from '../../conformance/fuzz/fork-boundary.ts'
import { deriveProbe } from '../../conformance/fuzz/probes.ts'
import { turnEnd, turnStart } from '../reference/helpers.ts'

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
    const seeds = Array.from({ length: 1600 }, (_, index) => index + 1)
    const drawn = seeds.map(booleanBoundary).filter(value => value !== undefined)
    expect(drawn.length).toBeGreaterThan(60)
    expect(drawn.length).toBeLessThan(140)
    expect(new Set(drawn)).toEqual(new Set([false, true]))
    expect(seeds.filter(seed => forkAtNegativeZero(seed) && booleanBoundary(seed) !== undefined)).toEqual([])
    const runs = Array.from({ length: 300 }, (_, index) => drawRun(1, index, 20)).filter(run => run.events.length > 0)
    const atBoolean = runs.filter(run => booleanBoundary(run.plan.batchSeed) !== undefined)
    expect(atBoolean.length).toBeGreaterThan(0)
    for (const run of atBoolean) {
      const probe = deriveProbe(run, 'fork')!
      expect(probe.extra['boundary']).toBe(booleanBoundary(run.plan.batchSeed))
      expect(probe.variant).toBe(BOOLEAN_BOUNDARY_VARIANT)
    }
  })

  it('is rejected by the reference as an invalid boundary, where 0 and 1 are seqs of the log', async () => {
    const events = [turnStart(0, 1), turnEnd(1, 1)]
    const fork = (boundary: unknown): unknown => referenceAdapter.operations.fork!({ events, boundary, childId: 'c', now: 5 }, { caseId: 'fork', step: 0 })
    for (const boundary of [false, true]) expect(await fork(boundary)).toMatchObject({ ok: false, error: { code: 'FORK_INVALID_BOUNDARY' } })
    expect(await fork(1)).toMatchObject({ ok: true })
  })
})
