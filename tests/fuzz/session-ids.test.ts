// The session ids the artifactPath probe asks for (conformance/fuzz/session-ids.ts): the log's own half
// the time, else one whose segment JSONL-2 escapes or refuses.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { drawRun } from '../../conformance/fuzz/draw.ts'
import { deriveProbe } from '../../conformance/fuzz/probes.ts'
import { ESCAPED_SESSION_IDS, probedSessionId } from '../../conformance/fuzz/session-ids.ts'

describe('the session ids of the artifactPath probe', () => {
  it("are the log's own about half the time, and otherwise every escaped id in turn", () => {
    const drawn = Array.from({ length: 1000 }, (_, seed) => probedSessionId(seed, 'own'))
    const own = drawn.filter(id => id === 'own').length
    expect(own).toBeGreaterThan(400)
    expect(own).toBeLessThan(600)
    expect(new Set(drawn.filter(id => id !== 'own'))).toEqual(new Set(ESCAPED_SESSION_IDS))
  })

  it("reach the probe from the run's plan, leaving the run's header as it was", () => {
    const runs = Array.from({ length: 100 }, (_, index) => drawRun(1, index, 10)).filter(run => run.mutation === undefined)
    for (const run of runs) {
      const probe = deriveProbe(run, 'artifactPath')!
      expect(probe.extra['sessionId']).toBe(probedSessionId(run.plan.batchSeed, (run.header as { id: string }).id))
    }
    expect(runs.some(run => ESCAPED_SESSION_IDS.includes(deriveProbe(run, 'artifactPath')!.extra['sessionId'] as string))).toBe(true)
  })

  it('each get an answer from the reference: a path of escaped units, or the rejection of the empty id', async () => {
    for (const sessionId of ESCAPED_SESSION_IDS) {
      const result = await referenceAdapter.operations.artifactPath!({ sessionId, cwd: '/work' }, { caseId: 'ids', step: 0 }) as { ok: boolean; value?: { path: string } }
      expect(result.ok, JSON.stringify(sessionId)).toBe(sessionId !== '')
      if (result.ok) expect(result.value!.path).toMatch(/^[A-Za-z0-9._~\/-]+$/)
    }
  })
})
