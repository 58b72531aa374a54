// The regionBalance probe's edges that are no current node (conformance/fuzz/region-edges.ts): one
// plan in four, every kind of value, and the reference's REGION_NOT_ON_SURFACE for each.
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { drawRun } from '../../conformance/fuzz/draw.ts'
import { deriveProbe } from '../../conformance/fuzz/probes.ts'
import { withEdgeOffSurface, withEdgesReversed } from '../../conformance/fuzz/region-edges.ts'

const isUsableSeq = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0 && !Object.is(value, -0)

describe('the edges of the regionBalance probe', () => {
  it('are left alone in about three plans in four, and otherwise take every kind of value that names no node', () => {
    // Events 0..5; 1 and 3 are nodes, 0, 2, 4 and 5 are not.
    const edited = Array.from({ length: 2000 }, (_, seed) => withEdgeOffSurface({ start: 1, end: 3 }, seed, 6, [1, 3]))
    const changed = edited.filter(members => members['start'] !== 1 || members['end'] !== 3)
    expect(changed.length).toBeGreaterThan(400)
    expect(changed.length).toBeLessThan(600)
    const values = changed.map(members => (members['start'] !== 1 ? members['start'] : members['end']))
    expect(changed.every(members => members['start'] === 1 || members['end'] === 3)).toBe(true)
    expect(new Set(values)).toEqual(new Set([2 ** 53, -1, 1.5, '0', null, true, false, 0, 2, 4, 5, 6, 7, 8]))
    const seqForm = Array.from({ length: 200 }, (_, seed) => withEdgeOffSurface({ seq: 1 }, seed, 6, [1, 3]))
    expect(seqForm.every(members => Object.keys(members).join() === 'seq')).toBe(true)
  })

  it("reach the probe from the run's plan, and the reference rejects each with REGION_NOT_ON_SURFACE, carrying the value when it is a usable seq", () => {
    const runs = Array.from({ length: 200 }, (_, index) => drawRun(1, index, 30)).filter(run => run.mutation === undefined)
    let offSurface = 0
    for (const run of runs) {
      const probe = deriveProbe(run, 'regionBalance')!
      const nodes = reference.surface({ header: run.header, events: run.events })
      if (!nodes.ok) continue
      const edge = ['seq', 'start', 'end'].find(member => member in probe.extra && !nodes.value.nodes.includes(probe.extra[member] as number))
      if (edge === undefined) continue
      offSurface += 1
      const value = probe.extra[edge]
      const result = reference.regionBalance({ header: run.header, events: run.events, ...probe.extra })
      const rejection = result.ok ? undefined : { code: result.error.code, seq: result.error.seq }
      expect(rejection, JSON.stringify(value)).toStrictEqual({ code: 'REGION_NOT_ON_SURFACE', seq: isUsableSeq(value) ? value : undefined })
    }
    expect(offSurface).toBeGreaterThan(10)
  })

  it('swap start and end in about one plan in four, never for the seq form or a one-node region', () => {
    const swapped = Array.from({ length: 2000 }, (_, seed) => withEdgesReversed({ start: 1, end: 3 }, seed)).filter(members => members['start'] === 3)
    expect(swapped.length).toBeGreaterThan(400)
    expect(swapped.length).toBeLessThan(600)
    expect(swapped.every(members => members['end'] === 1)).toBe(true)
    for (let seed = 0; seed < 200; seed += 1) {
      expect(withEdgesReversed({ seq: 1 }, seed)).toEqual({ seq: 1 })
      expect(withEdgesReversed({ start: 2, end: 2 }, seed)).toEqual({ start: 2, end: 2 })
    }
  })

  it("reach the probe from the run's plan, and the reference rejects a reversed region with REGION_REVERSED and no seq", () => {
    const runs = Array.from({ length: 1500 }, (_, index) => drawRun(1, index, 30)).filter(run => run.mutation === undefined)
    let reversed = 0
    for (const run of runs) {
      const probe = deriveProbe(run, 'regionBalance')!
      const surface = reference.surface({ header: run.header, events: run.events })
      if (!surface.ok || !('start' in probe.extra)) continue
      const [start, end] = [surface.value.nodes.indexOf(probe.extra['start'] as number), surface.value.nodes.indexOf(probe.extra['end'] as number)]
      if (start < 0 || end < 0 || start <= end) continue
      reversed += 1
      const result = reference.regionBalance({ header: run.header, events: probe.events, ...probe.extra })
      expect(result.ok ? undefined : { code: result.error.code, seq: result.error.seq }).toStrictEqual({ code: 'REGION_REVERSED', seq: undefined })
    }
    expect(reversed).toBeGreaterThan(5)
  })
})
