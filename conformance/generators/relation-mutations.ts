// Mutation operators that keep a log loadable but break one relation (spec chapters 09, 10 and 13).
// The events before the fault are untouched (result-in-later-step takes one away, which leaves a call
// unanswered: no violation, PAIR-6), so the fault is the first violation `relations` lists (PROC-7);
// inserted, removed or moved events shift the seqs after them (log-edit.ts), so nothing else changes.
import { cloneEvents, insertEvent, isReferenced, moveEventLater, removeEvent } from './log-edit.ts'
import { INHERITED_NAMES, type JsonObject, type LogEvent } from './events.ts'
import { applySurfaceEvent, type SurfaceNode } from './surface-model.ts'
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

/** The index of the step/start of the step open at `index`, or -1 when none is. */
function openStepStart(events: readonly LogEvent[], index: number): number {
  for (let at = index - 1; at >= 0; at--) {
    const type = events[at]!.type
    if (type === 'step/start') return at
    if (type === 'step/end' || isTurnBoundary(events[at]!)) return -1
  }
  return -1
}

const callIdOf = (event: LogEvent): unknown => dataOf(event)['callId']
const answeredIdOf = (event: LogEvent): unknown => (messageOf(event)['source'] as JsonObject | undefined)?.['callId']

/**
 * The call ids a result at `index` cannot answer though a call logged them (PAIR-1): those the open
 * step answered already (PAIR-3), and those of calls of earlier steps not logged again in this one
 * (PAIR-4), split by whether a result answered them (PAIR-6 drops the others at their step's end).
 */
function idsNotPending(events: readonly LogEvent[], index: number): { answered: string[]; earlierUnanswered: string[]; earlierAnswered: string[] } {
  const start = openStepStart(events, index)
  const pending = new Set<unknown>()
  const answered = new Set<unknown>()
  for (const event of events.slice(start + 1, index)) {
    if (event.type === 'tool/call') {
      pending.add(callIdOf(event))
      answered.delete(callIdOf(event))
    } else if (event.type === 'tool/result' && event.surfaceOp === 'append' && pending.delete(answeredIdOf(event))) answered.add(answeredIdOf(event))
  }
  const before = start < 0 ? [] : events.slice(0, start)
  const answeredBefore = new Set(before.filter(event => event.type === 'tool/result').map(answeredIdOf))
  const earlier = [...new Set(before.filter(event => event.type === 'tool/call').map(callIdOf))]
    .filter((id): id is string => typeof id === 'string' && !pending.has(id) && !answered.has(id))
  return {
    answered: [...answered].filter((id): id is string => typeof id === 'string'),
    earlierUnanswered: earlier.filter(id => !answeredBefore.has(id)),
    earlierAnswered: earlier.filter(id => answeredBefore.has(id)),
  }
}

/** A result answering a call of its own step that an earlier result answered already (PAIR-3). */
export const answerAnsweredCall = defineMutation({
  name: 'answer-answered-call', code: 'TOOL_RESULT_ORPHAN', operation: 'relations', rule: 'PAIR-3',
  targets: log => pairedResults(log).filter(index => idsNotPending(log.events, index).answered.length > 0),
  edit(log, index, chooser) {
    const ids = idsNotPending(log.events, index).answered
    return { events: answering(log.events, index, () => ids[chooser.int(ids.length)]!), seq: index }
  },
})

/**
 * A result answering a call of an earlier step, half the time (when there is one) a call no result
 * answered before its step ended (PAIR-6 drops it from the pending set), else one answered (PAIR-4).
 */
export const answerEarlierStepCall = defineMutation({
  name: 'answer-earlier-step-call', code: 'TOOL_RESULT_ORPHAN', operation: 'relations', rule: 'PAIR-4',
  targets: log => pairedResults(log).filter(index => {
    const ids = idsNotPending(log.events, index)
    return ids.earlierUnanswered.length + ids.earlierAnswered.length > 0
  }),
  edit(log, index, chooser) {
    const { earlierUnanswered, earlierAnswered } = idsNotPending(log.events, index)
    const ids = earlierUnanswered.length > 0 && (earlierAnswered.length === 0 || chooser.int(2) === 0) ? earlierUnanswered : earlierAnswered
    return { events: answering(log.events, index, () => ids[chooser.int(ids.length)]!), seq: index }
  },
})

