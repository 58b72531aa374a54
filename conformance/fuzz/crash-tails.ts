// The repair and resume probes, one plan in two of those the uncloseable-call edit leaves, over a valid
// log in current shapes edited where the scan of chapter 12 reads exactly what the spec says: the log
// cut after a step/end inside a turn, every step/end and turn/end marked ignorable (UNK-4: they still
// close), one time in two followed by an ignorable `Turn/End` (an unknown type: types compare exactly,
// so the turn stays open); the log cut inside a turn with the step numbers of the assistant messages,
// the tool/call events or the tool/result events one higher (the scan reads no step but a message's,
// REPAIR-3, REPAIR-4); a step/start after a log that ends on a turn/end, one time in two of a reason
// kind no version names, "paused" (REPAIR-2: any turn/end closes its turn: no closers); or a marker and
// then an ignorable foreign event, one time in two typed `session/end-seed/v2` (SEED-4: only the very
// last event, of exactly that type, spares a marker). The other six cut the log just after an assistant message that calls tools, whose calls are then
// registered and unanswered, and end it with what the scan must read whatever step it names: a step/end
// of the next step (it forgets every call), the result of one of the calls or its tool/call, named in
// the next step (the result forgets the call, the tool/call starts it), or a session/end-seed (SEED-7:
// it forgets no call); or they leave the calls registered with no step open, the message's step/start
// replaced by an ignorable foreign event (REPAIR-5: their results are still written); or the message
// names the next turn (REPAIR-8: a synthetic result names the open turn all the same). One edited log
// in eight then gets a last event at time 0 (REPAIR-6: the closers take it, 0 as any other), and one in
// eight every turn number 2^31 higher (the closers name turns beyond 32 bits). Each log still loads;
// the step and turn numbers break relations, which the scan does not consult. The generators write none
// of these. Drawn from a seed of the run's plan, as the headerEquals pairs are (header-pairs.ts), so
// the fuzzer's other draws stay as they were and a shrunk log draws alike.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser } from '../generators/index.ts'
import { typeOf } from './record-edits.ts'
import { endsInOpenTurn } from './uncloseable-call-ids.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const CRASH_TAIL_SALT = 0x43525348

type EventRecord = Record<string, unknown>


/** The event with `change` applied to a copy of its data. */
function withData(event: EventRecord, change: (data: EventRecord) => EventRecord): EventRecord {
  return isRecord(event['data']) ? { ...event, data: change(event['data']) } : event
}

/** The events of the types in `types` with their data.step one higher (those whose step is a number). */
function stepsShifted(events: readonly unknown[], types: ReadonlySet<unknown>): unknown[] {
  return events.map(event => (isRecord(event) && types.has(event['type'])
    ? withData(event, data => (typeof data['step'] === 'number' ? { ...data, step: data['step'] + 1 } : data))
    : event))
}

/** An event appended after the log's last one, at the next seq and the last event's time. */
function appended(events: readonly unknown[], type: string, data: EventRecord, extra: EventRecord = {}): unknown[] {
  const last = events.at(-1) as EventRecord
  return [...events, { type, seq: events.length, time: last['time'], data, ...extra }]
}

const STEP_SHIFTS: readonly ReadonlySet<string>[] = [new Set(['assistant/message']), new Set(['tool/call']), new Set(['tool/result'])]

/**
 * The log edited as drawn, or undefined when the draw keeps it or the log does not suit the edit (a
 * cut needs a turn open at the cut, a step/start a log ending on a turn/end, the pending calls a message
 * with calls; see withCallsPending). Whether, which edit and where to cut are drawn before any look at
 * the log.
 */
export function withCrashTailEdit(events: readonly unknown[], planSeed: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, CRASH_TAIL_SALT)
  if (chooser.int(2) !== 0 || events.length === 0) return undefined
  const [edit, shift, cut, numbers] = [chooser.int(10), chooser.int(STEP_SHIFTS.length), chooser.int(1 << 30), chooser.int(8)]
  const edited = crashTail(events, edit, shift, cut, chooser.int(2) === 0)
  if (edited === undefined || numbers > 1) return edited
  return numbers === 0 ? withLastTimeZero(edited) : edited.map(event => withData(event as EventRecord, turnsBeyondInt32))
}

/** The log with its last event's time 0, which the closers take (ENV-5: a time says nothing of order). */
function withLastTimeZero(events: readonly unknown[]): unknown[] {
  return events.map((event, index) => (index === events.length - 1 && isRecord(event) ? { ...event, time: 0 } : event))
}

/** A turn number 2^31 higher, beyond what 32 bits hold: still a turn (TURN-1), and the closers name it. */
function turnsBeyondInt32(data: EventRecord): EventRecord {
  return typeof data['turn'] === 'number' ? { ...data, turn: data['turn'] + 2 ** 31 } : data
}

/**
 * The edit drawn as `edit` (with its step shift and cut, and whether it takes its second form: a
 * look-alike type, a paused turn/end), as withCrashTailEdit describes.
 */
function crashTail(events: readonly unknown[], edit: number, shift: number, cut: number, secondForm: boolean): unknown[] | undefined {
  if (edit === 2) return withStepAfterLastTurn(events, secondForm)
  if (edit === 3) {
    const marked = appended(events, 'session/end-seed', {})
    return appended(marked, secondForm ? 'session/end-seed/v2' : 'acme/telemetry', { note: 'after the marker' }, { ignorable: true })
  }
  if (edit >= 4) return withCallsPending(events, edit - 4, cut)
  // The other two matter only to an open turn: the log is cut, as a crash cuts it, where one is open
  // (the ignorable boundaries just after a step/end, where the step they close is the whole difference).
  const kept = edit === 0 ? cutAfterStepEnd(events, cut) : events.slice(0, 1 + (cut % events.length))
  if (kept === undefined || !endsInOpenTurn(kept)) return undefined
  if (edit !== 0) return stepsShifted(kept, STEP_SHIFTS[shift]!)
  const marked = kept.map(event => (typeOf(event) === 'step/end' || typeOf(event) === 'turn/end' ? { ...(event as EventRecord), ignorable: true } : event))
  return secondForm ? appended(marked, 'Turn/End', { turn: openTurnOf(marked), reason: { kind: 'completed' } }, { ignorable: true }) : marked
}

