// Known-bad adapters from a third planted-bug review of compactionState and regionBalance (139 bugs
// planted in a third implementation of chapters 13 and 14; these passed every vector of the compaction
// profile then): open and brackets copying members by truthiness or as numbers, a turn/end taken to end
// its owner's bracket, a summary after an end marking the bracket it follows, end-seeds matched by
// prefix, the lock read by time or past ignorable ends, the manual busy check naming a turn by its
// number, legacy turn boundaries and bare user messages read as stored, a counter that finds an orphan
// only at its end or lets a failed result count zero, and bigints taken as seqs. Each wraps a reference
// operation: over the loaded events as the bug reads them, with its input as the bug takes it, or with
// its answer as the bug gives it.
import { isDeepStrictEqual } from 'node:util'
import type { SessionEvent } from '../../reference/envelope.ts'
import { compactionState } from '../../reference/compaction.ts'
import { isNonNegativeSafeInteger } from '../../reference/lossless-json.ts'
import { counterStep, regionVerdict } from '../../reference/region-balance.ts'
import {
  accepted, compactionStateOver, dataOf, isRecord, loadedEvents, recordsOf, ref, rejected,
  type Input, type KnownBad, type SyncOperation,
} from './wrap.ts'

type EventRecord = Record<string, unknown>

/** The members COMP-17 copies from a start's data. */
const COPIED_MEMBERS = ['compactionId', 'sourceCommandId', 'turn']

/** The event as no fold reads it: of a type outside every vocabulary. */
function unreadAs(event: EventRecord, type: string): EventRecord {
  return { type, seq: event['seq'], time: event['time'], data: event['data'] }
}

/** compactionState's answer with its open and each bracket changed by `edit` (a rejection unchanged). */
function stateReported(edit: (report: EventRecord, isOpen: boolean) => EventRecord): SyncOperation {
  return input => {
    const result = ref.compactionState(input)
    if (!result.ok) return result
    const value = result.value as { open: EventRecord | null; brackets: EventRecord[] }
    return accepted({ ...value, open: value.open === null ? null : edit(value.open, true), brackets: value.brackets.map(bracket => edit(bracket, false)) })
  }
}

// ---- COMP-17: the copied members -------------------------------------------------------------------------

/** A copied member holding "", 0 or false is left out, as a truthiness test of `data[name]` leaves it. */
const copySkipsFalsy = stateReported(report => Object.fromEntries(Object.entries(report).filter(([name, value]) =>
  !(COPIED_MEMBERS.includes(name) && (value === '' || value === 0 || value === false)))))

/** open.turn holding a string of digits is copied as a number, as a parse of the turn gives it. */
const openTurnAsNumber = stateReported((report, isOpen) =>
  isOpen && typeof report['turn'] === 'string' && /^[0-9]+$/.test(report['turn']) ? { ...report, turn: Number(report['turn']) } : report)

// ---- COMP-16: what ends or marks a bracket ----------------------------------------------------------------

/** A turn/end of the turn a current bracket's start names ends that bracket as an end-seed would (stale). */
const turnEndStalesOwnedBracket = compactionStateOver(events => {
  let owner: unknown
  return events.flatMap(event => {
    if (event['type'] === 'compaction/start') owner = dataOf(event)['turn']
    else if (event['type'] === 'compaction/end' || event['type'] === 'session/end-seed') owner = undefined
    else if (event['type'] === 'turn/end' && typeof owner === 'number' && dataOf(event)['turn'] === owner) {
      owner = undefined
      return [event, { type: 'session/end-seed', seq: event['seq'], time: event['time'], data: {} }]
    }
    return [event]
  })
})

/** A summary with no current bracket marks the bracket the last compaction/end closed, as if it came before that end. */
const straySummaryMarksPrevious = compactionStateOver(events => {
  const moved = [...events]
  let current = false
  let lastEnd: number | undefined
  for (let index = 0; index < moved.length; index++) {
    const type = moved[index]!['type']
    if (type === 'compaction/start') current = true
    else if (type === 'compaction/end' && current) [current, lastEnd] = [false, index]
    else if (type === 'session/end-seed') [current, lastEnd] = [false, undefined]
    else if (type === 'compaction/summary' && !current && lastEnd !== undefined) {
      const [summary] = moved.splice(index, 1)
      moved.splice(lastEnd, 0, summary!)
      lastEnd += 1
    }
  }
  return moved
})

/** Any type that starts with session/end-seed is taken as an end-seed, as a prefix test takes it. */
const endSeedByPrefix = compactionStateOver(events => events.map(event =>
  typeof event['type'] === 'string' && event['type'].startsWith('session/end-seed') ? { ...event, type: 'session/end-seed' } : event))

// ---- COMP-14 and COMP-15: the lock and the entry checks ---------------------------------------------------

