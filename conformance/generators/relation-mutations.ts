// Mutation operators that keep a log loadable but break one relation (spec chapters 09, 10 and 13).
// The events before the fault are untouched, so the fault is the first violation `relations` lists
// (PROC-7); inserted or removed events shift every later seq (log-edit.ts), so nothing else moves.
import { cloneEvents, insertEvent, isReferenced, removeEvent } from './log-edit.ts'
import { INHERITED_NAMES, type JsonObject, type LogEvent } from './events.ts'
import {
  dataOf, defineMutation, indexesWhere, isCheckpoint, isExemptResult, messageOf, replaceOf, rewrittenSeqs, staleStarts, type LogInput, type Mutation,
} from './mutation-kit.ts'

function changed(events: readonly LogEvent[], index: number, change: (event: LogEvent) => void): LogEvent[] {
  const copy = cloneEvents(events)
  change(copy[index]!)
  return copy
}

const isTurnBoundary = (event: LogEvent): boolean => event.type === 'turn/start' || event.type === 'turn/end'
const isCompactionEvent = (event: LogEvent): boolean => event.type.startsWith('compaction/') || isCheckpoint(event)

/** The index of the first event after `index` that `match` accepts, or -1. */
function nextIndex(events: readonly LogEvent[], index: number, match: (event: LogEvent) => boolean): number {
  return events.findIndex((event, at) => at > index && match(event))
}

/** The positions (0..length) at which no turn is open. */
function positionsOutsideTurns(events: readonly LogEvent[]): number[] {
  const positions = [0]
  let open = false
  events.forEach((event, index) => {
    if (event.type === 'turn/start') open = true
    if (event.type === 'turn/end') open = false
    if (!open) positions.push(index + 1)
  })
  return positions
}

/** The start of the bracket an event at `index` sits in (by position, COMP-16), or -1. */
function bracketStart(events: readonly LogEvent[], index: number): number {
  for (let at = index - 1; at >= 0; at--) {
    const type = events[at]!.type
    if (type === 'compaction/start') return at
    if (type === 'compaction/end' || type === 'session/end-seed') return -1
  }
  return -1
}

/** Results the reference pairs with a pending call: append-origin, not exempt (PAIR-5), not rewritten later. */
function pairedResults(log: LogInput): number[] {
  const rewritten = rewrittenSeqs(log.events)
  return indexesWhere(log.events, event => event.type === 'tool/result' && event.surfaceOp === 'append' && !isExemptResult(event) && !rewritten.has(event.seq))
}

/** The events with the result at `index` answering `callId` instead (both places VOC-13 keeps equal). */
function answering(events: readonly LogEvent[], index: number, callId: (answered: string) => string): LogEvent[] {
  return changed(events, index, event => {
    const message = messageOf(event)
    const id = callId(String((message['source'] as JsonObject)['callId']))
    ;(message['source'] as JsonObject)['callId'] = id
    ;(message['content'] as JsonObject[])[0]!['toolCallId'] = id
  })
}

export const orphanResult = defineMutation({
  name: 'orphan-result', code: 'TOOL_RESULT_ORPHAN', operation: 'relations', rule: 'PAIR-2',
  targets: pairedResults,
  edit: (log, index) => ({ events: answering(log.events, index, answered => `${answered}-never-called`), seq: index }),
})

/**
 * A result answering an id no call of the log has, that a careless pending set confuses with one: a
 * name a plain object inherits, or the answered id after Unicode normalization or case folding (when
 * that changes it). PAIR-8 compares call ids as exact strings.
 */
export const orphanLookalikeResult = defineMutation({
  name: 'orphan-lookalike-result', code: 'TOOL_RESULT_ORPHAN', operation: 'relations', rule: 'PAIR-8',
  targets: pairedResults,
  edit(log, index, chooser) {
    const called = new Set(log.events.filter(event => event.type === 'tool/call').map(event => dataOf(event)['callId']))
    const lookalike = (answered: string): string => {
      const twins = [answered.normalize('NFD'), answered.normalize('NFC'), answered.normalize('NFKC'), answered.toUpperCase(), answered.toLowerCase()]
      const candidates = [...INHERITED_NAMES, 'hasOwnProperty', ...twins].filter(id => id !== answered && !called.has(id))
      return candidates.length > 0 ? candidates[chooser.int(candidates.length)]! : `${answered}-never-called`
    }
    return { events: answering(log.events, index, lookalike), seq: index }
  },
})

export const secondBracket = defineMutation({
  name: 'second-bracket', code: 'COMPACTION_ALREADY_OPEN', operation: 'relations', rule: 'COMP-2',
  targets: log => indexesWhere(log.events, event => event.type === 'compaction/start'),
  edit(log, index) {
    const owner = dataOf(log.events[index]!)['turn'] ?? null
    return { events: insertEvent(log.events, index + 1, { type: 'compaction/start', data: { compactionId: 'cmp-second', turn: owner } }), seq: index + 1 }
  },
})

