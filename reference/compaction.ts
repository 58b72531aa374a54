/**
 * Chapter 13: the compaction bracket. The relation checks (COMP-1..11) are pure: they return a fault
 * or the next compaction state. `compactionState` (COMP-14..17) reads the lock and the outcome of
 * every bracket from the log alone.
 */
import { fault, type ErrorCode, type Fault, type Result, accept, reject } from './result.ts'
import { hasOwn, isNonEmptyString, isNonNegativeSafeInteger, isRecord, type JsonRecord } from './lossless-json.ts'
import type { SessionEvent } from './envelope.ts'

interface OpenBracket {
  compactionId: string
  /** The start's sourceCommandId; `hasCommandId` tells absent from present. */
  hasCommandId: boolean
  sourceCommandId: unknown
  startSeq: number
  owner: number | null
  summarized: boolean
}

/** A range armed by an accepted summary or prune; `undefined` members match no replace. */
interface Claim {
  start: number | undefined
  end: number | undefined
}

export interface CompactionRelationState {
  bracket: OpenBracket | undefined
  claim: Claim | undefined
}

// Stryker disable next-line ObjectLiteral: an empty object has the same undefined bracket and claim
export const initialCompactionState: CompactionRelationState = { bracket: undefined, claim: undefined }

type Checked = { ok: true; state: CompactionRelationState } | { ok: false; fault: Fault }

function failed(code: ErrorCode, message: string): Checked {
  return { ok: false, fault: fault(code, message) }
}

function data(event: SessionEvent): JsonRecord {
  return isRecord(event.data) ? event.data : {}
}

/** A checkpoint: a replacing user/message whose source is the compact plugin. */
export function isCheckpoint(event: SessionEvent): boolean {
  if (event.type !== 'user/message' || !isRecord(event.surfaceOp)) return false
  const source = data(event)['source']
  return isRecord(source) && source['kind'] === 'plugin' && source['plugin'] === 'compact'
}

/**
 * Starts whose bracket is stale: a session/end-seed follows them with no compaction/start or
 * compaction/end in between (Terms of chapter 13). Computed over the whole log, whatever passes.
 */
export function staleStartSeqs(events: readonly SessionEvent[]): ReadonlySet<number> {
  const stale = new Set<number>()
  let open: number | undefined
  for (const event of events) {
    if (event.type === 'compaction/start') open = event.seq
    else if (event.type === 'compaction/end') open = undefined
    else if (event.type === 'session/end-seed') {
      // Stryker disable next-line ConditionalExpression: adding undefined to the set marks no start seq
      if (open !== undefined) stale.add(open)
      open = undefined
    }
  }
  return stale
}

/** COMP-1 on a record holding compactionId and optional sourceCommandId. */
function identityFault(record: JsonRecord, where: string): Fault | undefined {
  if (!isNonEmptyString(record['compactionId'])) return fault('COMPACTION_ID_INVALID', `${where} compactionId must be a non-empty string`)
  if (hasOwn(record, 'sourceCommandId') && !isNonEmptyString(record['sourceCommandId'])) {
    return fault('COMPACTION_ID_INVALID', `${where} sourceCommandId must be a non-empty string`)
  }
  return undefined
}

function sameIdentity(record: JsonRecord, bracket: OpenBracket): boolean {
  return record['compactionId'] === bracket.compactionId
    && hasOwn(record, 'sourceCommandId') === bracket.hasCommandId
    && (!bracket.hasCommandId || record['sourceCommandId'] === bracket.sourceCommandId)
}

/** COMP-3: a numbered owner needs exactly that turn open, a null owner needs none. */
function ownerMatches(owner: unknown, openTurn: number | null): boolean {
  if (owner === null) return openTurn === null
  // Stryker disable next-line ConditionalExpression: owner is not null here and openTurn is a number or null, so with the type test taken as true only a number owner can still equal openTurn
  return typeof owner === 'number' && owner === openTurn
}

