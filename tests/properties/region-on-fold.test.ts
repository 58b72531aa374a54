// P14b: REGION-5 as the audit judges it, with the pairing counter kept beside one fold of the log
// (conformance/audit/surface-balance.ts), answers what regionLegality answers for the prefix whose
// surface it is, for every range of every surface a log passes through, its last included: the
// generated logs' (legal and unbalanced regions), and made-up surfaces of calls and results, appended
// and replaced anywhere, whose results may come before their calls (orphaned regions too).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { regionLegality } from '../../reference/region-balance.ts'
import { applySurfacePlan, emptySurface, planSurfaceEvent, surfaceNodes } from '../../reference/surface.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { applyToTree, counterTree, regionBefore } from '../../conformance/audit/surface-balance.ts'
import { generatedLogArbitrary } from '../../conformance/generators/index.ts'
import { runs } from './support.ts'

/**
 * Folds `events`, comparing both answers for every range of the surface before each event and after
 * the last; returns the answers met.
 */
function compareAlongFold(events: readonly SessionEvent[]): string[] {
  const met: string[] = []
  const eventAt = (seq: number) => events[seq]
  const state = emptySurface()
  const tree = counterTree(events.length)
  for (let index = 0; index <= events.length; index += 1) {
    const nodes = surfaceNodes(state)
    const prefix = events.slice(0, index)
    nodes.forEach((start, from) => nodes.slice(from).forEach((end, offset) => {
      const plan = { kind: 'replace', seq: index, start, end, shadowedSeqs: nodes.slice(from, from + offset + 1) } as const
      const expected = regionLegality(prefix, start, end)
      expect(regionBefore(tree, state, plan)).toEqual(expected)
      met.push(expected.ok ? 'legal' : expected.error.code)
    }))
    const event = events[index]
    const planned = event === undefined ? undefined : planSurfaceEvent(state, event, eventAt)
    if (planned?.ok !== true) continue
    applyToTree(tree, state, planned.plan, eventAt)
    applySurfacePlan(state, planned.plan)
  }
  return met
}

type Kind = 'user' | 'calls' | 'result'
interface Step { kind: Kind; calls: number; replace: boolean; at: number; span: number }

const stepArbitrary: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom<Kind>('user', 'calls', 'result'),
  calls: fc.integer({ min: 1, max: 3 }),
  replace: fc.boolean(),
  at: fc.nat(),
  span: fc.integer({ min: 1, max: 3 }),
})

function messageData(kind: Kind, calls: number, seq: number): Record<string, unknown> {
  if (kind !== 'calls') return { message: { role: kind === 'user' ? 'user' : 'tool', content: [{ type: 'text', text: 'x' }] } }
  const content = Array.from({ length: calls }, (_, index) => ({ type: 'tool-call', id: `c${seq}.${index}` }))
  return { message: { role: 'assistant', content } }
}

/**
 * A log of surface events only: each step appends, or replaces `span` nodes from node `at` (a tool
 * result never replaces, which would be a rewrite); results need not follow calls.
 */
function madeUpLog(steps: readonly Step[]): SessionEvent[] {
  const events: SessionEvent[] = []
  const surface: number[] = []
  for (const step of steps) {
    const seq = events.length
    const type = { user: 'user/message', calls: 'assistant/message', result: 'tool/result' }[step.kind]
    const event = { type, seq, time: seq, data: messageData(step.kind, step.calls, seq) } as unknown as SessionEvent
    if (!step.replace || step.kind === 'result' || surface.length === 0) {
      events.push({ ...event, surfaceOp: 'append' } as SessionEvent)
      surface.push(seq)
      continue
    }
    const from = step.at % surface.length
    const shadowed = surface.splice(from, step.span, seq)
    events.push({ ...event, surfaceOp: { op: 'replace', start: shadowed[0], end: shadowed.at(-1) }, sourceEventSeqs: shadowed } as SessionEvent)
  }
  return events
}

describe('P14b: REGION-5 on a kept counter equals REGION-5 on the log it folds', () => {
  it('for every range of the surface before each event of a generated log', () => {
    const met = new Set<string>()
    fc.assert(fc.property(generatedLogArbitrary({ maxSize: 60 }), log => {
      for (const answer of compareAlongFold(log.events as unknown as SessionEvent[])) met.add(answer)
    }), runs(30))
    expect([...met].sort()).toEqual(['REGION_UNBALANCED', 'legal'])
  })

  it('for every range of made-up surfaces, orphaned results among them', () => {
    const met = new Set<string>()
    fc.assert(fc.property(fc.array(stepArbitrary, { maxLength: 30 }), steps => {
      for (const answer of compareAlongFold(madeUpLog(steps))) met.add(answer)
    }), runs(60))
    expect([...met].sort()).toEqual(['REGION_ORPHAN_RESULT', 'REGION_UNBALANCED', 'legal'])
  })
})
