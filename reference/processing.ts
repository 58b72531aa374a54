/**
 * Chapter 00: the load phases (PROC-2), the per-event check order (PROC-3) shared by load and append,
 * and the relations run of PROC-7.
 */
import { accept, reject, rejectAt, type Fault, type Result } from './result.ts'
import { isRecord, snapshotJson, type JsonRecord, type Snapshot } from './lossless-json.ts'
import {
  CANDIDATE_KEYS, contiguityFault, dataFault, envelopeFault, seqForRecord, typeFault, unknownKeyFault, type SessionEvent,
} from './envelope.ts'
import { headerFieldsFault, headerIdentityFault } from './storage-header.ts'
import { heldIndices } from './array-indices.ts'
import { legacyRejectionFault, upgradeLegacyShapes, writerLegacyFault, type UpgradeContext } from './legacy.ts'
import { messageOf, messageShapeFault } from './vocabulary.ts'
import { checkTurnRelations, initialTurnState, turnEndShapeFault, turnPayloadFault, type TurnState } from './turns-and-steps.ts'
import { requestHeaderFault } from './request-header.ts'
import { unknownTypeFault, vocabularyNamed } from './unknown-types.ts'
import { applySurfacePlan, emptySurface, foldSurfaceState, planSurfaceEvent } from './surface.ts'
import { nextPendingCalls, noPendingCalls, pairingFault, type PendingCalls } from './tool-pairing.ts'
import { checkCompactionRelations, initialCompactionState, staleStartSeqs, type CompactionRelationState } from './compaction.ts'

export interface LoadInput {
  /** The header's single-read snapshot (JSON-11), so that a caller copying it sees what load checked. */
  header?: Snapshot
  events: readonly unknown[]
  sessionId?: unknown
  vocabulary?: unknown
  /** False for a writer's view of a log: writers accept any type (UNK-2), so phase 4 is skipped. */
  checkVocabulary?: boolean
  /** The first seq when the events are a window of a log (ENV-10); 0 for a whole log. */
  baseSeq?: number
}

/** One input record as load sees it: its single-read snapshot, and where an error about it points. */
export interface Entry {
  snapshot: Snapshot
  record: unknown
  seq: number
}

/**
 * The indices of `records` load reads: those holding a record, and the first hole, which JSON-13 reads
 * as the record undefined. Later holes are left out: the phases before replay find no fault in
 * undefined, and replay stops at the first hole, so no later hole changes the answer, and a sparse
 * array of length 2^32 - 1 costs its records alone.
 */
function indicesRead(records: readonly unknown[]): number[] {
  const indices = heldIndices(records)
  // Up to the first hole, the n-th index held is n.
  const firstHole = indices.findIndex((index, position) => index !== position)
  const hole = firstHole === -1 ? indices.length : firstHole
  if (hole < records.length) indices.splice(hole, 0, hole)
  return indices
}

function entriesOf(records: readonly unknown[]): Entry[] {
  return indicesRead(records).map(index => {
    const snapshot = snapshotJson(records[index])
    return { snapshot, record: snapshot.value, seq: seqForRecord(snapshot.value, index) }
  })
}

/**
 * PROC-2: a phase before replay finds no fault in a record it cannot read. Those phases also read
 * values the lossless-JSON walk did not enter, kept as they were, and reading a hostile one (a revoked
 * proxy, a throwing accessor) throws; the replay phase rejects such a record for that value.
 */
function faultOfReadable(check: () => Fault | undefined): Fault | undefined {
  try {
    return check()
  }
  // Stryker disable next-line BlockStatement: an empty handler returns undefined, as this one does
  catch {
    return undefined
  }
}

/** The first fault of `check` over the entries, in input order (PROC-2). */
function firstFault(entries: readonly Entry[], check: (entry: Entry) => Fault | undefined): Result<void> {
  for (const entry of entries) {
    const found = faultOfReadable(() => check(entry))
    if (found !== undefined) return rejectAt(found, { seq: entry.seq })
  }
  return accept(undefined)
}

