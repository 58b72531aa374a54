// The append probe's rewrites onto a prefix in which an earlier step's result shares their call id
// (conformance/fuzz/shared-call-id.ts): the prefix keeps every relation and the reference accepts the
// rewrite, which equals the node it shadows (REWR-3), whatever earlier result has its call id.
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { drawRun } from '../../conformance/fuzz/draw.ts'
import { deriveProbe } from '../../conformance/fuzz/probes.ts'
import { appendSharingCallId } from '../../conformance/fuzz/shared-call-id.ts'

const resultId = (event: unknown): unknown => (event as { data: { message: { source: { callId: unknown } } } }).data.message.source.callId

describe('rewrites whose call id an earlier result shares', () => {
  const runs = Array.from({ length: 1500 }, (_, index) => drawRun(1, index, 150)).filter(run => run.mutation === undefined && run.olderShapes !== true)
  const shared = runs.flatMap(run => {
    const edit = appendSharingCallId(run.events, run.plan.batchSeed)
    return edit === undefined ? [] : [{ run, edit }]
  })

  it('are drawn for valid logs that hold a rewrite, and reach the append probe', () => {
    expect(shared.length).toBeGreaterThan(5)
    for (const { run, edit } of shared.slice(0, 5)) {
      const probe = deriveProbe(run, 'append')!
      expect(probe.events).toEqual(edit.events)
      expect(probe.candidate).toEqual(edit.candidate)
    }
  })

  it('give a prefix that keeps every relation, an earlier result with the call id, and an accepted append', () => {
    for (const { run, edit } of shared) {
      const prefix = { header: run.header, events: edit.events }
      const relations = reference.relations(prefix)
      expect(relations.ok && relations.value.violations).toEqual([])
      const rewritten = (edit.candidate['surfaceOp'] as { start: number }).start
      const callId = resultId(edit.candidate)
      // Another result, of an earlier step, answers the same call id.
      expect(edit.events.slice(0, rewritten).some(event => (event as { type: string }).type === 'tool/result' && resultId(event) === callId)).toBe(true)
      const appended = reference.append({ ...prefix, candidate: edit.candidate, time: edit.time })
      expect(appended.ok).toBe(true)
    }
  })
})