/** Whether every replace cites each node it shadows (PROV-7), which an edit reordering appends can undo. */
function citesEveryShadowedNode(events: readonly LogEvent[]): boolean {
  let nodes: SurfaceNode[] = []
  for (const event of events) {
    const applied = applySurfaceEvent(nodes, event)
    if (applied.shadowed.some(seq => !(event.sourceEventSeqs ?? []).includes(seq))) return false
    nodes = applied.nodes
  }
  return true
}

/** Whether an event arms a claim on the range its replace must name (COMP-10). */
const armsClaim = (event: LogEvent | undefined): boolean => event?.type === 'compaction/prune' || event?.type === 'compaction/summary'

/** The result at `index` moved to just after the next step/start of the log, and given that step's numbers. */
function resultMovedToNextStep(events: readonly LogEvent[], index: number): LogEvent[] | undefined {
  const next = nextIndex(events, index, event => event.type === 'step/start')
  if (next < 0 || isReferenced(events, index)) return undefined
  // The result disarms the claim of the event before it; moved, it would leave that claim to a replace after it.
  const after = events[index + 1]
  if (armsClaim(events[index - 1]) && after !== undefined && replaceOf(after) !== undefined) return undefined
  const moved = moveEventLater(events, index, next)
  const { turn, step } = dataOf(moved[next - 1]!)
  Object.assign(dataOf(moved[next]!), { turn, step })
  return citesEveryShadowedNode(moved) ? moved : undefined
}

/**
 * The only result of a call moved into a later step, whose numbers it takes: the call went unanswered
 * when its step ended (PAIR-6), and a later step cannot answer it (PAIR-4).
 */
export const resultInLaterStep = defineMutation({
  name: 'result-in-later-step', code: 'TOOL_RESULT_ORPHAN', operation: 'relations', rule: 'PAIR-4',
  targets: log => pairedResults(log).filter(index => resultMovedToNextStep(log.events, index) !== undefined),
  edit(log, index) {
    const events = resultMovedToNextStep(log.events, index)!
    return { events, seq: nextIndex(log.events, index, event => event.type === 'step/start') }
  },
})

/**
 * A result answering an id no call has, marked as not started only once (PAIR-5): `error.code`
 * TOOL_NOT_STARTED with `isError` absent or false, or `isError` true with no error or another code.
 */