/** Message (VOC-8), payload (TURN-1) and request-header (HDR-2) shapes of one upgraded record. */
export function shapeFault(record: JsonRecord): Fault | undefined {
  const type = record['type']
  // Stryker disable next-line ConditionalExpression: every shape check is keyed on a known string type, so a non-string type matches none of them
  if (typeof type !== 'string') return undefined
  const data = record['data']
  return messageShapeFault(type, data)
    ?? turnPayloadFault(type, data)
    ?? (type === 'request/header' ? requestHeaderFault(data) : undefined)
}

/** LEGACY-11: the message id a later legacy rewrite may inherit from this record, if it is a string. */
export function messageIdOf(record: JsonRecord): string | undefined {
  // The type as stored: a type that is not a string is no user/message, whatever it converts to.
  const message = messageOf(record['type'], record['data'])
  return isRecord(message) && typeof message['id'] === 'string' ? message['id'] : undefined
}

/** Phase 3: legacy upgrades, then shapes, event by event. Replaces each entry's record by its upgrade. */
function upgradeAndShapePhase(entries: Entry[], sessionId: string): Result<void> {
  const messageIdBySeq = new Map<number, string>()
  const context: UpgradeContext = { sessionId, messageIdBySeq }
  return firstFault(entries, entry => upgradeAndShapeFault(entry, context, messageIdBySeq))
}

/** Phase 3 for one record: its upgrade replaces it, and its message id is kept for later upgrades. */
function upgradeAndShapeFault(entry: Entry, context: UpgradeContext, messageIdBySeq: Map<number, string>): Fault | undefined {
  // Stryker disable next-line ConditionalExpression: without the guard a null record throws when read, and a record that cannot be read has no fault in this phase (faultOfReadable), as a non-object has none
  if (!isRecord(entry.record)) return undefined
  const upgraded = upgradeLegacyShapes(entry.record, context)
  if (!upgraded.ok) return upgraded.fault
  entry.record = upgraded.record
  const found = shapeFault(upgraded.record)
  if (found !== undefined) return found
  const messageId = messageIdOf(upgraded.record)
  if (messageId !== undefined) messageIdBySeq.set(entry.seq, messageId)
  return undefined
}

/** Phase 5, one event, up to the surface checks: PROC-3 from "record is an object" to contiguity. */
export function eventFault(entry: Entry, expectedSeq: number): Fault | undefined {
  const record = entry.record
  if (!isRecord(record)) return { code: 'ENV_NOT_OBJECT', message: 'an event record must be a JSON object' }
  return entry.snapshot.fault ?? envelopeFault(record) ?? contiguityFault(record as unknown as SessionEvent, expectedSeq)
}

function replayPhase(entries: readonly Entry[], base: number): Result<SessionEvent[]> {
  const surface = emptySurface()
  const events: SessionEvent[] = []
  const eventAt = (seq: number): SessionEvent | undefined => events[seq - base]
  for (const [index, entry] of entries.entries()) {
    const found = eventFault(entry, base + index)
    if (found !== undefined) return rejectAt(found, { seq: entry.seq })
    const event = entry.record as SessionEvent
    const planned = planSurfaceEvent(surface, event, eventAt)
    if (!planned.ok) return rejectAt(planned.fault, { seq: entry.seq })
    applySurfacePlan(surface, planned.plan)
    events.push(event)
  }
  return accept(events)
}

/** Phase 4 (UNK-3). A vocabulary name this reader does not have refuses every log. */
function vocabularyPhase(entries: readonly Entry[], name: unknown): Result<void> {
  const known = vocabularyNamed(name)
  // The message names a string only: String() throws on an object without a usable toString.
  if (known === undefined) return reject('FORMAT_UNKNOWN_EVENT_TYPE', typeof name === 'string' ? `this reader has no vocabulary named ${name}` : `a vocabulary name is a string, not ${name === null ? 'null' : `a value of type ${typeof name}`}`)
  return firstFault(entries, entry => unknownTypeFault(entry.record, known))
}

/** The session id legacy upgrades use: the one asked for, else the header's, else "" (META-11). */
export function effectiveSessionId(header: unknown, sessionId: unknown): string {
  if (typeof sessionId === 'string') return sessionId
  // Stryker disable next-line ConditionalExpression: the header phase has already rejected a header whose id is not a string
  return isRecord(header) && typeof header['id'] === 'string' ? header['id'] : ''
}

