// The fork probes the fuzzer makes with the boundary -0 (conformance/fuzz/fork-boundary.ts): one plan
// in four; FORK-2 rejects -0 as no non-negative safe integer, whatever the log.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { forkAtNegativeZero } from '../../conformance/fuzz/fork-boundary.ts'
import { turnEnd, turnStart } from '../reference/helpers.ts'

describe('fork at a -0 boundary', () => {
  it('is drawn for about one plan in four', () => {
    let drawn = 0
    for (let seed = 1; seed <= 400; seed += 1) if (forkAtNegativeZero(seed)) drawn += 1
    expect(drawn).toBeGreaterThan(60)
    expect(drawn).toBeLessThan(140)
  })

  it('is rejected by the reference as an invalid boundary, where the boundary 0 is taken', async () => {
    const events = [turnStart(0, 1), turnEnd(1, 1)]
    const fork = (boundary: number): unknown => referenceAdapter.operations.fork!({ events, boundary, childId: 'c', now: 5 }, { caseId: 'fork', step: 0 })
    expect(await fork(-0)).toMatchObject({ ok: false, error: { code: 'FORK_INVALID_BOUNDARY' } })
    expect(await fork(0)).toMatchObject({ ok: false, error: { code: 'FORK_OPEN_TURN' } })
  })
})