/** compactionState with the lock and the entry checks read over the events as `rewrite` changes them, and the brackets over the log as it is. */
function lockOver(rewrite: (events: EventRecord[]) => EventRecord[]): SyncOperation {
  return input => {
    const events = loadedEvents(input)
    if (events === undefined) return ref.compactionState(input)
    const entry = input['entry'] === 'automatic' || input['entry'] === 'manual' ? input['entry'] : undefined
    const lock = compactionState(rewrite(events) as unknown as SessionEvent[], entry)
    const all = compactionState(events as unknown as SessionEvent[])
    return lock.ok && all.ok ? accepted({ ...lock.value, brackets: all.value.brackets }) : lock as ReturnType<SyncOperation>
  }
}

const isStartOrEnd = (event: EventRecord): boolean => event['type'] === 'compaction/start' || event['type'] === 'compaction/end'

/** An ignorable compaction/start or compaction/end is passed over when the lock is sought. */
const ignorableStartOrEndSkippedForLock = lockOver(events => events.filter(event => !(isStartOrEnd(event) && event['ignorable'] === true)))

/** The unmatched start is sought among starts and ends by their time, the latest stamped (the later seq on a tie) winning. */
const unmatchedByTime = lockOver(events => {
  const latest = events.filter(isStartOrEnd).reduce<EventRecord | undefined>((found, event) =>
    found === undefined || (event['time'] as number) >= (found['time'] as number) ? event : found, undefined)
  return events.filter(event => !isStartOrEnd(event) || event === latest)
})

/** Manual entry busy for an open turn names the first turn/start with that turn's number, not the latest. */
const busyNamesFirstTurnStart: SyncOperation = input => {
  const result = ref.compactionState(input)
  const events = loadedEvents(input)
  if (result.ok || result.error.code !== 'COMPACTION_BUSY' || events === undefined) return result
  const named = events.find(event => event['seq'] === result.error.seq)
  if (named?.['type'] !== 'turn/start') return result
  const first = events.find(event => event['type'] === 'turn/start' && dataOf(event)['turn'] === dataOf(named)['turn'])
  return rejected('COMPACTION_BUSY', first!['seq'] as number)
}

// ---- PROC-9 and LEGACY-4: legacy shapes ----------------------------------------------------------------------

/** A turn/end whose stored reason the loader upgraded (disposed, bare aborted, an older error) is no turn/end. */
const legacyTurnEndIgnored = compactionStateOver((events, input) => events.map((event, index) => {
  const record = recordsOf(input)[index]
  return event['type'] === 'turn/end' && isRecord(record) && !isDeepStrictEqual(dataOf(record)['reason'], dataOf(event)['reason'])
    ? unreadAs(event, 'x-known-bad/legacy-turn-end')
    : event
}))

/** A bare user/message is wrapped in a message member as an unwrapped assistant message is, so its source leaves data. */
const legacyUserWrapped = compactionStateOver((events, input) => events.map((event, index) => {
  const stored = dataOf(recordsOf(input)[index])
  if (event['type'] !== 'user/message' || ['id', 'role', 'message'].some(name => Object.hasOwn(stored, name))) return event
  const { id, role, ...message } = dataOf(event)
  return { ...event, data: { id, role, message } }
}))

// ---- REGION-1, REGION-2 and REGION-4: the counter and the seqs asked for ------------------------------------

type Counter = { balanced: boolean[]; orphanSeq: number | undefined }

/** The reference's counter over the surface nodes, each node moving it by `step`; `orphanAtEndOnly` finds an orphan only when the last cut is below zero. */
function counted(nodes: number[], events: EventRecord[], step: (event: EventRecord) => number, orphanAtEndOnly: boolean): Counter {
  const balanced = [true]
  let counter = 0
  let orphanSeq: number | undefined
  for (const seq of nodes) {
    counter += step(events[seq]!)
    if (counter < 0 && orphanSeq === undefined) orphanSeq = seq
    balanced.push(counter === 0)
  }
  return { balanced, orphanSeq: orphanAtEndOnly && counter >= 0 ? undefined : orphanSeq }
}

/**
 * regionBalance with the reference's node and order checks, and the counter read another way: once those
 * checks pass, `count` gives the cuts and the orphan the answer rests on.
 */
function regionBalanceCounting(count: (nodes: number[], events: EventRecord[]) => Counter): SyncOperation {
  return input => {
    const result = ref.regionBalance(input)
    if (!result.ok && result.error.code !== 'REGION_ORPHAN_RESULT' && result.error.code !== 'REGION_UNBALANCED') return result
    const surface = ref.surface(input)
    const events = loadedEvents(input)
    if (!surface.ok || events === undefined) return result
    const nodes = (surface.value as { nodes: number[] }).nodes
    const { balanced, orphanSeq } = count(nodes, events)
    if (input['seq'] !== undefined) {
      const at = nodes.indexOf(input['seq'] as number)
      return orphanSeq !== undefined ? rejected('REGION_ORPHAN_RESULT', orphanSeq) : accepted({ before: balanced[at], after: balanced[at + 1] })
    }
    const [from, to] = [nodes.indexOf(input['start'] as number), nodes.indexOf(input['end'] as number)]
    const cuts = { before: balanced[from]!, after: balanced[to + 1]!, orphanSeq }
    return regionVerdict(cuts, input['start'] as number, input['end'] as number, nodes.slice(from, to + 1)) as ReturnType<SyncOperation>
  }
}