/** Events that no relation constrains while a turn is open and no step or bracket is. */
function isNeutralBetweenTurns(event: LogEvent): boolean {
  if (event.type === 'user/message') return replaceOf(event) === undefined
  return !isTurnBoundary(event) && !isCompactionEvent(event) && !['request/header', 'request/context', 'todo/write', 'step/start', 'step/end'].includes(event.type)
    && !['assistant/message', 'assistant/chunk', 'tool/call', 'tool/result'].includes(event.type)
}

export const dropTurnEnd = defineMutation({
  name: 'drop-turn-end', code: 'TURN_ALREADY_OPEN', operation: 'relations', rule: 'TURN-5',
  targets: log => indexesWhere(log.events, (event, index) => {
    if (event.type !== 'turn/end' || isReferenced(log.events, index)) return false
    const next = nextIndex(log.events, index, isTurnBoundary)
    return next > 0 && log.events[next]!.type === 'turn/start' && log.events.slice(index + 1, next).every(isNeutralBetweenTurns)
  }),
  edit(log, index) {
    const next = nextIndex(log.events, index, isTurnBoundary)
    return { events: removeEvent(log.events, index), seq: next - 1 }
  },
})

export const skipTurnNumber = defineMutation({
  name: 'skip-turn-number', code: 'TURN_NUMBER_INVALID', operation: 'relations', rule: 'TURN-4',
  targets: log => indexesWhere(log.events, event => event.type === 'turn/start'),
  edit(log, index, chooser) {
    const events = changed(log.events, index, event => { dataOf(event)['turn'] = (dataOf(event)['turn'] as number) + 1 + chooser.int(3) })
    return { events, seq: index }
  },
})

export const skipStepNumber = defineMutation({
  name: 'skip-step-number', code: 'STEP_NUMBER_INVALID', operation: 'relations', rule: 'TURN-7',
  targets: log => indexesWhere(log.events, event => event.type === 'step/start'),
  edit: (log, index) => ({ events: changed(log.events, index, event => { dataOf(event)['step'] = (dataOf(event)['step'] as number) + 1 }), seq: index }),
})

const STEP_SCOPED = new Set(['step/end', 'assistant/chunk', 'assistant/message', 'tool/call'])

export const stepMismatch = defineMutation({
  name: 'step-mismatch', code: 'STEP_MISMATCH', operation: 'relations', rule: 'TURN-8',
  targets(log) {
    const rewritten = rewrittenSeqs(log.events)
    return indexesWhere(log.events, event => STEP_SCOPED.has(event.type)
      || (event.type === 'tool/result' && event.surfaceOp === 'append' && !rewritten.has(event.seq)))
  },
  edit(log, index, chooser) {
    const member = chooser.int(2) === 0 ? 'turn' : 'step'
    const events = changed(log.events, index, event => { dataOf(event)[member] = (dataOf(event)[member] as number) + 1 })
    return { events, seq: index }
  },
})

export const recordOutsideTurn = defineMutation({
  name: 'record-outside-turn', code: 'TURN_NOT_OPEN', operation: 'relations', rule: 'TURN-9',
  targets: log => positionsOutsideTurns(log.events),
  edit(log, position, chooser) {
    const records: Pick<LogEvent, 'type' | 'data'>[] = [
      { type: 'request/header', data: { header: { config: { provider: 'deepseek', model: 'deepseek-v4-flash' } }, reason: 'change' } },
      { type: 'request/context', data: { provider: 'deepseek', model: 'deepseek-v4-flash' } },
      { type: 'todo/write', data: { todos: [] } },
    ]
    return { events: insertEvent(log.events, position, records[chooser.int(records.length)]!), seq: position }
  },
})

/** A step left open: its step/end removed, so the next boundary finds it open. */
function dropStepEnd(name: string, code: string, rule: string, nextType: string): Mutation {
  const boundary = (event: LogEvent): boolean => event.type === 'step/start' || event.type === 'turn/end'
  return defineMutation({
    name, code, rule, operation: 'relations',
    targets: log => indexesWhere(log.events, (event, index) => {
      const next = nextIndex(log.events, index, boundary)
      return event.type === 'step/end' && next > 0 && log.events[next]!.type === nextType && !isReferenced(log.events, index)
    }),
    edit: (log, index) => ({ events: removeEvent(log.events, index), seq: nextIndex(log.events, index, boundary) - 1 }),
  })
}

export const stepOpenAtTurnEnd = dropStepEnd('step-open-at-turn-end', 'TURN_END_STEP_OPEN', 'TURN-6', 'turn/end')
export const stepOpenAtStepStart = dropStepEnd('step-open-at-step-start', 'STEP_ALREADY_OPEN', 'TURN-7', 'step/start')

export const endWithoutSummary = defineMutation({
  name: 'end-without-summary', code: 'COMPACTION_END_WITHOUT_SUMMARY', operation: 'relations', rule: 'COMP-6',
  targets: log => indexesWhere(log.events, (event, index) => {
    if (event.type !== 'compaction/end' || !('error' in dataOf(event))) return false
    const start = bracketStart(log.events, index)
    return start >= 0 && !log.events.slice(start, index).some(inner => inner.type === 'compaction/summary')
  }),
  edit: (log, index) => ({ events: changed(log.events, index, event => { delete dataOf(event)['error'] }), seq: index }),
})