function checkStart(state: CompactionRelationState, event: SessionEvent, openTurn: number | null): Checked {
  const record = data(event)
  const idFault = identityFault(record, 'compaction/start')
  if (idFault !== undefined) return { ok: false, fault: idFault }
  if (state.bracket !== undefined) return failed('COMPACTION_ALREADY_OPEN', `compaction/start while ${state.bracket.compactionId} is open`)
  const owner = record['turn']
  if (!ownerMatches(owner, openTurn)) return failed('COMPACTION_OWNER_MISMATCH', 'compaction/start owner does not match the open turn')
  const bracket: OpenBracket = {
    compactionId: record['compactionId'] as string,
    hasCommandId: hasOwn(record, 'sourceCommandId'),
    sourceCommandId: record['sourceCommandId'],
    startSeq: event.seq,
    owner: owner as number | null,
    summarized: false,
  }
  return { ok: true, state: { bracket, claim: undefined } }
}

/** COMP-1 and COMP-4 for summary and end; returns the open bracket when they pass. */
function memberCheck(state: CompactionRelationState, event: SessionEvent): { ok: true; bracket: OpenBracket } | { ok: false; fault: Fault } {
  const record = data(event)
  const idFault = identityFault(record, event.type)
  if (idFault !== undefined) return { ok: false, fault: idFault }
  const bracket = state.bracket
  if (bracket === undefined) return { ok: false, fault: fault('COMPACTION_NOT_OPEN', `${event.type} with no open bracket`) }
  if (!sameIdentity(record, bracket)) return { ok: false, fault: fault('COMPACTION_ID_MISMATCH', `${event.type} names another compaction than the open one`) }
  return { ok: true, bracket }
}

function summaryShapeFault(record: JsonRecord): Fault | undefined {
  const seqs = record['shadowedSeqs']
  const range = record['shadowedRange']
  const invalid = (why: string): Fault => fault('COMPACTION_SUMMARY_INVALID', `compaction/summary ${why}`)
  if (!Array.isArray(seqs) ||
    // Stryker disable next-line ConditionalExpression: an empty shadowedSeqs fails the range test below as well, since a number start never equals its missing first element
    seqs.length === 0) return invalid('shadowedSeqs must be a non-empty array')
  if (!isRecord(range) || typeof range['start'] !== 'number' || range['start'] !== seqs[0]
    || typeof range['end'] !== 'number' || range['end'] !== seqs[seqs.length - 1]) {
    return invalid('shadowedRange must be the first and last of shadowedSeqs')
  }
  if (!isNonNegativeSafeInteger(record['shadowedTokenCount'])) return invalid('shadowedTokenCount must be a non-negative safe integer')
  return undefined
}

function claimOf(record: JsonRecord): Claim {
  const range = record['shadowedRange']
  const point = (key: string): number | undefined => (isRecord(range) &&
    // Stryker disable next-line ConditionalExpression: a replace's start and end are numbers (SURF-2), so a claim member of another type matches no replace, as undefined does
    typeof range[key] === 'number' ? range[key] as number : undefined)
  return { start: point('start'), end: point('end') }
}

function checkSummary(state: CompactionRelationState, event: SessionEvent, openTurn: number | null): Checked {
  const member = memberCheck(state, event)
  if (!member.ok) return member
  const bracket = member.bracket
  if (!ownerMatches(bracket.owner, openTurn)) return failed('COMPACTION_OWNER_MISMATCH', 'compaction/summary outside its owner turn')
  if (bracket.summarized) return failed('COMPACTION_SUMMARY_DUPLICATE', 'a second compaction/summary in one bracket')
  const shapeFault = summaryShapeFault(data(event))
  if (shapeFault !== undefined) return { ok: false, fault: shapeFault }
  return { ok: true, state: { bracket: { ...bracket, summarized: true }, claim: claimOf(data(event)) } }
}

function checkEnd(state: CompactionRelationState, event: SessionEvent, openTurn: number | null): Checked {
  const member = memberCheck(state, event)
  if (!member.ok) return member
  const bracket = member.bracket
  const record = data(event)
  if (!hasOwn(record, 'turn') || record['turn'] !== bracket.owner) return failed('COMPACTION_OWNER_MISMATCH', 'compaction/end names another owner than its start')
  // Stryker disable next-line ConditionalExpression,StringLiteral: unreachable: the owner turn can close inside a bracket only when it is stale, and an end inside the bracket makes it live
  if (!ownerMatches(bracket.owner, openTurn)) return failed('COMPACTION_OWNER_MISMATCH', 'compaction/end outside its owner turn')
  if (!hasOwn(record, 'error') && !bracket.summarized) return failed('COMPACTION_END_WITHOUT_SUMMARY', 'a successful compaction/end without a summary')
  // Stryker disable next-line ObjectLiteral: an empty object has the same undefined bracket and claim
  return { ok: true, state: { bracket: undefined, claim: undefined } }
}