const stepOf = (event: EventRecord): number => counterStep(event as unknown as SessionEvent)

/** An orphan is found only when the counter ends below zero, not when it dips and recovers. */
const orphanOnlyAtEnd = regionBalanceCounting((nodes, events) => counted(nodes, events, stepOf, true))

/** A tool/result whose data has an error member counts 0, as if a failed tool answered no call. */
const errorResultCountsZero = regionBalanceCounting((nodes, events) => counted(nodes, events, event =>
  event['type'] === 'tool/result' && Object.hasOwn(dataOf(event), 'error') ? 0 : stepOf(event), false))

/** A bigint holding a usable value is taken as that seq, as a host that folds bigints into numbers takes it. */
const bigintAsSeq: SyncOperation = (input: Input) =>
  ref.regionBalance(Object.fromEntries(Object.entries(input).map(([name, value]) =>
    [name, ['seq', 'start', 'end'].includes(name) && typeof value === 'bigint' && isNonNegativeSafeInteger(Number(value)) ? Number(value) : value])))

export const COMPACTION_THIRD_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'compaction-copy-skips-falsy',
    bug: 'open and the brackets leave out a copied member holding "", 0 or false, as a truthiness test does',
    caughtBy: ['comp-state-empty-string-and-zero-members-copied'],
    patch: { compactionState: copySkipsFalsy },
  },
  {
    name: 'compaction-open-turn-as-number',
    bug: 'open.turn holding a string of digits is copied as a number',
    caughtBy: ['comp-state-string-turn-copied-verbatim'],
    patch: { compactionState: openTurnAsNumber },
  },
  {
    name: 'compaction-turn-end-stales-owned-bracket',
    bug: "a turn/end of the turn a bracket's start names ends that bracket as stale, as an end-seed would",
    caughtBy: ['comp-state-bracket-outlives-its-turn-end'],
    patch: { compactionState: turnEndStalesOwnedBracket },
  },
  {
    name: 'compaction-stray-summary-marks-previous',
    bug: 'a summary with no current bracket marks the bracket the last compaction/end closed',
    caughtBy: ['comp-state-summary-after-closed-bracket-marks-nothing'],
    patch: { compactionState: straySummaryMarksPrevious },
  },
  {
    name: 'compaction-end-seed-by-prefix',
    bug: 'any event type starting with session/end-seed is taken as an end-seed',
    caughtBy: ['comp-state-staleness-needs-exact-end-seed-type'],
    patch: { compactionState: endSeedByPrefix },
  },
  {
    name: 'compaction-lock-skips-ignorable',
    bug: 'an ignorable compaction/start or compaction/end is passed over when the unmatched start is sought',
    caughtBy: ['comp-state-ignorable-end-releases-lock'],
    patch: { compactionState: ignorableStartOrEndSkippedForLock },
  },
  {
    name: 'compaction-unmatched-by-time',
    bug: 'the unmatched start is the latest start-or-end by time, not by seq',
    caughtBy: ['comp-state-unmatched-start-by-seq-not-time'],
    patch: { compactionState: unmatchedByTime },
  },
  {
    name: 'compaction-busy-names-first-turn-start',
    bug: 'manual entry during an open turn is busy with the first turn/start of that turn number, not the latest',
    caughtBy: ['comp-state-manual-busy-names-latest-turn-start'],
    patch: { compactionState: busyNamesFirstTurnStart },
  },
  {
    name: 'compaction-legacy-turn-end-ignored',
    bug: 'compactionState takes a turn/end stored with an older reason for no turn/end',
    caughtBy: ['legacy-disposed-turn-end-closes-turn-for-entry'],
    patch: { compactionState: legacyTurnEndIgnored },
  },
  {
    name: 'compaction-legacy-user-wrapped',
    bug: 'a bare user/message is wrapped in a message member, so a checkpoint stored bare has no data.source',
    caughtBy: ['legacy-bare-user-checkpoint-marks-bracket'],
    patch: { compactionState: legacyUserWrapped },
  },
  {
    name: 'region-orphan-only-at-end',
    bug: 'an orphan result is found only when the counter ends below zero, not when it dips and recovers',
    caughtBy: ['region-orphan-counter-back-to-zero'],
    patch: { regionBalance: orphanOnlyAtEnd },
  },
  {
    name: 'region-error-result-counts-zero',
    bug: 'a tool/result whose data has an error member counts 0 instead of -1',
    caughtBy: ['region-result-with-error-member-counts'],
    patch: { regionBalance: errorResultCountsZero },
  },
  {
    name: 'region-bigint-as-seq',
    bug: 'a bigint holding a usable value is taken as that seq in regionBalance',
    caughtBy: ['region-bigint-is-no-seq'],
    patch: { regionBalance: bigintAsSeq },
  },
]