/** The claim of a summary or prune moved off the range its replace names (COMP-10). */
export const claimMismatch = defineMutation({
  name: 'claim-mismatch', code: 'COMPACTION_CLAIM_MISMATCH', operation: 'relations', rule: 'COMP-10',
  targets: log => indexesWhere(log.events, (event, index) => {
    const next = log.events[index + 1]
    return (event.type === 'compaction/summary' || event.type === 'compaction/prune') && next !== undefined && replaceOf(next) !== undefined
  }),
  edit(log, index) {
    const events = changed(log.events, index, event => {
      const data = dataOf(event)
      data['shadowedRange'] = { start: index, end: index }
      data['shadowedSeqs'] = [index]
    })
    return { events, seq: index + 1 }
  },
})

/** A summary whose range and seqs are the strings of the numbers they were: equal, but not numbers (COMP-5). */
export const summaryRangeStrings = defineMutation({
  name: 'summary-range-strings', code: 'COMPACTION_SUMMARY_INVALID', operation: 'relations', rule: 'COMP-5',
  targets: log => indexesWhere(log.events, event => event.type === 'compaction/summary'),
  edit: (log, index) => ({
    events: changed(log.events, index, event => {
      const data = dataOf(event)
      const range = data['shadowedRange'] as JsonObject
      data['shadowedRange'] = { start: String(range['start']), end: String(range['end']) }
      data['shadowedSeqs'] = (data['shadowedSeqs'] as number[]).map(String)
    }),
    seq: index,
  }),
})

export const checkpointOutsideBracket = defineMutation({
  name: 'checkpoint-outside-bracket', code: 'COMPACTION_CHECKPOINT_OUTSIDE_BRACKET', operation: 'relations', rule: 'COMP-9',
  targets: log => indexesWhere(log.events, isCheckpoint),
  edit: (log, index) => ({ events: changed(log.events, index, event => { (dataOf(event)['source'] as JsonObject)['compactionId'] = 'cmp-elsewhere' }), seq: index }),
})

export const memberIdMismatch = defineMutation({
  name: 'member-id-mismatch', code: 'COMPACTION_ID_MISMATCH', operation: 'relations', rule: 'COMP-4',
  targets: log => indexesWhere(log.events, event => event.type === 'compaction/summary' || event.type === 'compaction/end'),
  edit(log, index, chooser) {
    const events = changed(log.events, index, event => {
      const data = dataOf(event)
      if (chooser.int(2) === 0) data['compactionId'] = 'cmp-elsewhere'
      else if ('sourceCommandId' in data) delete data['sourceCommandId']
      else data['sourceCommandId'] = 'cmd-elsewhere'
    })
    return { events, seq: index }
  },
})

export const endOwnerMismatch = defineMutation({
  name: 'end-owner-mismatch', code: 'COMPACTION_OWNER_MISMATCH', operation: 'relations', rule: 'COMP-3',
  targets: log => indexesWhere(log.events, event => event.type === 'compaction/end'),
  edit(log, index) {
    const events = changed(log.events, index, event => {
      const data = dataOf(event)
      data['turn'] = typeof data['turn'] === 'number' ? data['turn'] + 1 : 1
    })
    return { events, seq: index }
  },
})

/** A bracket whose end is removed, so the next turn boundary crosses it while it is live (COMP-8). */
export const bracketCrossesTurn = defineMutation({
  name: 'bracket-crosses-turn', code: 'COMPACTION_TURN_CROSSES_BRACKET', operation: 'relations', rule: 'COMP-8',
  targets: log => indexesWhere(log.events, (event, index) => {
    if (event.type !== 'compaction/end' || isReferenced(log.events, index)) return false
    const next = nextIndex(log.events, index, isTurnBoundary)
    // A replace before the boundary would meet the claim of a summary that the end disarmed (COMP-10).
    if (next < 0 || log.events.slice(index + 1, next).some(event => isCompactionEvent(event) || replaceOf(event) !== undefined)) return false
    const start = bracketStart(log.events, index)
    return start >= 0 && !staleStarts(removeEvent(log.events, index)).has(start)
  }),
  edit: (log, index) => ({ events: removeEvent(log.events, index), seq: nextIndex(log.events, index, isTurnBoundary) - 1 }),
})

export const RELATION_MUTATIONS: readonly Mutation[] = [
  orphanResult, orphanLookalikeResult, secondBracket, dropTurnEnd, skipTurnNumber, skipStepNumber, stepMismatch, recordOutsideTurn,
  stepOpenAtTurnEnd, stepOpenAtStepStart, endWithoutSummary, claimMismatch, checkpointOutsideBracket, memberIdMismatch,
  endOwnerMismatch, bracketCrossesTurn, summaryRangeStrings,
]
