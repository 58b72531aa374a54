// The compactionState, regionBalance, relations, load and append probes over a valid log whose events of one known
// type are marked ignorable (conformance/fuzz/ignorable-known.ts): one plan in four, every type drawn,
// and the reference's answers the unedited log's, as UNK-4 (and SEED-4 for the marker) says.
import { describe, expect, it } from 'vitest'
import { drawRun } from '../../conformance/fuzz/draw.ts'
import { withKnownTypeMarkedIgnorable } from '../../conformance/fuzz/ignorable-known.ts'
import { deriveProbe } from '../../conformance/fuzz/probes.ts'
import { reference } from '../../reference/index.ts'

type EventRecord = Record<string, unknown>
const TYPES = ['compaction/start', 'compaction/summary', 'compaction/end', 'session/end-seed', 'assistant/message', 'tool/result']
const LOG: EventRecord[] = TYPES.map((type, seq) => ({ type, seq, time: 1000 + seq, data: {} }))

describe('known types marked ignorable', () => {
  it('are drawn for about one plan in four, every type, marking all its events and nothing else', () => {
    const marked = new Set<unknown>()
    let edited = 0
    for (let seed = 1; seed <= 800; seed += 1) {
      const events = withKnownTypeMarkedIgnorable(LOG, seed) as EventRecord[] | undefined
      if (events === undefined) continue
      edited += 1
      const changed = events.filter((event, index) => event !== LOG[index])
      expect(changed.length).toBe(1)
      expect(changed[0]).toEqual({ ...LOG[changed[0]!['seq'] as number], ignorable: true })
      marked.add(changed[0]!['type'])
    }
    expect(edited).toBeGreaterThan(150)
    expect(edited).toBeLessThan(260)
    expect([...marked].sort()).toEqual([...TYPES].sort())
    expect(withKnownTypeMarkedIgnorable([{ type: 'user/message', seq: 0, time: 1, data: {} }], 1)).toBeUndefined()
  })

  it('reach the compaction, relations and load probes, whose reference answers are the unedited log\'s', () => {
    const runs = Array.from({ length: 1500 }, (_, index) => drawRun(2, index, 40)).filter(run => run.mutation === undefined && run.olderShapes !== true)
    let compared = 0
    let relations = 0
    let load = 0
    for (const run of runs) {
      for (const operation of ['compactionState', 'regionBalance', 'relations', 'load'] as const) {
        const probe = deriveProbe(run, operation)
        if (probe === undefined || probe.events === run.events || probe.variant !== undefined) continue
        const marked = withKnownTypeMarkedIgnorable(run.events, run.plan.batchSeed)
        if (marked === undefined || JSON.stringify(marked) !== JSON.stringify(probe.events)) continue
        compared += 1
        if (operation === 'relations') relations += 1
        if (operation === 'load') load += 1
        const answer = (events: unknown[]): unknown => reference[operation]({ header: run.header, events, ...probe.extra } as never)
        // load returns the events as given (PROC-5), marks included; its verdict is the unedited log's.
        if (operation === 'load') expect(answer(probe.events)).toEqual({ ok: true, value: probe.events })
        else expect(answer(probe.events), operation).toEqual(answer(run.events))
      }
    }
    expect(compared).toBeGreaterThan(20)
    expect(relations).toBeGreaterThan(5)
    expect(load).toBeGreaterThan(5)
  })

  it('reach the append probe over the events before its candidate, where the reference answers as over the unmarked ones', () => {
    const runs = Array.from({ length: 1500 }, (_, index) => drawRun(3, index, 40)).filter(run => run.mutation === undefined && run.olderShapes !== true)
    let compared = 0
    for (const run of runs) {
      const probe = deriveProbe(run, 'append')
      if (probe === undefined || probe.events.length === 0 || probe.events === run.events) continue
      // The other append edits (candidate-edits.ts, shared-call-id.ts) change other events, or none.
      const before = run.events.slice(0, probe.events.length)
      const marked = withKnownTypeMarkedIgnorable(before, run.plan.batchSeed)
      if (marked === undefined || JSON.stringify(probe.events) !== JSON.stringify(marked)) continue
      compared += 1
      const verdict = (events: unknown[]): unknown => {
        const result = reference.append({ header: run.header, events, candidate: probe.candidate, time: probe.candidateTime } as never)
        return result.ok ? 'accepted' : result.error
      }
      expect(verdict(probe.events)).toEqual(verdict(before))
    }
    expect(compared).toBeGreaterThan(5)
  })
})
