// The repair and resume probes the fuzzer makes over valid logs edited where chapter 12's scan must read
// exactly what the spec says (conformance/fuzz/crash-tails.ts): one plan in two, each of the ten
// edits drawn (three of them in two forms: with a look-alike type or a paused turn/end, or not), with a
// last time of 0 or turns beyond 32 bits on top of some, every edited log one that load accepts.
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

/** Which edit made `events` from LOG, told from its shape (a tool/call named in the next step is made by two). */
function editOf(events: EventRecord[]): string {
  const last = events.at(-1)!
  const nextStep = (last['data'] as EventRecord)['step'] === 2 && events.length === 4
  if (last['type'] === 'acme/telemetry') return 'marker then ignorable'
  if (last['type'] === 'session/end-seed/v2') return 'marker then a look-alike marker'
  if (last['type'] === 'Turn/End') return 'ignorable boundaries and a look-alike turn/end'
  if (events.some(item => item['type'] === 'acme/telemetry')) return 'no step/start'
  if (last['type'] === 'step/start' && events.length === LOG.length + 1) {
    const reason = (events.at(-2)!['data'] as EventRecord)['reason']
    return JSON.stringify(reason) === '{"kind":"paused"}' ? 'step after a paused turn' : 'step after the last turn'
  }
  if (last['type'] === 'session/end-seed') return 'cut and marked'
  if (events.some(item => item['ignorable'] === true)) return 'ignorable boundaries'
  if (nextStep && last['type'] === 'step/end') return 'step/end of the next step'
  if (nextStep && last['type'] === 'tool/result') return 'result of the next step'
  if (nextStep && last['type'] === 'tool/call') return 'tool/call of the next step'
  if (last['type'] === 'assistant/message' && (last['data'] as EventRecord)['turn'] === 2) return 'message of the next turn'
  return 'steps shifted'
}

const TURN_SHIFT = 2 ** 31

/** The number edit drawn on top of the edit, told from the log, and the log without it (turns as LOG had them). */
function numbersEditOf(events: EventRecord[]): [string, EventRecord[]] {
  if (events.at(-1)!['time'] === 0) return ['last time 0', events]
  if (!events.some(item => ((item['data'] as EventRecord)['turn'] as number) > TURN_SHIFT)) return ['none', events]
  const unshifted = events.map(item => {
    const data = item['data'] as EventRecord
    return typeof data['turn'] === 'number' ? { ...item, data: { ...data, turn: data['turn'] - TURN_SHIFT } } : item
  })
  return ['turns beyond 32 bits', unshifted]
}

/** The type of each closer, with the step and call seq of a synthetic result. */
const shapeOf = (closer: EventRecord): string => (closer['type'] === 'tool/result'
  ? `tool/result step ${String((closer['data'] as EventRecord)['step'])} from ${JSON.stringify(closer['sourceEventSeqs'] ?? 'no call')}`
  : String(closer['type']))

// By hand, for each edit made at LOG's one message (chapter 12): a step/end of another step forgets the
// call (REPAIR-4), so only the turn/end is due; a result of another step answers it, so its step is
// closed and then its turn; a tool/call of another step starts it, so its result cites the call
// (REPAIR-8); with no step/start the call is still registered and answered, and no step/end is written
// (REPAIR-5); boundaries marked ignorable still close (UNK-4), so a cut after the step/end leaves only
// the turn open, and so does a `Turn/End` after them, which is an unknown type (types compare exactly:
// it closes nothing); a marker forgets no call (SEED-7), so the call, never started, is answered, then its
// step and turn closed; a message naming turn 2 registers its call all the same, and every closer names
// the open turn, 1 (REPAIR-8: only the step comes from the registration).
const CLOSERS_BY_EDIT: Record<string, string[]> = {
  'step/end of the next step': ['turn/end'],
  'result of the next step': ['step/end', 'turn/end'],
  'tool/call of the next step': ['tool/result step 1 from [3]', 'step/end', 'turn/end'],
  'no step/start': ['tool/result step 1 from "no call"', 'turn/end'],
  'ignorable boundaries': ['turn/end'],
  'ignorable boundaries and a look-alike turn/end': ['turn/end'],
  'cut and marked': ['tool/result step 1 from "no call"', 'step/end', 'turn/end'],
  'message of the next turn': ['tool/result step 1 from "no call"', 'step/end', 'turn/end'],
}

