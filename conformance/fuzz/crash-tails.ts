// The repair and resume probes, one plan in four of those the uncloseable-call edit leaves, over a valid
// log in current shapes edited where the scan of chapter 12 reads exactly what the spec says: every
// step/end and turn/end marked ignorable (UNK-4: no effect); the step numbers of the assistant messages,
// the tool/call events or the tool/result events one higher (the scan reads no step but a message's,
// REPAIR-3, REPAIR-4); the log cut inside a turn and ended by a session/end-seed (SEED-7: it forgets no
// call); a step/start after a log that ends on a turn/end (REPAIR-2: no turn, no closers); or a marker
// and then an ignorable foreign event (SEED-4: only the very last event spares a marker). Each log
// still loads; the step numbers break relations, which the scan does not consult. The generators write
// none of these. Drawn from a seed of the run's plan, as the headerEquals pairs are (header-pairs.ts),
// so the fuzzer's other draws stay as they were and a shrunk log draws alike.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser } from '../generators/index.ts'
import { endsInOpenTurn } from './uncloseable-call-ids.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const CRASH_TAIL_SALT = 0x43525348

type EventRecord = Record<string, unknown>

const typeOf = (event: unknown): unknown => (isRecord(event) ? event['type'] : undefined)

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
 * cut needs a turn open at the cut, a step/start a log ending on a turn/end). Whether, which edit and
 * where to cut are drawn before any look at the log.
 */
export function withCrashTailEdit(events: readonly unknown[], planSeed: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, CRASH_TAIL_SALT)
  if (chooser.int(4) !== 0 || events.length === 0) return undefined
  const [edit, shift, cut] = [chooser.int(5), chooser.int(STEP_SHIFTS.length), chooser.int(1 << 30)]
  if (edit === 3) return withStepAfterLastTurn(events)
  if (edit === 4) return appended(appended(events, 'session/end-seed', {}), 'acme/telemetry', { note: 'after the marker' }, { ignorable: true })
  // The other edits matter only to an open turn: the log is cut, as a crash cuts it, where one is open.
  const kept = events.slice(0, 1 + (cut % events.length))
  if (!endsInOpenTurn(kept)) return undefined
  if (edit === 0) return kept.map(event => (typeOf(event) === 'step/end' || typeOf(event) === 'turn/end' ? { ...(event as EventRecord), ignorable: true } : event))
  if (edit === 1) return stepsShifted(kept, STEP_SHIFTS[shift]!)
  return appended(kept, 'session/end-seed', {})
}

/** The log followed by a step/start of the turn its last event, a turn/end, ended; undefined for a log ending otherwise. */
function withStepAfterLastTurn(events: readonly unknown[]): unknown[] | undefined {
  const last = events.at(-1)
  if (typeOf(last) !== 'turn/end' || !isRecord(last) || !isRecord(last['data'])) return undefined
  return appended(events, 'step/start', { turn: last['data']['turn'], step: 1 })
}
