// P14: compacting a balanced region keeps the remaining surface paired (spec chapters 13 and 14). A
// generated log is brought to rest (repair and resume when it crashed); a region is picked on its
// surface; the reference must judge the region exactly as the generator's own pairing counter does,
// and when the region is legal, the bracket a producer writes for it (COMP-12) must be accepted,
// keep the relations, and leave every remaining node with the balances it had.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { cutCounters, generatedLogArbitrary, surfaceTimeline, type LogEvent } from '../../conformance/generators/index.ts'
import { accepted, expectNoViolations, runs, surfaceOf } from './support.ts'

type Log = { header?: unknown; events: LogEvent[] }

function append(log: Log, candidate: Omit<LogEvent, 'seq' | 'time'>): Log {
  const event = accepted(reference.append({ ...log, candidate, time: 1_790_000_000_000 }), `append of ${candidate.type}`) as LogEvent
  return { ...log, events: [...log.events, event] }
}

function balances(log: Log, seqs: readonly number[]): unknown[] {
  return seqs.map(seq => accepted(reference.regionBalance({ ...log, seq }), `regionBalance of ${seq}`))
}

/** COMP-12 for a standalone compaction of `shadowedSeqs`, as a producer writes it. */
function compact(log: Log, shadowedSeqs: number[]): Log {
  const identity = { compactionId: 'cmp-property', sourceCommandId: 'cmd-property' }
  const range = { start: shadowedSeqs[0]!, end: shadowedSeqs.at(-1)! }
  let next = append(log, { type: 'compaction/start', data: { ...identity, turn: null } })
  const startSeq = next.events.length - 1
  next = append(next, { type: 'compaction/summary', data: { ...identity, summary: [{ type: 'text', text: 'summary' }], shadowedRange: range, shadowedSeqs, shadowedTokenCount: 900, provider: 'deepseek', model: 'deepseek-v4-flash' } })
  const checkpoint = {
    type: 'user/message',
    data: { id: 'msg-checkpoint', role: 'user', content: [{ type: 'text', text: 'summary' }], source: { kind: 'plugin', plugin: 'compact', ...identity } },
    surfaceOp: { op: 'replace' as const, ...range },
    sourceEventSeqs: [startSeq, startSeq + 1, ...shadowedSeqs],
  }
  next = append(next, checkpoint)
  return append(next, { type: 'compaction/end', data: { ...identity, turn: null } })
}

describe('compaction of a balanced region', () => {
  it('P14: compaction of a balanced region keeps the remaining surface paired', () => {
    const picks = fc.record({ log: generatedLogArbitrary({ maxSize: 100 }), first: fc.nat(), last: fc.nat() })
    fc.assert(fc.property(picks, ({ log, first, last }) => {
      const rest: Log = { header: log.header, events: accepted(reference.resume({ header: log.header, events: log.events, now: 1_790_000_000_000 }), 'resume') as LogEvent[] }
      const nodes = surfaceOf(rest).nodes
      fc.pre(nodes.length > 0)
      const counters = cutCounters(surfaceTimeline(rest.events).at(-1)!)
      // Any region: the reference judges it as the counter does.
      const [anyFrom, anyTo] = [first % nodes.length, last % nodes.length].sort((x, y) => x - y) as [number, number]
      const judged = reference.regionBalance({ ...rest, start: nodes[anyFrom], end: nodes[anyTo] })
      const legal = counters[anyFrom] === 0 && counters[anyTo + 1] === 0
      expect(judged.ok ? 'legal' : judged.error.code).toBe(legal ? 'legal' : 'REGION_UNBALANCED')
      // A legal region: compact it. One exists unless a call left unanswered (PAIR-6) is the first call
      // node on the surface; with none such, the surface of a log at rest ends balanced.
      const cuts = counters.flatMap((value, cut) => (value === 0 ? [cut] : []))
      if (log.facts.unansweredCalls === 0) expect(cuts.at(-1)).toBe(nodes.length)
      fc.pre(cuts.length > 1)
      const firstCut = first % (cuts.length - 1)
      const from = cuts[firstCut]!
      const to = cuts[firstCut + 1 + (last % (cuts.length - firstCut - 1))]! - 1
      const shadowedSeqs = nodes.slice(from, to + 1)
      const region = accepted(reference.regionBalance({ ...rest, start: nodes[from], end: nodes[to] }), 'regionBalance of a legal region')
      expect(region).toEqual({ shadowedRange: { start: nodes[from], end: nodes[to] }, shadowedSeqs })
      const kept = [...nodes.slice(0, from), ...nodes.slice(to + 1)]
      const remaining = kept.filter((_, index) => index % Math.ceil(kept.length / 8) === 0)
      const before = balances(rest, remaining)
      const compacted = compact(rest, shadowedSeqs)
      expectNoViolations(compacted)
      const after = surfaceOf(compacted).nodes
      expect(after).toEqual([...nodes.slice(0, from), compacted.events.length - 2, ...nodes.slice(to + 1)])
      expect(balances(compacted, remaining)).toEqual(before)
      expect(balances(compacted, [compacted.events.length - 2])).toEqual([{ before: true, after: true }])
    }), runs(80))
  })
})