/** COMP-10: a replace while a claim is armed must name the claimed range. */
function claimFault(state: CompactionRelationState, event: SessionEvent): Fault | undefined {
  const op = event.surfaceOp
  if (state.claim === undefined || !isRecord(op)) return undefined
  if (op['start'] === state.claim.start && op['end'] === state.claim.end) return undefined
  return fault('COMPACTION_CLAIM_MISMATCH', 'the replace names another range than the claim right before it')
}

function checkCheckpoint(state: CompactionRelationState, event: SessionEvent): Fault | undefined {
  const source = data(event)['source'] as JsonRecord
  const idFault = identityFault(source, 'checkpoint source')
  if (idFault !== undefined) return idFault
  if (state.bracket === undefined) {
    return fault('COMPACTION_CHECKPOINT_OUTSIDE_BRACKET', `the checkpoint of ${JSON.stringify(source['compactionId'])} comes when no compaction bracket is open`)
  }
  if (!sameIdentity(source, state.bracket)) return fault('COMPACTION_CHECKPOINT_OUTSIDE_BRACKET', identityMismatch(source, state.bracket))
  return claimFault(state, event)
}

/** How a checkpoint's identity differs from the open bracket's (COMP-9): its compactionId, or its sourceCommandId. */
function identityMismatch(source: JsonRecord, bracket: OpenBracket): string {
  const named = (has: boolean, value: unknown): string => (has ? JSON.stringify(value) : 'none')
  if (source['compactionId'] !== bracket.compactionId) {
    return `the checkpoint of ${JSON.stringify(source['compactionId'])} comes inside the open bracket of ${JSON.stringify(bracket.compactionId)}`
  }
  return `the checkpoint names sourceCommandId ${named(hasOwn(source, 'sourceCommandId'), source['sourceCommandId'])} where its bracket's start names ${named(bracket.hasCommandId, bracket.sourceCommandId)}`
}

/** Everything other than the compaction events: turn boundaries, checkpoints and other replaces. */
function checkOther(state: CompactionRelationState, event: SessionEvent, stale: ReadonlySet<number>): Checked {
  const disarmed: CompactionRelationState = { bracket: state.bracket, claim: undefined }
  if (event.type === 'turn/start' || event.type === 'turn/end') {
    const bracket = state.bracket
    if (bracket !== undefined && !stale.has(bracket.startSeq)) return failed('COMPACTION_TURN_CROSSES_BRACKET', `${event.type} inside the live bracket of ${bracket.compactionId}`)
    return { ok: true, state: disarmed }
  }
  if (event.type === 'session/end-seed') return { ok: true, state: initialCompactionState }
  if (event.type === 'compaction/prune') return { ok: true, state: { bracket: state.bracket, claim: claimOf(data(event)) } }
  const found = isCheckpoint(event) ? checkCheckpoint(state, event) : claimFault(state, event)
  return found === undefined ? { ok: true, state: disarmed } : { ok: false, fault: found }
}

/**
 * The chapter 13 checks of one event that passed chapters 09 and 10 (COMP-11 order). `openTurn` is
 * the turn open before the event; `stale` comes from `staleStartSeqs` over the whole log.
 */
export function checkCompactionRelations(
  state: CompactionRelationState,
  event: SessionEvent,
  openTurn: number | null,
  stale: ReadonlySet<number>,
): Checked {
  switch (event.type) {
    case 'compaction/start':
      return checkStart(state, event, openTurn)
    case 'compaction/summary':
      return checkSummary(state, event, openTurn)
    case 'compaction/end':
      return checkEnd(state, event, openTurn)
    default:
      return checkOther(state, event, stale)
  }
}

// ---- the lock and the outcome of each attempt (COMP-14..17) --------------------------------

export type BracketOutcome = 'completed' | 'irregular' | 'failed-clean' | 'failed-partial' | 'orphaned-live' | 'orphaned-stale'