/** The turn number of the log's last turn/start. */
function openTurnOf(events: readonly unknown[]): unknown {
  const start = events.findLast(event => typeOf(event) === 'turn/start')
  return isRecord(start) && isRecord(start['data']) ? start['data']['turn'] : undefined
}

/** The log up to one of its step/end events, the `cut`-th modulo their count; undefined when it has none. */
function cutAfterStepEnd(events: readonly unknown[], cut: number): unknown[] | undefined {
  const stepEnds = events.flatMap((event, index) => (typeOf(event) === 'step/end' ? [index] : []))
  return stepEnds.length === 0 ? undefined : events.slice(0, stepEnds[cut % stepEnds.length]! + 1)
}

/** The string ids of the tool-call blocks of an assistant message event. */
function toolCallIds(event: unknown): string[] {
  const message = isRecord(event) && isRecord(event['data']) ? event['data']['message'] : undefined
  const content = isRecord(message) ? message['content'] : undefined
  return Array.isArray(content)
    ? content.flatMap(block => (isRecord(block) && block['type'] === 'tool-call' && typeof block['id'] === 'string' ? [block['id']] : []))
    : []
}

/** The call id a tool/call names, or a tool/result appended to the surface answers. */
function answeredOrStartedId(event: unknown): unknown {
  if (!isRecord(event) || !isRecord(event['data'])) return undefined
  if (event['type'] === 'tool/call') return event['data']['callId']
  const message = event['data']['message']
  const source = isRecord(message) ? message['source'] : undefined
  return event['type'] === 'tool/result' && event['surfaceOp'] === 'append' && isRecord(source) ? source['callId'] : undefined
}

/**
 * The log cut just after an assistant message with tool calls (the `cut`-th modulo their count), inside
 * its turn, and then, by `variant`: a step/end of the next step appended (0); the first later appended
 * tool/result (1) or tool/call (2) of one of its calls moved to the cut, naming the next step; the last
 * step/start before it replaced by an ignorable foreign event (3); a session/end-seed appended (4); or
 * the message's turn made one higher (5). Undefined when the log does not suit: no such message in an
 * open turn, no such later event, no step/start in the message's turn.
 */
function withCallsPending(events: readonly unknown[], variant: number, cut: number): unknown[] | undefined {
  const messages = events.flatMap((event, index) => (typeOf(event) === 'assistant/message' && toolCallIds(event).length > 0 ? [index] : []))
  if (messages.length === 0) return undefined
  const index = messages[cut % messages.length]!
  const kept = events.slice(0, index + 1)
  const message = kept[index] as EventRecord
  const data = message['data'] as EventRecord
  if (!endsInOpenTurn(kept) || typeof data['step'] !== 'number') return undefined
  const nextStep = data['step'] + 1
  if (variant === 0) return appended(kept, 'step/end', { turn: data['turn'], step: nextStep })
  if (variant === 3) return withStepStartForeign(kept)
  if (variant === 4) return appended(kept, 'session/end-seed', {})
  if (variant === 5) {
    return typeof data['turn'] === 'number' ? [...kept.slice(0, index), { ...message, data: { ...data, turn: data['turn'] + 1 } }] : undefined
  }
  const ids = new Set<unknown>(toolCallIds(message))
  const type = variant === 1 ? 'tool/result' : 'tool/call'
  const later = events.slice(index + 1).find(event => typeOf(event) === type && ids.has(answeredOrStartedId(event))) as EventRecord | undefined
  if (later === undefined) return undefined
  return [...kept, withData({ ...later, seq: kept.length, time: message['time'] }, moved => ({ ...moved, step: nextStep }))]
}

/** A foreign event marked ignorable, at `event`'s seq and time (UNK-4: it changes nothing the scan reads). */
function foreignInPlaceOf(event: unknown): EventRecord {
  const { seq, time } = event as EventRecord
  return { type: 'acme/telemetry', seq, time, data: { note: 'in place of a step/start' }, ignorable: true }
}

/** The log with its last step/start after its last turn/start replaced by an ignorable foreign event; undefined when there is none. */
function withStepStartForeign(events: readonly unknown[]): unknown[] | undefined {
  const turnStart = events.findLastIndex(event => typeOf(event) === 'turn/start')
  const stepStart = events.findLastIndex(event => typeOf(event) === 'step/start')
  if (stepStart < turnStart) return undefined
  return events.map((event, index) => (index === stepStart ? foreignInPlaceOf(event) : event))
}

/**
 * The log followed by a step/start of the turn its last event, a turn/end, ended, that turn/end's
 * reason made `{"kind":"paused"}` when `pausedEnd`; undefined for a log ending otherwise.
 */
function withStepAfterLastTurn(events: readonly unknown[], pausedEnd: boolean): unknown[] | undefined {
  const last = events.at(-1)
  if (typeOf(last) !== 'turn/end' || !isRecord(last) || !isRecord(last['data'])) return undefined
  const ended = pausedEnd ? [...events.slice(0, -1), { ...last, data: { ...last['data'], reason: { kind: 'paused' } } }] : events
  return appended(ended, 'step/start', { turn: last['data']['turn'], step: 1 })
}