const closersOf = (events: unknown[]): EventRecord[] => {
  const repaired = reference.repair({ events })
  if (!repaired.ok) throw new Error(`repair rejected the edited log: ${repaired.error.code}`)
  return repaired.value.closers as unknown as EventRecord[]
}

describe('crash-tail edits', () => {
  it('are drawn for about one plan in two, each edit, over logs load accepts, and repaired as chapter 12 says', () => {
    const edits = new Set<string>()
    const numberEdits = new Map<string, number>()
    let edited = 0
    for (let seed = 1; seed <= 600; seed += 1) {
      const events = withCrashTailEdit(LOG, seed) as EventRecord[] | undefined
      if (events === undefined) continue
      edited += 1
      expect(reference.load({ events }).ok).toBe(true)
      const [numbers, unshifted] = numbersEditOf(events)
      numberEdits.set(numbers, (numberEdits.get(numbers) ?? 0) + 1)
      const edit = editOf(unshifted)
      edits.add(edit)
      // By hand: every closer takes the last event's time (REPAIR-6), 0 as any other, and names the open
      // turn (REPAIR-7, REPAIR-8), beyond 32 bits as any other.
      const closers = closersOf(events)
      if (numbers === 'last time 0') expect(closers.map(closer => closer['time'])).toEqual(closers.map(() => 0))
      if (numbers === 'turns beyond 32 bits') {
        const openTurn = (events.findLast(item => item['type'] === 'turn/start')?.['data'] as EventRecord | undefined)?.['turn']
        expect(closers.map(closer => (closer['data'] as EventRecord)['turn'])).toEqual(closers.map(() => openTurn))
        expect(openTurn).toBeGreaterThan(TURN_SHIFT)
      }
      // By hand: no turn is open after a step/start that follows the last turn/end (REPAIR-2), whatever
      // its reason kind (TURN-2 allows any string, and a turn/end closes its turn), nor after
      // a marker and a foreign event; resume then adds its marker after the foreign one (SEED-4), a
      // session/end-seed/v2 as any other foreign type.
      if (edit === 'step after the last turn' || edit === 'step after a paused turn') expect(closersOf(events)).toEqual([])
      if (edit in CLOSERS_BY_EDIT) expect(closersOf(events).map(shapeOf), edit).toEqual(CLOSERS_BY_EDIT[edit])
      if (edit === 'message of the next turn') {
        const turn = numbers === 'turns beyond 32 bits' ? 1 + TURN_SHIFT : 1
        expect(closers.map(closer => (closer['data'] as EventRecord)['turn'])).toEqual([turn, turn, turn])
      }
      if (edit === 'marker then ignorable' || edit === 'marker then a look-alike marker') {
        const resumed = reference.resume({ events, now: 9000 })
        expect(resumed.ok && resumed.value.at(-1)).toEqual({ type: 'session/end-seed', seq: LOG.length + 2, time: 9000, data: {} })
      }
    }
    expect(edited).toBeGreaterThan(240)
    expect(edited).toBeLessThan(360)
    // One edited log in eight each, and the last time is 0 only by that edit.
    expect(numberEdits.get('last time 0')).toBeGreaterThan(15)
    expect(numberEdits.get('turns beyond 32 bits')).toBeGreaterThan(15)
    expect(numberEdits.get('none')).toBeGreaterThan(edited / 2)
    expect([...edits].sort()).toEqual([
      'cut and marked', 'ignorable boundaries', 'ignorable boundaries and a look-alike turn/end', 'marker then a look-alike marker',
      'marker then ignorable', 'message of the next turn', 'no step/start', 'result of the next step',
      'step after a paused turn', 'step after the last turn', 'step/end of the next step', 'steps shifted', 'tool/call of the next step',
    ])
  })

  it('leave an empty log as it is', () => {
    for (let seed = 1; seed <= 40; seed += 1) expect(withCrashTailEdit([], seed)).toBeUndefined()
  })
})
