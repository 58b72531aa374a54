// The repair and resume probes over logs cut inside a turn whose calls have ids no closer can carry
// (conformance/fuzz/uncloseable-call-ids.ts): the edited log still loads, and REPAIR-13 rejects it at
// the seq of the first synthetic result that would carry such an id, unless the log goes on into a
// later turn, whose start forgets those calls.
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { currentShapesTwin } from '../../conformance/fuzz/driver.ts'
import { drawRun, type DrawnRun } from '../../conformance/fuzz/draw.ts'
import { deriveProbe, probeInput, NOW } from '../../conformance/fuzz/probes.ts'
import { UNCLOSEABLE_CALL_ID_VARIANT, withUncloseableCalls } from '../../conformance/fuzz/uncloseable-call-ids.ts'

type Block = Record<string, unknown>
type Event = { type: string; data: { message: { content: Block[] } } }

/** Whether a tool-call block's id can be a result's source.callId (VOC-11): a non-empty string. */
const carriable = (block: Block): boolean => typeof block['id'] === 'string' && block['id'] !== ''
const toolCalls = (event: unknown): Block[] => (event as Event).data.message.content.filter(block => block['type'] === 'tool-call')

/**
 * The seq REPAIR-13 names, from the scan of REPAIR-2 to REPAIR-4 written out here: the closers follow
 * the log in the order of repair's map, so the first result no closer can carry is at the log's length
 * plus the number of entries before it. Ids compare as JSON text, and no two of the edit's ids match.
 */
function firstUncloseableSeq(events: readonly unknown[]): number {
  let entries: Block[] = []
  for (const event of events as { type: string; data: Record<string, any> }[]) {
    if (['turn/start', 'turn/end', 'step/end'].includes(event.type)) entries = []
    if (event.type === 'tool/result') entries = entries.filter(entry => entry['id'] !== event.data['message']['source']['callId'])
    if (event.type !== 'assistant/message') continue
    for (const block of toolCalls(event)) {
      if (!entries.some(entry => JSON.stringify(entry['id']) === JSON.stringify(block['id']))) entries.push(block)
    }
  }
  return events.length + entries.findIndex(entry => !carriable(entry))
}