export const notStartedHalfMarked = defineMutation({
  name: 'not-started-half-marked', code: 'TOOL_RESULT_ORPHAN', operation: 'relations', rule: 'PAIR-5',
  targets: pairedResults,
  edit(log, index, chooser) {
    const events = answering(log.events, index, answered => `${answered}-never-started`)
    const data = dataOf(events[index]!)
    const block = (messageOf(events[index]!)['content'] as JsonObject[])[0]!
    const variant = chooser.int(4)
    if (variant < 2) {
      data['error'] = { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' }
      if (variant === 0) delete block['isError']
      else block['isError'] = false
    } else {
      block['isError'] = true
      if (variant === 2) delete data['error']
      else data['error'] = { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' }
    }
    return { events, seq: index }
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

/** The log up to and including the event at `index`: a crash tail, still a valid log (PROC-5). */
function cutAfter(events: readonly LogEvent[], index: number): LogEvent[] {
  return cloneEvents(events.slice(0, index + 1))
}

/**
 * The log cut just after a step/end, as a crash leaves it, with that step/end naming another step:
 * repair still takes it as closing the open step (REPAIR-2, REPAIR-4), so the tail is owed a turn/end
 * alone.
 */
export const openTurnStepEndMismatch = defineMutation({
  name: 'open-turn-step-end-mismatch', code: 'STEP_MISMATCH', operation: 'relations', rule: 'TURN-8',
  targets: log => indexesWhere(log.events, event => event.type === 'step/end'),
  edit(log, index) {
    const events = cutAfter(log.events, index)
    dataOf(events[index]!)['step'] = (dataOf(events[index]!)['step'] as number) + 1
    return { events, seq: index }
  },
})

/**
 * The log cut inside a turn numbered 3 or more, as a crash leaves it, with that turn's turn/start
 * numbered below the turn before it: the compaction owner is still the number of the latest
 * turn/start (COMP-15), not the highest.
 */
export const openTurnNumberLower = defineMutation({
  name: 'open-turn-number-lower', code: 'TURN_NUMBER_INVALID', operation: 'relations', rule: 'TURN-4',
  targets: log => indexesWhere(log.events, event => event.type === 'turn/start' && (dataOf(event)['turn'] as number) >= 3),
  edit(log, index, chooser) {
    const turnEnd = nextIndex(log.events, index, isTurnBoundary)
    const events = cutAfter(log.events, index + chooser.int((turnEnd < 0 ? log.events.length : turnEnd) - index))
    const data = dataOf(events[index]!)
    data['turn'] = 1 + chooser.int((data['turn'] as number) - 2)
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

/**
 * A compaction/end naming another compactionId, with a session/end-seed after it: vetoed (PROC-7), the
 * bracket stays open, and the end still lies between its start and the end-seed, so the bracket is not
 * stale (chapter 13's Terms: "whether or not those events pass") and stays live, which the turn
 * boundaries after it meet (COMP-7, COMP-8).
 */
export const vetoedEndBeforeEndSeed = defineMutation({
  name: 'vetoed-end-before-end-seed', code: 'COMPACTION_ID_MISMATCH', operation: 'relations', rule: 'COMP-4',
  targets: log => indexesWhere(log.events, (event, index) => event.type === 'compaction/end' && nextIndex(log.events, index, later => later.type === 'session/end-seed') >= 0),
  edit: (log, index) => ({ events: changed(log.events, index, event => { dataOf(event)['compactionId'] = 'cmp-elsewhere' }), seq: index }),
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

/** Compaction identities COMP-1 refuses: an empty string, a number, null, or none at all. */
const REFUSED_IDENTITIES: readonly ({ value: unknown } | undefined)[] = [{ value: '' }, { value: 7 }, { value: null }, undefined]

const holdsIdentity = (event: LogEvent): boolean =>
  event.type === 'compaction/start' || event.type === 'compaction/summary' || event.type === 'compaction/end' || isCheckpoint(event)

/**
 * An identity COMP-1 refuses, on a start, summary or end, or on a checkpoint's source: its compactionId
 * empty, a number, null or gone, or (one time in three) a sourceCommandId present as null or empty. A
 * checkpoint without a compactionId is a checkpoint all the same (Terms of chapter 13).
 */
export const compactionIdInvalid = defineMutation({
  name: 'compaction-id-invalid', code: 'COMPACTION_ID_INVALID', operation: 'relations', rule: 'COMP-1',
  targets: log => indexesWhere(log.events, holdsIdentity),
  edit: (log, index, chooser) => ({
    events: changed(log.events, index, event => {
      const holder = isCheckpoint(event) ? dataOf(event)['source'] as JsonObject : dataOf(event)
      if (chooser.int(3) === 0) {
        holder['sourceCommandId'] = chooser.int(2) === 0 ? null : ''
        return
      }
      const refused = REFUSED_IDENTITIES[chooser.int(REFUSED_IDENTITIES.length)]
      if (refused === undefined) delete holder['compactionId']
      else holder['compactionId'] = refused.value as JsonObject[string]
    }),
    seq: index,
  }),
})

export const RELATION_MUTATIONS: readonly Mutation[] = [
  orphanResult, orphanLookalikeResult, answerAnsweredCall, answerEarlierStepCall, resultInLaterStep, notStartedHalfMarked,
  secondBracket, dropTurnEnd, skipTurnNumber, openTurnNumberLower, skipStepNumber, stepMismatch, openTurnStepEndMismatch,
  recordOutsideTurn, stepOpenAtTurnEnd, stepOpenAtStepStart, endWithoutSummary, claimMismatch, checkpointOutsideBracket,
  memberIdMismatch, vetoedEndBeforeEndSeed, endOwnerMismatch, bracketCrossesTurn, summaryRangeStrings, compactionIdInvalid,
]
