// Known-bad adapters from a planted-bug review of `repair` and `resume` (chapters 12 and 11; bugs planted
// in a second implementation, each passed every repair vector then): a scan rule read one step off
// REPAIR-2 to REPAIR-5 (a boundary or call that reads a step number, an ignorable marker honoured, a
// closing condition), and a resume that looks at the wrong event, header or vocabulary. A scan bug is a
// port's scan, the reference's rules with the bug's in place of one, whose end state gets the closers
// the reference writes for it; resume is then the loaded events, those closers and the marker (SEED-10).
import { repairClosers } from '../../reference/repair.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { endSeedMarker } from '../../reference/seeds.ts'
import { messageOf } from '../../reference/vocabulary.ts'
import { accepted, dataOf, isRecord, loadedEvents, ref, type Input, type KnownBad, type Patch, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>
type Closers = { closers: EventRecord[] }

/** A registered call: the step its message named (undefined: no step member) and its tool/call's seq, if any. */
type Call = { step: unknown; callSeq?: number }

/** A repair scan after some events: the open turn and step (null: none) and the registered calls in map order. */
export interface Scan { turn: unknown; step: unknown; calls: Map<unknown, Call> }

/** How a scan applies an event of one type. */
export type Rule = (scan: Scan, event: EventRecord) => void

/** `value[name]` when `value` is an object, else undefined. */
const memberAt = (value: unknown, name: string): unknown => (isRecord(value) ? value[name] : undefined)

/** The content blocks of an event's message, in order (none when it has no content array). */
export function contentBlocks(event: EventRecord): unknown[] {
  const content = memberAt(messageOf(event['type'], event['data']), 'content')
  return Array.isArray(content) ? content : []
}

/** The ids of an assistant message's tool-call blocks, in order (REPAIR-3). */
export function toolCallIds(event: EventRecord): unknown[] {
  return contentBlocks(event).filter(block => memberAt(block, 'type') === 'tool-call').map(block => memberAt(block, 'id'))
}

/** The call id a tool/result answers. */
const answeredId = (event: EventRecord): unknown => memberAt(memberAt(messageOf(event['type'], event['data']), 'source'), 'callId')

/** A turn boundary: `turn` open (null: none), no step open, no call registered. */
function opened(scan: Scan, turn: unknown): void {
  scan.turn = turn
  scan.step = null
  scan.calls.clear()
}

/** REPAIR-2 to REPAIR-4, type by type, as the reference's scan reads them. */
export const RULES: Record<string, Rule> = {
  'turn/start': (scan, event) => opened(scan, dataOf(event)['turn']),
  'turn/end': scan => opened(scan, null),
  'step/start': (scan, event) => { scan.step = dataOf(event)['step'] },
  'step/end': scan => {
    scan.step = null
    scan.calls.clear()
  },
  'assistant/message': (scan, event) => { for (const id of toolCallIds(event)) scan.calls.set(id, { step: dataOf(event)['step'] }) },
  'tool/call': (scan, event) => {
    const call = scan.calls.get(dataOf(event)['callId'])
    if (call !== undefined) call.callSeq = event['seq'] as number
  },
  'tool/result': (scan, event) => { scan.calls.delete(answeredId(event)) },
}

/** A port's scan: the reference's rules with `rules` in their place, over the events `reads` keeps; what it closes at the end (undefined: nothing). */
export interface Port {
  rules?: Record<string, Rule>
  reads?: (event: EventRecord) => boolean
  closes?: (scan: Scan, events: EventRecord[]) => Scan | undefined
}

/** REPAIR-2: the open turn is closed, with its step and calls; no open turn, no closers. */
const closesOpenTurn = (scan: Scan): Scan | undefined => (scan.turn === null ? undefined : scan)

/** A log whose reference scan ends as `scan` does (turn 0 standing for its open turn), its last event at `last`'s seq and time. */
function logEndingAs(scan: Scan, last: EventRecord): SessionEvent[] {
  const event = (type: string, data: EventRecord, seq = 0): EventRecord => ({ type, seq, time: 0, data })
  return [
    event('turn/start', { turn: 0 }),
    ...(scan.step === null ? [] : [event('step/start', { step: scan.step })]),
    ...[...scan.calls].flatMap(([id, call]) => [
      event('assistant/message', { ...(call.step === undefined ? {} : { step: call.step }), message: { content: [{ type: 'tool-call', id }] } }),
      ...(call.callSeq === undefined ? [] : [event('tool/call', { callId: id }, call.callSeq)]),
    ]),
    { type: 'x-known-bad/last', seq: last['seq'], time: last['time'], data: {} },
  ] as unknown as SessionEvent[]
}

/** The closers the reference writes (REPAIR-5 to REPAIR-9) for a scan that ended as `scan` after the event `last`. */
function closersFor(scan: Scan, last: EventRecord): EventRecord[] {
  return repairClosers(logEndingAs(scan, last)).map(closer => ({ ...closer, data: { ...dataOf(closer), turn: scan.turn } }))
}

/** The port's scan of loaded events, as it stands at their end. */
export function scanned(events: EventRecord[], port: Port = {}): Scan {
  const rules = { ...RULES, ...port.rules }
  const scan: Scan = { turn: null, step: null, calls: new Map() }
  for (const event of events.filter(port.reads ?? (() => true))) rules[event['type'] as string]?.(scan, event)
  return scan
}

/** repair as the port computes it: its scan's closers, or the fault load reports for the log followed by them (REPAIR-13). */
function portRepair(port: Port): SyncOperation {
  return input => {
    const events = loadedEvents(input)
    if (events === undefined || events.length === 0) return ref.repair(input)
    const scan = scanned(events, port)
    const closed = (port.closes ?? closesOpenTurn)(scan, events)
    const closers = closed === undefined ? [] : closersFor(closed, events.at(-1)!)
    const repaired = ref.load({ ...input, events: [...events, ...closers] })
    return repaired.ok ? accepted({ closers }) : repaired
  }
}

/** SEED-4 as the reference reads it: a seed whose last event is a session/end-seed is marked already. */
const lastIsMarker = (seed: EventRecord[]): boolean => seed.at(-1)?.['type'] === 'session/end-seed'

/** resume over `repair`'s closers (SEED-10): the loaded events, the closers, then a marker at `now` unless `marked` finds the seed marked. */
export function resumeWith(repair: SyncOperation, marked = lastIsMarker): SyncOperation {
  return input => {
    const events = loadedEvents(input)
    const result = events === undefined ? ref.resume(input) : repair(input)
    if (!result.ok) return result
    const seed = [...events!, ...(result.value as Closers).closers]
    return accepted(marked(seed) ? seed : [...seed, endSeedMarker(seed.length, input['now'] as number)])
  }
}

/** repair and resume, both with the port's scan. */
export function scanPatch(port: Port): Patch {
  const repair = portRepair(port)
  return { repair, resume: resumeWith(repair) }
}

/** Not marked ignorable. */
export const notIgnorable = (event: EventRecord): boolean => event['ignorable'] !== true

/**
 * Closers are written when a turn or a step is open at the end of the scan; they name the last turn
 * started, as a port that keeps the turn number past its turn/end and a flag for whether it is open.
 */
const closesTurnOrStep = (scan: Scan, events: EventRecord[]): Scan | undefined => {
  if (scan.turn === null && scan.step === null) return undefined
  return scan.turn !== null ? scan : { ...scan, turn: dataOf(events.findLast(event => event['type'] === 'turn/start'))['turn'] }
}

/** A step/end forgets only the calls registered under its own step number. */
const stepEndForgetsItsStep: Rule = (scan, event) => {
  scan.step = null
  for (const [id, call] of scan.calls) if (call.step === dataOf(event)['step']) scan.calls.delete(id)
}

/** A tool/result removes its call only when the call was registered under the result's step. */
const resultAnswersItsStep: Rule = (scan, event) => {
  if (scan.calls.get(answeredId(event))?.step === dataOf(event)['step']) scan.calls.delete(answeredId(event))
}

/** A tool/call sets the call seq only when its step is the registered one, as a map keyed by step and id. */
const callStartsItsStep: Rule = (scan, event) => {
  const call = scan.calls.get(dataOf(event)['callId'])
  if (call !== undefined && call.step === dataOf(event)['step']) call.callSeq = event['seq'] as number
}

/** Synthetic results are written only inside an open step; with none, the calls still registered are dropped. */
const resultsInOpenStep = (scan: Scan): Scan | undefined =>
  (scan.turn === null ? undefined : scan.step === null ? { ...scan, calls: new Map() } : scan)

/** A session/end-seed empties the registered calls, as a boundary would. */
const endSeedForgets: Rule = scan => scan.calls.clear()

/** repair with every closer stamped with the time of the last event not marked ignorable (the last event's, when all are). */
const timeOfLastNonIgnorable: SyncOperation = input => {
  const result = ref.repair(input)
  const events = loadedEvents(input)
  if (!result.ok || events === undefined) return result
  const time = (events.findLast(notIgnorable) ?? events.at(-1))?.['time']
  return accepted({ closers: (result.value as Closers).closers.map(closer => ({ ...closer, time })) })
}

/** A seed taken as marked when a session/end-seed follows its last turn/end (anywhere, when it has none). */
const markerAfterLastTurnEnd = (seed: EventRecord[]): boolean =>
  seed.slice(seed.findLastIndex(event => event['type'] === 'turn/end') + 1).some(event => event['type'] === 'session/end-seed')

/** A seed taken as marked when its last event not marked ignorable is a session/end-seed. */
const lastNonIgnorableIsMarker = (seed: EventRecord[]): boolean => seed.findLast(notIgnorable)?.['type'] === 'session/end-seed'

/** An operation run over its input without the member `name`. */
function without(name: string, operation: SyncOperation): SyncOperation {
  return input => {
    const { [name]: _dropped, ...rest }: Input = input
    return operation(rest)
  }
}

export const REPAIR_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'repair-closes-an-open-step-without-a-turn',
    bug: 'closers are written when a turn or a step is open at the end of the scan',
    caughtBy: ['repair-open-step-without-open-turn'],
    patch: scanPatch({ closes: closesTurnOrStep }),
  },
  {
    name: 'repair-skips-ignorable-events',
    bug: 'the repair scan skips events marked ignorable, so an ignorable step/end or turn/end closes nothing',
    caughtBy: ['repair-ignorable-boundaries-still-count'],
    patch: scanPatch({ reads: notIgnorable }),
  },
  {
    name: 'repair-time-of-last-non-ignorable',
    bug: 'the closers take the time of the last event not marked ignorable',
    caughtBy: ['repair-time-of-a-trailing-ignorable-event', 'repair-ignorable-boundaries-still-count'],
    patch: { repair: timeOfLastNonIgnorable, resume: resumeWith(timeOfLastNonIgnorable) },
  },
  {
    name: 'repair-step-end-forgets-its-step-only',
    bug: 'a step/end forgets only the calls registered under its own step number',
    caughtBy: ['repair-step-end-forgets-calls-of-any-step', 'repair-step-end-of-another-step'],
    patch: scanPatch({ rules: { 'step/end': stepEndForgetsItsStep } }),
  },
  {
    name: 'repair-result-answers-its-step-only',
    bug: "a tool/result removes its call only when the call was registered under the result's step",
    caughtBy: ['repair-result-of-another-step-forgets', 'repair-replacement-result-forgets'],
    patch: scanPatch({ rules: { 'tool/result': resultAnswersItsStep } }),
  },
  {
    name: 'repair-call-starts-its-step-only',
    bug: 'a tool/call sets the call seq only when its step is the step the call was registered under',
    caughtBy: ['repair-call-of-another-step-starts'],
    patch: scanPatch({ rules: { 'tool/call': callStartsItsStep } }),
  },
  {
    name: 'repair-results-only-in-an-open-step',
    bug: 'synthetic results are written only when a step is open at the end of the scan',
    caughtBy: ['repair-calls-without-an-open-step'],
    patch: scanPatch({ closes: resultsInOpenStep }),
  },
  {
    name: 'repair-end-seed-forgets-calls',
    bug: 'a session/end-seed empties the registered calls',
    caughtBy: ['seed-marker-inside-a-step-keeps-its-calls'],
    patch: scanPatch({ rules: { 'session/end-seed': endSeedForgets } }),
  },
  {
    name: 'resume-marker-after-last-turn-end',
    bug: 'resume writes no marker when a session/end-seed follows the last turn/end, whatever the last event is',
    caughtBy: ['seed-resume-marker-then-another-event'],
    patch: { resume: resumeWith(ref.repair, markerAfterLastTurnEnd) },
  },
  {
    name: 'resume-marker-skips-trailing-ignorable',
    bug: 'resume decides whether a marker is due from the last event not marked ignorable',
    caughtBy: ['seed-resume-marker-then-another-event', 'seed-resume-odd-marker-still-last'],
    patch: { resume: resumeWith(ref.repair, lastNonIgnorableIsMarker) },
  },
  {
    name: 'resume-without-header',
    bug: 'resume loads the log without its header input, so legacy ids use the empty session id',
    caughtBy: ['seed-resume-legacy-ids-from-the-header'],
    patch: { resume: without('header', ref.resume) },
  },
  {
    name: 'repair-resume-default-vocabulary',
    bug: 'repair and resume load the log with the default vocabulary, whatever the vocabulary input says',
    caughtBy: ['seed-repair-and-resume-take-the-vocabulary'],
    patch: { repair: without('vocabulary', ref.repair), resume: without('vocabulary', ref.resume) },
  },
]