export interface BracketReport {
  startSeq: number
  endSeq: number | null
  compactionId?: unknown
  outcome: BracketOutcome
}

export interface CompactionStateValue {
  open: JsonRecord | null
  brackets: BracketReport[]
  owner?: number | null
}

interface ScannedBracket {
  start: SessionEvent
  end: SessionEvent | undefined
  endedBySeed: boolean
  summary: boolean
  checkpoint: boolean
}

function outcomeOf(bracket: ScannedBracket): BracketOutcome {
  if (bracket.end === undefined) return bracket.endedBySeed ? 'orphaned-stale' : 'orphaned-live'
  if (!hasOwn(data(bracket.end), 'error')) return bracket.summary && bracket.checkpoint ? 'completed' : 'irregular'
  return bracket.summary || bracket.checkpoint ? 'failed-partial' : 'failed-clean'
}

/** COMP-16: brackets by position only. */
function scanBrackets(events: readonly SessionEvent[]): ScannedBracket[] {
  const brackets: ScannedBracket[] = []
  let current: ScannedBracket | undefined
  for (const event of events) {
    if (event.type === 'compaction/start') {
      current = { start: event, end: undefined, endedBySeed: false, summary: false, checkpoint: false }
      brackets.push(current)
    } else if (event.type === 'compaction/end' && current !== undefined) {
      current.end = event
      current = undefined
    } else if (event.type === 'session/end-seed' && current !== undefined) {
      current.endedBySeed = true
      current = undefined
    } else if (current !== undefined && event.type === 'compaction/summary') current.summary = true
    else if (current !== undefined && isCheckpoint(event)) current.checkpoint = true
  }
  return brackets
}

function copied(record: JsonRecord, keys: readonly string[]): JsonRecord {
  return Object.fromEntries(keys.filter(key => hasOwn(record, key)).map(key => [key, record[key]]))
}

function report(bracket: ScannedBracket): BracketReport {
  return {
    startSeq: bracket.start.seq,
    endSeq: bracket.end === undefined ? null : bracket.end.seq,
    ...copied(data(bracket.start), ['compactionId']),
    outcome: outcomeOf(bracket),
  }
}

/** COMP-14: the latest start-or-end, when it is a start, and whether an end-seed after it made it stale. */
function unmatchedStart(events: readonly SessionEvent[]): { start: SessionEvent; live: boolean } | undefined {
  const latest = events.findLast(event => event.type === 'compaction/start' || event.type === 'compaction/end')
  if (latest === undefined || latest.type !== 'compaction/start') return undefined
  const lastSeed = events.findLast(event => event.type === 'session/end-seed')
  // Stryker disable next-line EqualityOperator: an end-seed and a start never share a seq
  return { start: latest, live: lastSeed === undefined || lastSeed.seq < latest.seq }
}

/** COMP-15: may a compaction of kind `entry` begin? */
function entryCheck(events: readonly SessionEvent[], entry: 'automatic' | 'manual', lock: ReturnType<typeof unmatchedStart>): Result<number | null> {
  if (lock?.live === true) return reject('COMPACTION_BUSY', 'a live compaction/start holds the lock', { seq: lock.start.seq })
  const turnEvent = events.findLast(event => event.type === 'turn/start' || event.type === 'turn/end')
  const openTurn = turnEvent?.type === 'turn/start' ? turnEvent : undefined
  if (entry === 'manual') {
    return openTurn === undefined ? accept(null) : reject('COMPACTION_BUSY', 'a turn is open', { seq: openTurn.seq })
  }
  if (openTurn === undefined) return reject('COMPACTION_NO_OPEN_TURN', 'an automatic compaction needs an open turn')
  return accept(data(openTurn)['turn'] as number)
}

export function compactionState(events: readonly SessionEvent[], entry?: 'automatic' | 'manual'): Result<CompactionStateValue> {
  const lock = unmatchedStart(events)
  const open = lock === undefined
    ? null
    : { startSeq: lock.start.seq, ...copied(data(lock.start), ['compactionId', 'sourceCommandId', 'turn']), live: lock.live }
  const value: CompactionStateValue = { open, brackets: scanBrackets(events).map(report) }
  if (entry === undefined) return accept(value)
  const owner = entryCheck(events, entry, lock)
  return owner.ok ? accept({ ...value, owner: owner.value }) : owner
}
