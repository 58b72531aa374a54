// P14b: REGION-5 asked of a surface given by its nodes (regionLegalityOn, which the audit asks at each
// replace of one fold of the log) answers what regionLegality answers for the log whose surface it is,
// for every range of every surface a generated log passes through: legal, unbalanced, reversed and
// orphaned regions alike.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { regionLegality, regionLegalityOn } from '../../reference/region-balance.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { generatedLogArbitrary, surfaceTimeline } from '../../conformance/generators/index.ts'
import { runs } from './support.ts'

describe('P14b: REGION-5 on a fold equals REGION-5 on the log it folds', () => {
  it('for every range of the surface before each event', () => {
    fc.assert(fc.property(generatedLogArbitrary({ maxSize: 60 }), log => {
      const events = log.events as unknown as SessionEvent[]
      const timeline = surfaceTimeline(log.events)
      let compared = 0
      timeline.forEach((surface, index) => {
        const nodes = surface.map(node => node.seq)
        const prefix = events.slice(0, index)
        for (const start of nodes) {
          for (const end of [nodes[0], nodes.at(-1), start, nodes[Math.floor(nodes.length / 2)]]) {
            expect(regionLegalityOn(nodes, seq => events[seq], start, end)).toEqual(regionLegality(prefix, start, end))
            compared += 1
          }
        }
      })
      expect(compared).toBeGreaterThan(0)
    }), runs(30))
  })
})
