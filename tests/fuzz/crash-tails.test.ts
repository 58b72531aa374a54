// The repair and resume probes the fuzzer makes over valid logs edited where chapter 12's scan must read
// exactly what the spec says (conformance/fuzz/crash-tails.ts): one plan in four, each of the five
// edits drawn, every edited log one that load accepts.
import { describe, expect, it } from 'vitest'
import { withCrashTailEdit } from '../../conformance/fuzz/crash-tails.ts'
import { reference } from '../../reference/index.ts'
import { assistant, call, event, result, turnStart } from '../reference/helpers.ts'

// A whole turn: its step calls c1 and gets the result.
const LOG = [
  turnStart(0, 1), event('step/start', 1, { turn: 1, step: 1 }), assistant(2, 1, 1, ['c1']), call(3, 1, 1, 'c1'),
  result(4, 1, 1, 'c1'), event('step/end', 5, { turn: 1, step: 1 }), event('turn/end', 6, { turn: 1, reason: { kind: 'completed' } }),
]

type EventRecord = Record<string, unknown>

/** Which edit made `events` from LOG, told from its shape. */
function editOf(events: EventRecord[]): string {
  const last = events.at(-1)!
  if (last['type'] === 'acme/telemetry') return 'marker then ignorable'
  if (last['type'] === 'step/start' && events.length === LOG.length + 1) return 'step after the last turn'
  if (last['type'] === 'session/end-seed') return 'cut and marked'
  if (events.some(item => item['ignorable'] === true)) return 'ignorable boundaries'
  return 'steps shifted'
}

const closersOf = (events: unknown[]): EventRecord[] => {
  const repaired = reference.repair({ events })
  if (!repaired.ok) throw new Error(`repair rejected the edited log: ${repaired.error.code}`)
  return repaired.value.closers as unknown as EventRecord[]
}

describe('crash-tail edits', () => {
  it('are drawn for about one plan in four, each edit, over logs load accepts, and repaired as chapter 12 says', () => {
    const edits = new Set<string>()
    let edited = 0
    for (let seed = 1; seed <= 600; seed += 1) {
      const events = withCrashTailEdit(LOG, seed) as EventRecord[] | undefined
      if (events === undefined) continue
      edited += 1
      expect(reference.load({ events }).ok).toBe(true)
      const edit = editOf(events)
      edits.add(edit)
      // By hand: no turn is open after a step/start that follows the last turn/end (REPAIR-2), nor after
      // a marker and a foreign event; resume then adds its marker after the foreign one (SEED-4).
      if (edit === 'step after the last turn') expect(closersOf(events)).toEqual([])
      if (edit === 'marker then ignorable') {
        const resumed = reference.resume({ events, now: 9000 })
        expect(resumed.ok && resumed.value.at(-1)).toEqual({ type: 'session/end-seed', seq: LOG.length + 2, time: 9000, data: {} })
      }
      // A marker at the cut changes no state of the scan (SEED-7): the closers are those of the cut
      // log, one seq later, so the same types in the same order.
      if (edit === 'cut and marked') expect(closersOf(events).map(closer => closer['type'])).toEqual(closersOf(events.slice(0, -1)).map(closer => closer['type']))
    }
    expect(edited).toBeGreaterThan(90)
    expect(edited).toBeLessThan(200)
    expect([...edits].sort()).toEqual(['cut and marked', 'ignorable boundaries', 'marker then ignorable', 'step after the last turn', 'steps shifted'])
  })

  it('leave an empty log as it is', () => {
    for (let seed = 1; seed <= 40; seed += 1) expect(withCrashTailEdit([], seed)).toBeUndefined()
  })
})
