// The load probe's surface-type lookalikes (conformance/fuzz/type-lookalikes.ts): one plan in eight, a
// plugin event retyped as a surface type in other letter case or with white space at an end and marked
// ignorable, with or without an append op, and load's answer to each edited log, checked by hand on a
// small log.
import { describe, expect, it } from 'vitest'
import { buildLog } from '../../conformance/builder.ts'
import { withSurfaceTypeLookalike } from '../../conformance/fuzz/type-lookalikes.ts'
import { reference } from '../../reference/index.ts'

const eventsOf = (built: ReturnType<typeof buildLog>): unknown[] => ('events' in built ? built.events : [])

// Plugin events at 1 (session/title) and 4 (plan/mode), the only events the edit may change.
const LOG = eventsOf(buildLog([
  { 'turn/start': 1 }, { event: { type: 'session/title', data: { title: 'A session', messageSeqs: [], source: { kind: 'fallback' } } } },
  { 'step/start': [1, 1] }, { user: 'go' }, { event: { type: 'plan/mode', data: { active: true } } }, { assistant: [1, 1], text: 'done' },
  { 'step/end': [1, 1] }, { 'turn/end': [1, 'completed'] },
]))

type EventRecord = Record<string, unknown>

describe('surface-type lookalikes', () => {
  it('are drawn for about one plan in eight, on a plugin event, and load answers as chapter 17 and SURF-1 say', () => {
    expect(reference.load({ events: LOG }).ok).toBe(true)
    const seen = new Set<string>()
    let edited = 0
    for (let seed = 1; seed <= 1600; seed += 1) {
      const events = withSurfaceTypeLookalike(LOG, seed)
      if (events === undefined) continue
      edited += 1
      const changed = events.flatMap((event, index) => (JSON.stringify(event) === JSON.stringify(LOG[index]) ? [] : [index]))
      expect(changed.length).toBe(1)
      const at = changed[0]!
      expect([1, 4]).toContain(at)
      const event = events[at] as EventRecord
      expect(['User/message', 'assistant/Message', 'TOOL/RESULT', 'tool/result ', ' user/message', 'assistant/message\t']).toContain(event['type'])
      expect(event['ignorable']).toBe(true)
      expect(event['data']).toEqual((LOG[at] as EventRecord)['data'])
      // By hand: an unknown type marked ignorable passes the vocabulary phase (UNK-4) and is log-only,
      // so the log loads, unless it carries a surfaceOp, which no log-only event may (SURF-1).
      const marked = 'surfaceOp' in event
      if (marked) expect(event['surfaceOp']).toBe('append')
      const result = reference.load({ events })
      expect(result.ok ? 'accepted' : `${result.error.code}@${result.error.seq}`).toBe(marked ? `SURFACE_OP_NOT_ALLOWED@${at}` : 'accepted')
      seen.add(`${event['type']} at ${at}${marked ? ' with append' : ''}`)
    }
    expect(edited).toBeGreaterThan(140)
    expect(edited).toBeLessThan(260)
    // Six types, at either plugin event, with and without the append op.
    expect(seen.size).toBe(24)
  })

  it('leave a log without plugin events as it is', () => {
    const plain = eventsOf(buildLog([{ 'turn/start': 1 }, { user: 'a' }, { 'turn/end': [1, 'completed'] }]))
    for (let seed = 1; seed <= 200; seed += 1) expect(withSurfaceTypeLookalike(plain, seed)).toBeUndefined()
  })
})
