// The append probe's rewrites (the log's own, or ones that keep a node's data) onto events in which an
// earlier step's result shares their call id (conformance/fuzz/shared-call-id.ts): the events keep every
// relation and the reference accepts the rewrite, which equals the node it shadows (REWR-3), whatever
// earlier result has its call id.
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { currentShapesTwin } from '../../conformance/fuzz/driver.ts'
import { drawRun } from '../../conformance/fuzz/draw.ts'
import { deriveProbe } from '../../conformance/fuzz/probes.ts'
import { appendSharingCallId, type RewriteSource } from '../../conformance/fuzz/shared-call-id.ts'

const resultId = (event: unknown): unknown => (event as { data: { message: { source: { callId: unknown } } } }).data.message.source.callId

describe('rewrites whose call id an earlier result shares', () => {
  const runs = Array.from({ length: 1500 }, (_, index) => drawRun(1, index, 150)).filter(run => run.mutation === undefined && run.olderShapes !== true)
  const sharedFrom = (source: RewriteSource) => runs.flatMap(run => {
    const edit = appendSharingCallId(run.events, run.plan.batchSeed, source)
    return edit === undefined ? [] : [{ run, edit }]
  })
  const [logged, ofNodes] = [sharedFrom('logged'), sharedFrom('node')]
  const shared = [...logged, ...ofNodes]
  const reachesProbe = ({ run, edit }: (typeof shared)[number]): boolean => {
    const probe = deriveProbe(run, 'append')!
    return JSON.stringify([probe.events, probe.candidate]) === JSON.stringify([edit.events, edit.candidate])
  }

  it('are drawn for valid logs that hold a rewrite, and reach the append probe', () => {
    expect(logged.length).toBeGreaterThan(2)
    for (const sharing of logged) expect(reachesProbe(sharing)).toBe(true)
  })

  it('are made of a result still on the surface, onto the whole log, where the probe edits its candidate no other way', () => {
    for (const { run, edit } of ofNodes) expect(edit.events.length).toBe(run.events.length)
    const reaching = ofNodes.filter(reachesProbe)
    expect(reaching.length).toBeGreaterThan(20)
    // The others: where the log's own rewrite is drawn, or the candidate edits of candidate-edits.ts.
    for (const sharing of ofNodes.filter(other => !reaching.includes(other))) {
      const probe = deriveProbe(sharing.run, 'append')!
      const loggedDrawn = logged.some(({ run }) => run === sharing.run)
      expect(loggedDrawn || probe.events.length < sharing.run.events.length).toBe(true)
    }
  })

  it('are not made of the current-shapes twin of a log in older shapes, which is probed as that log was', () => {
    const older = Array.from({ length: 1500 }, (_, index) => drawRun(1, index, 150)).filter(run => run.mutation === undefined && run.olderShapes === true)
    const twins = older.map(currentShapesTwin).filter(twin => appendSharingCallId(twin.events, twin.plan.batchSeed, 'logged') !== undefined)
    expect(twins.length).toBeGreaterThan(0)
    for (const twin of twins) {
      const edit = appendSharingCallId(twin.events, twin.plan.batchSeed, 'logged')!
      expect(deriveProbe(twin, 'append')!.events).not.toEqual(edit.events)
    }
  })

  it('give a prefix that keeps every relation, an earlier result with the call id, and an accepted append', () => {
    for (const { run, edit } of shared) {
      const prefix = { header: run.header, events: edit.events }
      const relations = reference.relations(prefix)
      expect(relations.ok && relations.value.violations).toEqual([])
      // More results of another step answer the same call id than before the edit: the one it renamed,
      // and its rewrites in that step, if any.
      const callId = resultId(edit.candidate)
      const { turn, step } = (edit.candidate as { data: { turn: number; step: number } }).data
      const ofAnotherStep = (event: unknown): boolean => {
        const { type, data } = event as { type: string; data: { turn: number; step: number } }
        return type === 'tool/result' && resultId(event) === callId && (data.turn !== turn || data.step !== step)
      }
      const renamedResults = edit.events.filter((event, index) => ofAnotherStep(event) && !ofAnotherStep(run.events[index]))
      expect(renamedResults.length).toBeGreaterThan(0)
      expect(edit.events.filter(ofAnotherStep).length).toBe(run.events.slice(0, edit.events.length).filter(ofAnotherStep).length + renamedResults.length)
      const appended = reference.append({ ...prefix, candidate: edit.candidate, time: edit.time })
      expect(appended.ok).toBe(true)
    }
  })
})