/** `load` (PROC-2): header, legacy rejection, shape, vocabulary, replay; the first failing phase wins. */
export function loadLog(input: LoadInput): Result<SessionEvent[]> {
  const header = input.header
  if (header !== undefined) {
    const identity = headerIdentityFault(header.value, input.sessionId)
    if (identity !== undefined) return rejectAt(identity)
  }
  const entries = entriesOf(input.events)
  const legacy = firstFault(entries, entry => legacyRejectionFault(entry.record))
  if (!legacy.ok) return legacy
  const shaped = upgradeAndShapePhase(entries, effectiveSessionId(header?.value, input.sessionId))
  if (!shaped.ok) return shaped
  if (input.checkVocabulary !== false) {
    const vocabulary = vocabularyPhase(entries, input.vocabulary)
    if (!vocabulary.ok) return vocabulary
  }
  if (header !== undefined) {
    const fields = headerFieldsFault(header)
    if (fields !== undefined) return rejectAt(fields)
  }
  return replayPhase(entries, input.baseSeq ?? 0)
}

// ---- append ----------------------------------------------------------------------------------

export interface AppendInput {
  events: readonly SessionEvent[]
  candidate: unknown
  time: unknown
}

/** The candidate checks of PROC-3 that need no log: envelope, legacy and shapes. */
function candidateFault(candidate: JsonRecord): Fault | undefined {
  return unknownKeyFault(candidate, CANDIDATE_KEYS)
    ?? typeFault(candidate)
    ?? dataFault(candidate)
    ?? writerLegacyFault(candidate)
    ?? (candidate['type'] === 'turn/end' ? turnEndShapeFault(candidate['data']) : undefined)
    ?? shapeFault(candidate)
}

/** `append` (PROC-3, PROC-4): the accepted event, or the first failing check; the log is never touched. */
export function appendCandidate(input: AppendInput): Result<SessionEvent> {
  const seq = input.events.length
  const raw = input.candidate
  if (!isRecord(raw)) {
    return reject('ENV_NOT_OBJECT', 'an append candidate must be a JSON object', { seq })
  }
  const snapshot = snapshotJson(raw)
  if (snapshot.fault !== undefined) return rejectAt(snapshot.fault, { seq })
  const candidate = snapshot.value as JsonRecord
  const found = candidateFault(candidate)
  if (found !== undefined) return rejectAt(found, { seq })
  const { type, data, ...markers } = candidate
  const event = { type, seq, time: input.time, data, ...markers } as SessionEvent
  const planned = planSurfaceEvent(foldSurfaceState(input.events), event, seq => input.events[seq])
  if (!planned.ok) return rejectAt(planned.fault, { seq })
  return accept(event)
}

// ---- relations (PROC-7) -----------------------------------------------------------------------

export interface Violation {
  code: Fault['code']
  seq: number
  /** What the vetoed event breaks, in words (no operation's value carries it). */
  message: string
}

export interface RelationState {
  turns: TurnState
  pending: PendingCalls
  compaction: CompactionRelationState
}

type Checked = { ok: true; state: RelationState } | { ok: false; fault: Fault }

/** Chapters 09, 10 and 13 in that order (TURN-12, COMP-11); the next state only when all pass. */
export function checkEventRelations(state: RelationState, event: SessionEvent, stale: ReadonlySet<number>): Checked {
  const turns = checkTurnRelations(state.turns, event)
  if (!turns.ok) return turns
  const orphan = pairingFault(state.pending, event)
  if (orphan !== undefined) return { ok: false, fault: orphan }
  const compaction = checkCompactionRelations(state.compaction, event, state.turns.openTurn, stale)
  if (!compaction.ok) return compaction
  return { ok: true, state: { turns: turns.state, pending: nextPendingCalls(state.pending, event), compaction: compaction.state } }
}

/** Every vetoed event, in seq order; a vetoed event leaves the whole relation state as it was. */
export function runRelations(events: readonly SessionEvent[]): { violations: Violation[] } {
  const stale = staleStartSeqs(events)
  let state: RelationState = { turns: initialTurnState, pending: noPendingCalls, compaction: initialCompactionState }
  const violations: Violation[] = []
  for (const event of events) {
    const checked = checkEventRelations(state, event, stale)
    if (checked.ok) state = checked.state
    else violations.push({ code: checked.fault.code, seq: event.seq, message: checked.fault.message })
  }
  return { violations }
}
