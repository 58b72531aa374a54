// The relations probe, one plan in four, over a valid log in current shapes edited where a port's
// relation checks are looser or stricter than the spec's: a step-scoped tool/call, tool/result or
// step/end naming the next turn with the right step (TURN-8 compares both numbers); a bracket's
// compaction ids spelled with a precomposed letter, and one of its summaries or ends with the
// decomposed spelling (COMP-4: ids equal by code unit); a summary's shadowedTokenCount of 2^53 or 0
// (COMP-5: a safe integer, 0 included); a compaction event's data of null (chapter 13: no members,
// COMPACTION_ID_INVALID); a standalone compaction/start, and its end, owned by the turn that ended just
// before it (COMP-3: a numbered owner needs that turn open); a compaction/start whose compactionId is a
// number, or a start, end or checkpoint whose sourceCommandId is empty (COMP-1); a tool/call, result or
// step/end naming the next turn and also marked ignorable (UNK-4: a known type is read as any other); a
// summary made a prune (COMP-6: no summary) or a nested start with an empty sourceCommandId (COMP-11:
// COMP-1 before COMP-2); a summary repeated just after itself (COMP-5: one per bracket). Each log still
// loads (load checks none of these). The generators' operators break relations in other ways. Drawn
// from a seed of the run's plan, as the headerEquals pairs are (header-pairs.ts), so the fuzzer's other
// draws stay as they were and a shrunk log draws alike.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser, type Chooser, type LogEvent } from '../generators/index.ts'
import { insertEvent } from '../generators/log-edit.ts'
import { atOneOf, indexesWhere, typeOf } from './record-edits.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const RELATION_EDIT_SALT = 0x52454c53

type EventRecord = Record<string, unknown>
type LogEdit = (events: readonly unknown[], chooser: Chooser) => unknown[] | undefined

const COMPACTION_TYPES = new Set(['compaction/start', 'compaction/summary', 'compaction/end', 'compaction/prune'])
const TURN_SCOPED_BY_BOTH = new Set(['tool/call', 'step/end'])

const dataOf = (event: unknown): EventRecord => (isRecord(event) && isRecord(event['data']) ? event['data'] : {})

/** The event with its data's members `changes` names set. */
const withData = (event: EventRecord, changes: EventRecord): EventRecord => ({ ...event, data: { ...dataOf(event), ...changes } })

/**
 * A tool/call, an appended tool/result or a step/end naming the next turn, its step kept (TURN-8); one
 * time in three also marked ignorable, which a known type reads as any other (UNK-4).
 */
const nextTurnNamed: LogEdit = (events, chooser) => {
  const marked = chooser.int(3) === 0
  const scoped = indexesWhere(events, event => TURN_SCOPED_BY_BOTH.has(typeOf(event) as string)
    || (typeOf(event) === 'tool/result' && isRecord(event) && event['surfaceOp'] === 'append'))
  return atOneOf(events, scoped, chooser, event => {
    const turn = dataOf(event)['turn']
    if (typeof turn !== 'number') return event
    const named = withData(event, { turn: turn + 1 })
    return marked ? { ...named, ignorable: true } : named
  })
}

/** The compaction id an event names: a compaction event's, or a checkpoint's source's. */
function compactionIdOf(event: unknown): unknown {
  if (COMPACTION_TYPES.has(typeOf(event) as string)) return dataOf(event)['compactionId']
  const source = dataOf(event)['source']
  return typeOf(event) === 'user/message' && isRecord(source) ? source['compactionId'] : undefined
}

/** The event with the compaction id it names replaced by `id`. */
function withCompactionId(event: EventRecord, id: string): EventRecord {
  if (COMPACTION_TYPES.has(typeOf(event) as string)) return withData(event, { compactionId: id })
  return withData(event, { source: { ...(dataOf(event)['source'] as EventRecord), compactionId: id } })
}

/**
 * Every event of one compaction id spelled with "é" precomposed (U+00E9) after it, and then one of its
 * summaries or ends with "e" and a combining acute (U+0065 U+0301): another string (COMP-4, JSON-14).
 */
const idsNormalizingAlike: LogEdit = (events, chooser) => {
  const ids = [...new Set(events.map(compactionIdOf).filter((id): id is string => typeof id === 'string'))]
  if (ids.length === 0) return undefined
  const id = ids[chooser.int(ids.length)]!
  const renamed = events.map(event => (compactionIdOf(event) === id ? withCompactionId(event as EventRecord, `${id}\u00e9`) : event))
  const closing = indexesWhere(renamed, event => (typeOf(event) === 'compaction/summary' || typeOf(event) === 'compaction/end') && compactionIdOf(event) === `${id}\u00e9`)
  return atOneOf(renamed, closing, chooser, event => withCompactionId(event, `${id}e\u0301`))
}

/** The indexes of the log's summaries. */
const summaries = (events: readonly unknown[]): number[] => indexesWhere(events, event => typeOf(event) === 'compaction/summary')

/** A summary's shadowedTokenCount set to `tokens`. */
const tokensSetTo = (tokens: number): LogEdit => (events, chooser) =>
  atOneOf(events, summaries(events), chooser, event => withData(event, { shadowedTokenCount: tokens }))

/** A compaction/start whose compactionId is the number 7: no string (COMP-1), so it opens no bracket. */
const idNumber: LogEdit = (events, chooser) =>
  atOneOf(events, indexesWhere(events, event => typeOf(event) === 'compaction/start'), chooser, event => withData(event, { compactionId: 7 }))