describe('calls no closer can carry', () => {
  const runs = Array.from({ length: 600 }, (_, index) => drawRun(2, index, 80)).filter(run => run.mutation === undefined && run.olderShapes !== true)
  const edited = runs.flatMap(run => {
    const events = withUncloseableCalls(run.events, run.plan.batchSeed)
    return events === undefined ? [] : [{ run, events }]
  })

  it('are drawn for about one valid log in four, and reach the repair and resume probes marked as their variant', () => {
    expect(edited.length).toBeGreaterThan(runs.length / 8)
    expect(edited.length).toBeLessThan(runs.length / 2)
    for (const { run, events } of edited.slice(0, 5)) {
      for (const operation of ['repair', 'resume'] as const) {
        const probe = deriveProbe(run, operation)!
        expect(probe.events).toEqual(events)
        expect(probe.variant).toBe(UNCLOSEABLE_CALL_ID_VARIANT)
      }
    }
    const kept = runs.find(run => withUncloseableCalls(run.events, run.plan.batchSeed) === undefined)!
    expect(deriveProbe(kept, 'repair')!.events).toBe(kept.events)
    expect(deriveProbe(kept, 'repair')!.variant).toBeUndefined()
  })

  /** The index of the message the edit changed: the first event that differs from the run's. */
  const editedMessage = (run: DrawnRun, events: unknown[]): number =>
    events.findIndex((event, index) => JSON.stringify(event) !== JSON.stringify(run.events[index]))
  /** Whether the log goes on into a turn that starts after the edited message. */
  const goesOnToLaterTurn = (run: DrawnRun, events: unknown[]): boolean =>
    events.slice(editedMessage(run, events)).some(event => (event as Event).type === 'turn/start')

  it('cut the log after an assistant message, change only that message, and give it two to four such calls', () => {
    for (const { run, events } of edited) {
      const message = editedMessage(run, events)
      expect((events[message] as Event).type).toBe('assistant/message')
      expect(events.length).toBeLessThanOrEqual(run.events.length)
      expect(events.slice(0, message)).toEqual(run.events.slice(0, message))
      // After it, the log as it was, but that a log going on into a later turn has each step/end
      // before that turn replaced by an ignorable foreign event at its seq and time.
      const nextTurn = events.findIndex((event, index) => index > message && (event as Event).type === 'turn/start')
      const expectedAfter = run.events.slice(message + 1, events.length).map((event, offset) => {
        const { type, seq, time } = event as { type: string; seq: number; time: number }
        return type === 'step/end' && message + 1 + offset < nextTurn ? { type: 'acme/telemetry', seq, time, data: { note: 'in place of a step/end' }, ignorable: true } : event
      })
      expect(events.slice(message + 1)).toEqual(expectedAfter)
      const bad = toolCalls(events[message]).filter(block => !carriable(block))
      expect(bad.length).toBeGreaterThanOrEqual(2)
      expect(bad.length).toBeLessThanOrEqual(4)
      // One id of each kind at most, so no two of them could be the same call.
      expect(new Set(bad.map(block => (block['id'] === undefined ? 'absent' : typeof block['id']))).size).toBe(bad.length)
    }
  })

  it('leave a log that loads and that repair and resume reject with MESSAGE_SOURCE_INVALID at the first such closer', () => {
    for (const { run, events } of edited.filter(edit => !goesOnToLaterTurn(edit.run, edit.events))) {
      const probe = { ...deriveProbe(run, 'repair')!, events }
      const input = probeInput(probe) as Parameters<typeof reference.repair>[0]
      expect(reference.load(input).ok).toBe(true)
      const expected = firstUncloseableSeq(events)
      expect(expected).toBeGreaterThanOrEqual(events.length)
      for (const result of [reference.repair(input), reference.resume({ ...input, now: NOW })]) {
        expect(result.ok ? 'accepted' : { code: result.error.code, seq: result.error.seq }).toEqual({ code: 'MESSAGE_SOURCE_INVALID', seq: expected })
      }
    }
  })

  it('go on into a later turn one time in three where the log has one, and are then closed as the unedited log is', () => {
    const later = edited.filter(edit => goesOnToLaterTurn(edit.run, edit.events))
    const couldGoOn = edited.filter(edit => edit.run.events.slice(editedMessage(edit.run, edit.events)).some(event => (event as Event).type === 'turn/start'))
    expect(later.length).toBeGreaterThan(couldGoOn.length / 6)
    expect(later.length).toBeLessThan(couldGoOn.length / 2)
    for (const { run, events } of later) {
      // By hand (REPAIR-4): the later turn/start empties the map, so the message's calls are gone
      // before the scan ends, and the closers are those of the same cut of the unedited log (a step/end
      // in an earlier turn, or an ignorable foreign event in its place, changes nothing after it).
      const input = probeInput({ ...deriveProbe(run, 'repair')!, events }) as Parameters<typeof reference.repair>[0]
      const unedited = { ...input, events: run.events.slice(0, events.length) }
      expect(reference.load(input).ok).toBe(true)
      expect(reference.repair(input)).toEqual(reference.repair(unedited))
      expect(reference.repair(input).ok).toBe(true)
      // resume returns the log and then the same closers and marker.
      const [resumed, resumedUnedited] = [reference.resume({ ...input, now: NOW }), reference.resume({ ...unedited, now: NOW })]
      expect(resumed.ok && resumedUnedited.ok).toBe(true)
      if (resumed.ok && resumedUnedited.ok) expect(resumed.value.slice(events.length)).toEqual(resumedUnedited.value.slice(events.length))
    }
  })

  it('are not made of the current-shapes twin of a log in older shapes, which is probed as that log was', () => {
    const older = Array.from({ length: 600 }, (_, index) => drawRun(2, index, 80)).filter(run => run.mutation === undefined && run.olderShapes === true)
    const twins = older.map(currentShapesTwin).filter(twin => withUncloseableCalls(twin.events, twin.plan.batchSeed) !== undefined)
    expect(twins.length).toBeGreaterThan(0)
    for (const twin of twins) {
      const probe = deriveProbe(twin, 'repair')!
      expect(probe.events).toBe(twin.events)
      expect(probe.variant).toBeUndefined()
    }
  })

  it('are drawn by the plan alone: a plan that edits one log edits any log cut inside a turn after an assistant message', () => {
    const small = [
      { type: 'turn/start', seq: 0, time: 1, data: { turn: 1 } },
      { type: 'step/start', seq: 1, time: 2, data: { turn: 1, step: 1 } },
      { type: 'assistant/message', seq: 2, time: 3, data: { turn: 1, step: 1, message: { id: 'm', role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'tool', arguments: '{}' }], source: { kind: 'model', provider: 'p', model: 'm' } } }, surfaceOp: 'append' },
    ]
    const smallEdits = runs.map(run => withUncloseableCalls(small, run.plan.batchSeed))
    // Every plan that edited its own log edits this one; the others edit it only when their draw takes it.
    runs.forEach((run, index) => {
      if (edited.some(edit => edit.run === run)) expect(smallEdits[index]).toBeDefined()
    })
    const drawn = smallEdits.filter(result => result !== undefined)
    expect(drawn.length).toBeGreaterThan(runs.length / 6)
    expect(drawn.length).toBeLessThan(runs.length / 3)
    // The one call, and a block gained: two at least that no closer can carry.
    for (const result of drawn) expect(toolCalls(result[2]).filter(block => !carriable(block)).length).toBeGreaterThanOrEqual(2)
    expect(withUncloseableCalls(small.slice(0, 2), edited[0]!.run.plan.batchSeed)).toBeUndefined()
  })
})