/** A compaction start or end, or a checkpoint's source, whose sourceCommandId is empty (COMP-1: when present, a non-empty string). */
const commandIdEmpty: LogEdit = (events, chooser) =>
  atOneOf(events, indexesWhere(events, event => compactionIdOf(event) !== undefined && typeOf(event) !== 'compaction/summary' && typeOf(event) !== 'compaction/prune'), chooser,
    event => (typeOf(event) === 'user/message'
      ? withData(event, { source: { ...(dataOf(event)['source'] as EventRecord), sourceCommandId: '' } })
      : withData(event, { sourceCommandId: '' })))

/** A compaction event whose data is null: it names no compaction id (chapter 13, COMP-1). */
const dataNull: LogEdit = (events, chooser) =>
  atOneOf(events, indexesWhere(events, event => COMPACTION_TYPES.has(typeOf(event) as string)), chooser, event => ({ ...event, data: null }))

/** The index of the last turn/start or turn/end before `index`, or -1. */
const lastTurnEventBefore = (events: readonly unknown[], index: number): number =>
  events.slice(0, index).findLastIndex(event => typeOf(event) === 'turn/start' || typeOf(event) === 'turn/end')

/**
 * A standalone compaction/start made after a turn ended and before the next began, and the first
 * compaction/end of its id after it, owned by that ended turn; or, drawn as often as each such start,
 * a compaction/start owned by the last turn appended to a log that ends between turns (COMP-3: no turn
 * is open, so the owner mismatches).
 */
const ownedByEndedTurn: LogEdit = (events, chooser) => {
  const starts = indexesWhere(events, event => typeOf(event) === 'compaction/start' && dataOf(event)['turn'] === null)
    .filter(index => typeOf(events[lastTurnEventBefore(events, index)]) === 'turn/end')
  const start = starts[chooser.int(starts.length + 1)]
  if (start === undefined) return withStartAfterLastTurn(events)
  const turn = dataOf(events[lastTurnEventBefore(events, start)])['turn']
  const id = dataOf(events[start])['compactionId']
  const end = events.findIndex((event, index) => index > start && typeOf(event) === 'compaction/end' && dataOf(event)['compactionId'] === id)
  return events.map((event, index) => (index === start || index === end ? withData(event as EventRecord, { turn }) : event))
}

/** The log followed by a compaction/start owned by its last turn, when that turn has ended; else undefined. */
function withStartAfterLastTurn(events: readonly unknown[]): unknown[] | undefined {
  const lastTurnEvent = events[lastTurnEventBefore(events, events.length)]
  const last = events.at(-1)
  if (typeOf(lastTurnEvent) !== 'turn/end' || !isRecord(last) || typeof last['seq'] !== 'number') return undefined
  const data = { compactionId: 'cmp-after-turn', turn: dataOf(lastTurnEvent)['turn'] }
  return [...events, { type: 'compaction/start', seq: last['seq'] + 1, time: last['time'], data }]
}

/** The summary made a compaction/prune of the same range, seqs and token count: a prune is no summary (COMP-6, COMP-13). */
function asPrune(event: EventRecord): EventRecord {
  const { shadowedRange, shadowedSeqs, shadowedTokenCount } = dataOf(event)
  return { ...event, type: 'compaction/prune', data: { shadowedRange, shadowedSeqs, shadowedTokenCount } }
}

/**
 * The summary at `index` made a nested compaction/start of another id, owned as its bracket is, with an
 * empty sourceCommandId: COMP-11 checks the start's sourceCommandId (COMP-1) before COMP-2.
 */
function asNestedStart(events: readonly unknown[], event: EventRecord, index: number): EventRecord {
  const id = dataOf(event)['compactionId']
  const start = events.slice(0, index).findLast(earlier => typeOf(earlier) === 'compaction/start' && dataOf(earlier)['compactionId'] === id)
  const data = { compactionId: 'cmp-nested', sourceCommandId: '', turn: start === undefined ? null : dataOf(start)['turn'] }
  return { ...event, type: 'compaction/start', data }
}

/** A summary made a prune, or a nested start (drawn as often). */
const summaryReplaced: LogEdit = (events, chooser) => {
  const prune = chooser.int(2) === 0
  return atOneOf(events, summaries(events), chooser, (event, index) => (prune ? asPrune(event) : asNestedStart(events, event, index)))
}

/** A summary copied just after itself, the later seqs shifted: a bracket's second summary (COMP-5). */
const summaryRepeated: LogEdit = (events, chooser) => {
  const found = summaries(events)
  if (found.length === 0) return undefined
  const index = found[chooser.int(found.length)]!
  const summary = events[index] as LogEvent
  return insertEvent(events as LogEvent[], index + 1, { type: summary.type, data: summary.data })
}

// A count of 2^53 is an integer past the safe ones, 0 a safe one (COMP-5).
const EDITS: readonly LogEdit[] = [
  nextTurnNamed, idsNormalizingAlike, tokensSetTo(2 ** 53), dataNull, ownedByEndedTurn, tokensSetTo(0), idNumber, commandIdEmpty, summaryReplaced,
  summaryRepeated,
]

/**
 * The log edited as drawn, or undefined when the draw keeps it or the log holds nothing the edit
 * changes. Whether and which edit is drawn before any look at the log.
 */
export function withRelationEdit(events: readonly unknown[], planSeed: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, RELATION_EDIT_SALT)
  if (chooser.int(4) !== 0) return undefined
  return EDITS[chooser.int(EDITS.length)]!(events, chooser)
}
