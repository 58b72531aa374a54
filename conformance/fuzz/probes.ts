// The operation inputs a run yields, one probe per operation. A probe is already in the shape of a
// one-step vector case (a header, a log, the step's own members), and its input is expanded exactly
// as conformance/vector-cases.ts expands such a case, so a counterexample written as a vector replays
// the very call that disagreed.
import { reference } from '../../reference/index.ts'
import { isNonNegativeSafeInteger, isRecord, snapshotJson } from '../../reference/lossless-json.ts'
import { BASE_TIME } from '../builder.ts'
import { saltedChooser, seededChooser } from '../generators/index.ts'
import { CONTEXT_NOT_OBJECT_VARIANT, withContextDataNotObject, withContextZeroAndNullMembers } from './context-data.ts'
import { withMessageEdgeEdits } from './message-edits.ts'
import { withCrashTailEdit } from './crash-tails.ts'
import { withRelationEdit } from './relation-edits.ts'
import { withSurfaceFaultPair } from './surface-check-order.ts'
import { withSurfaceTypeLookalike } from './type-lookalikes.ts'
import { withShapeFault } from './shape-faults.ts'
import { withKnownTypeMarkedIgnorable } from './ignorable-known.ts'
import { WRITER_CHECKS } from '../spec-catalog.ts'
import { isAcceptedHeader, isLossless, openResult, OVER_LOADED_LOG } from '../input-domain.ts'
import type { OperationName } from '../vector-cases.ts'
import type { DrawnRun, Position, RunPlan } from './draw.ts'
import { atNegativeZeroBoundary, BOOLEAN_BOUNDARY_VARIANT, booleanBoundary, boundaryOffLog, forkAtNegativeZero, OMITTED_BOUNDARY, NEGATIVE_ZERO_BOUNDARY_VARIANT, NON_NUMBER_BOUNDARY_VARIANT, nonNumberBoundary } from './fork-boundary.ts'
import { probedSessionId } from './session-ids.ts'
import { withEdgeOffSurface, withEdgesReversed } from './region-edges.ts'
import { withChunkMembersReversed } from './chunk-order.ts'
import { withPackingEdge } from './packing-edges.ts'
import { withEmptyChunkDeltas } from './chunk-deltas.ts'
import { appendSharingCallId } from './shared-call-id.ts'
import { withCandidateEdit } from './candidate-edits.ts'
import { headerPair, OUTSIDE_HDR_1_VARIANT } from './header-pairs.ts'
import { withStoredHeadersOutsideHdr1 } from './stored-headers.ts'
import { STORED_ROW_VARIANT, withStoredRowOutOfRange } from './stored-rows.ts'
import { ARTIFACT_TEXT_VARIANT, withArtifactTextEdit } from './artifact-text.ts'
import { asZstdFrames, ZSTD_FRAMES_VARIANT } from './zstd-frames.ts'
import { UNCLOSEABLE_CALL_ID_VARIANT, withUncloseableCalls } from './uncloseable-call-ids.ts'
import { END_SEED_IN_TURN_VARIANT, ENTRY_UNDEFINED_VARIANT, passesEntryUndefined, withEndSeedInOpenTurn } from './compaction-entries.ts'
import { withVocabularyGrowth } from './vocabulary-growth.ts'
import { forkNow, sessionIdMember, STORE_HEADER_UNDEFINED_VARIANT, storesWithoutHeader, UNDEFINED_MEMBERS_VARIANT, undefinedMembers } from './input-members.ts'

/** The profile a vector of each operation runs under (vectors/README.md: the case's profile). */
export const OPERATION_PROFILE: Partial<Record<OperationName, string>> = {
  load: 'reader', surface: 'reader', messages: 'reader', requestHeader: 'reader', requestContext: 'reader',
  headerEquals: 'reader', append: 'writer', relations: 'relations', repair: 'repair', resume: 'repair',
  compactionState: 'compaction', regionBalance: 'compaction', fork: 'fork',
  decodeJsonl: 'jsonl', encodeJsonl: 'jsonl', artifactPath: 'jsonl', store: 'storage',
}

export const PROBED_OPERATIONS = Object.keys(OPERATION_PROFILE) as OperationName[]

/**
 * The profile among `claimed` under which an operation is asked: its own, else `writer` for the three a
 * writer provides as well (profiles.md); undefined when no claimed profile takes it.
 */
export function askingProfile(operation: OperationName, claimed: readonly string[]): string | undefined {
  const own = OPERATION_PROFILE[operation]
  if (own !== undefined && claimed.includes(own)) return own
  return claimed.includes('writer') && WRITER_CHECKS.has(operation) ? 'writer' : undefined
}

/** The clock that resume and fork are given. */
export const NOW = 1_790_000_000_000
const CHILD_ID = 'fork-child'
/** The members a builder `event:` item can carry for an append candidate (vectors/README.md). */
const CANDIDATE_MEMBERS = new Set(['type', 'data', 'surfaceOp', 'sourceEventSeqs'])
/** The members of a log record: a candidate's, and those the writer assigns. */
const RECORD_MEMBERS = new Set([...CANDIDATE_MEMBERS, 'seq', 'time', 'ignorable'])

/** How a probe leaves the shapes producers write, where the spec still says what a reader answers. */
export const PROBE_VARIANTS = [
  OUTSIDE_HDR_1_VARIANT, CONTEXT_NOT_OBJECT_VARIANT, STORED_ROW_VARIANT, NEGATIVE_ZERO_BOUNDARY_VARIANT, UNCLOSEABLE_CALL_ID_VARIANT,
  ENTRY_UNDEFINED_VARIANT, END_SEED_IN_TURN_VARIANT, UNDEFINED_MEMBERS_VARIANT, BOOLEAN_BOUNDARY_VARIANT, STORE_HEADER_UNDEFINED_VARIANT,
  ARTIFACT_TEXT_VARIANT, NON_NUMBER_BOUNDARY_VARIANT, ZSTD_FRAMES_VARIANT,
] as const
export type ProbeVariant = typeof PROBE_VARIANTS[number]

export interface Probe {
  operation: OperationName
  /** The case's header; only for operations whose vector input carries it (append among them, for its legacy message ids). */
  header?: unknown
  /** The case's log, as expanded events. */
  events: unknown[]
  /** The step's own members (not for append). */
  extra: Record<string, unknown>
  /** append: the candidate and whether it must be written verbatim (`record:`) rather than as `event:`. */
  candidate?: unknown
  candidateTime?: unknown
  verbatimCandidate?: boolean
  /** It comes from a run whose log is in older shapes (FuzzRun.olderShapes). */
  olderShapes?: true
  /**
   * How the probe's input was made to leave the shapes producers write: its snapshots hold values
   * outside HDR-1 (header-pairs.ts, stored-headers.ts), its contexts data that is no object
   * (context-data.ts), its artifact a packed row out of ROW-3's range (stored-rows.ts) or text no
   * writer writes (artifact-text.ts), its fork
   * boundary is -0 or a boolean (fork-boundary.ts), its log is cut inside a turn with calls whose ids
   * no closer can carry (uncloseable-call-ids.ts), its compactionState entry is undefined or its log
   * ends in an end-seed inside an open turn (compaction-entries.ts), or its artifactPath or fork
   * members, or its store header, are undefined (input-members.ts). Its disagreements are classes of
   * their own (compare.ts).
   */
  variant?: ProbeVariant
}

type Derive = (run: DrawnRun) => Probe | undefined

function overLog(operation: OperationName, extra: (run: DrawnRun) => Record<string, unknown> | undefined = () => ({})): Derive {
  return run => {
    const members = extra(run)
    return members === undefined ? undefined : { operation, header: run.header, events: run.events, extra: members }
  }
}

/**
 * Whether the run's log takes the edits made only of valid logs in current shapes: not a log in older
 * shapes, nor its current-shapes twin, which must be probed as that log was (driver.ts ownerOf).
 */
function takesValidLogEdits(run: DrawnRun): boolean {
  return run.mutation === undefined && run.olderShapes !== true && run.twinOfOlderShapes !== true
}

/**
 * The operation over the log, or, when the run's is a valid log in current shapes, over it as the first
 * of `edits` whose draw takes it edits it (unmarked).
 */
function overValidLogEditedBy(operation: OperationName, ...edits: ((events: readonly unknown[], planSeed: number) => unknown[] | undefined)[]): Derive {
  return run => {
    let edited: unknown[] | undefined
    for (const edit of takesValidLogEdits(run) ? edits : []) edited ??= edit(run.events, run.plan.batchSeed)
    return { operation, header: run.header, extra: {}, events: edited ?? run.events }
  }
}

/** An index in [0, length) from a fraction in thousandths. */
function at(fraction: number, length: number): number {
  return Math.min(length - 1, Math.floor((fraction * length) / 1000))
}

/** The indexes after which no turn is open. */
function betweenTurns(events: readonly unknown[]): number[] {
  let open = false
  return events.flatMap((event, index) => {
    const type = isRecord(event) ? event['type'] : undefined
    if (type === 'turn/start') open = true
    if (type === 'turn/end') open = false
    return open ? [] : [index]
  })
}

const REQUEST_RECORDS = new Set(['request/header', 'request/context'])

function requestRecords(events: readonly unknown[]): number[] {
  return events.flatMap((event, index) => (isRecord(event) && REQUEST_RECORDS.has(event['type'] as string) ? [index] : []))
}

/** The seq a plan's position names (the index, on the logs the probes see); undefined on an empty log. */
function seqAt(events: readonly unknown[], position: Position<'events' | 'between-turns' | 'request-records'>): number | undefined {
  if (events.length === 0) return undefined
  const named = position.among === 'between-turns' ? betweenTurns(events) : position.among === 'request-records' ? requestRecords(events) : []
  // Any event, when the log has none of the ones the position names.
  const pool = named.length > 0 ? named : events.map((_, index) => index)
  return pool[at(position.at, pool.length)]
}

/** The surface nodes the reference folds from the log; none when it rejects the log. */
function surfaceNodes(run: DrawnRun): number[] {
  const surface = reference.surface({ header: run.header, events: run.events })
  return surface.ok ? surface.value.nodes : []
}

/**
 * The plan's node or region of the surface, now and then with its edges swapped, and now and then with
 * an edge that is no node (region-edges.ts).
 */
function regionMembers(run: DrawnRun): Record<string, unknown> {
  const nodes = surfaceNodes(run)
  return withEdgeOffSurface(withEdgesReversed(planRegion(run, nodes), run.plan.batchSeed), run.plan.batchSeed, run.events.length, nodes)
}

function planRegion(run: DrawnRun, nodes: readonly number[]): Record<string, unknown> {
  if (nodes.length === 0) return { seq: 0 }
  const first = at(run.plan.node, nodes.length)
  if (run.plan.regionWidth === undefined) return { seq: nodes[first] }
  const last = first + at(run.plan.regionWidth, nodes.length - first)
  return { start: nodes[first], end: nodes[last] }
}

/** The event an append probe takes from the log: the plan's, else the one an operator broke (so the writer meets the fault too), else the last. */
function appendedIndex(run: DrawnRun): number {
  if (run.plan.appendAt !== undefined) return at(run.plan.appendAt, run.events.length)
  return run.faultSeq !== undefined && run.faultSeq < run.events.length ? run.faultSeq : run.events.length - 1
}

/**
 * The append: an operator's broken candidate onto its prefix; in one valid log in four, one of its
 * tool-result rewrites onto events in which an earlier step's result shares its call id
 * (shared-call-id.ts); in one of the other valid logs in four, one of its events, edited where a
 * writer's check is looser, onto the ones before it (candidate-edits.ts); where neither is drawn, in
 * the same one valid log in four as the log's own rewrites, a rewrite that keeps a node's data, onto
 * the whole log in which an earlier result shares its call id (shared-call-id.ts); or else one of the
 * log's events (appendedIndex) appended onto the ones before it (in a valid log, one time in four with
 * one known type's events among them marked ignorable: ignorable-known.ts), its members but seq, time
 * and ignorable (or the record itself when it is no object). A candidate with members beyond those an
 * `event:` item carries is written verbatim, and then, as the vector format has it, its own `time`
 * member is the time input, or the builder's clock when it has none.
 */
function appendProbe(run: DrawnRun): Probe | undefined {
  let events = run.events
  let candidate = run.candidate
  let time: unknown = run.candidateTime
  const valid = takesValidLogEdits(run)
  const sharing = valid ? appendSharingCallId(events, run.plan.batchSeed, 'logged') : undefined
  if (sharing !== undefined) ({ events, candidate, time } = sharing)
  else if (candidate === undefined) {
    if (events.length === 0) return undefined
    const appended = appendedIndex(run)
    const edited = valid ? withCandidateEdit(events, appended, run.plan.batchSeed) : undefined
    const sharingOfNode = valid && edited === undefined ? appendSharingCallId(events, run.plan.batchSeed, 'node') : undefined
    if (edited !== undefined) {
      events = events.slice(0, edited.index)
      candidate = edited.candidate
      time = edited.time
    } else if (sharingOfNode !== undefined) ({ events, candidate, time } = sharingOfNode)
    else {
      const event = events[appended]
      const before = events.slice(0, appended)
      events = (valid ? withKnownTypeMarkedIgnorable(before, run.plan.batchSeed) : undefined) ?? before
      // A record that is no object is offered as it is: the writer meets ENV-1 as the reader did.
      if (!isRecord(event)) candidate = event
      else {
        if (holdsForeignFault(event)) return undefined
        const { seq: _seq, time: eventTime, ignorable: _ignorable, ...rest } = event
        candidate = rest
        // The time of a record an operator broke is no writer's clock: the builder's stands in, as it
        // does when the vector written from the probe is replayed without a time.
        time = isNonNegativeSafeInteger(eventTime) ? eventTime : BASE_TIME + events.length
      }
    }
  }
  const verbatim = !isRecord(candidate) || Object.keys(candidate).some(key => !CANDIDATE_MEMBERS.has(key))
  if (verbatim) time = isRecord(candidate) && candidate['time'] !== undefined ? candidate['time'] : BASE_TIME + events.length
  // PROC-4 defines append for no other time.
  if (!isNonNegativeSafeInteger(time)) return undefined
  return { operation: 'append', header: run.header, events, extra: {}, candidate, candidateTime: time, verbatimCandidate: verbatim }
}

/**
 * Whether a record has a member a candidate does not carry holding a value outside the lossless JSON
 * domain (one a load operator put there). A writer whose API takes a candidate's members alone never
 * sees it, so such a probe would only repeat load's finding under a class wide enough to hide a writer
 * that lets the same value through in `data`.
 */
function holdsForeignFault(record: Record<string, unknown>): boolean {
  return Object.entries(record).some(([key, member]) => !RECORD_MEMBERS.has(key) && snapshotJson(member).fault !== undefined)
}

/** JSONL-8 batches: cuts drawn from the plan's seed, so a shorter log is cut the same way. */
function batchesOf(events: readonly unknown[], plan: RunPlan): unknown[][] {
  const chooser = seededChooser(plan.batchSeed)
  const batches: unknown[][] = []
  for (const event of events) {
    if (batches.length === 0 || chooser.int(5) === 0) batches.push([])
    batches.at(-1)!.push(event)
  }
  return batches
}

/**
 * Whether the run's header and events are lossless JSON (chapter 02): encodeJsonl is defined for
 * nothing else (JSONL-4), as a writer never persists such a value (JSON-13).
 */
function isLosslessJson(run: DrawnRun): boolean {
  return isLossless(run.header === undefined ? run.events : [run.header, run.events])
}

/** The header store and encodeJsonl are given for a run without one: a session is stored with its header (STORE-1). */
const STORE_HEADER = { version: 0, id: 'fuzz-store', createdAt: BASE_TIME }

/**
 * store, for a log inside its domain (input-domain.ts: one a writer could have written under a header
 * chapter 03 accepts, or one whose first fault is a value outside the lossless domain, STORE-1, STORE-4).
 * Other logs are no probe: a backend may check more than the domain. When its draw takes it, the header
 * of a log inside the domain is then made undefined (input-members.ts), which STORE-4 refuses first.
 */
function storeProbe(run: DrawnRun): Probe | undefined {
  if (run.events.length === 0) return undefined
  const header = run.header ?? STORE_HEADER
  const batches = batchesOf(run.events, run.plan)
  if (openResult('store', { header, batches }) !== undefined) return undefined
  if (storesWithoutHeader(run.plan.batchSeed)) return { operation: 'store', events: [], extra: { header: undefined, batches }, variant: STORE_HEADER_UNDEFINED_VARIANT }
  return { operation: 'store', events: [], extra: { header, batches } }
}

function encoded(run: DrawnRun): string | undefined {
  if (!isLosslessJson(run)) return undefined
  const result = reference.encodeJsonl({ header: run.header, batches: batchesOf(run.events, run.plan) })
  return result.ok ? result.value.text : undefined
}

/** The artifact bytes after the plan's damage: torn inside the record lines, torn just before a line feed, or one line garbled. */
function damaged(text: string, plan: RunPlan): Buffer {
  const bytes = Buffer.from(text, 'utf8')
  const headerEnd = bytes.indexOf(0x0a) + 1
  if (plan.damage === 'tear') return bytes.subarray(0, headerEnd + at(plan.damageAt, bytes.length - headerEnd + 1))
  if (plan.damage === 'unterminated') {
    const lineFeeds: number[] = []
    for (let at = bytes.indexOf(0x0a, headerEnd); at >= 0; at = bytes.indexOf(0x0a, at + 1)) lineFeeds.push(at)
    return lineFeeds.length === 0 ? bytes : bytes.subarray(0, lineFeeds[at(plan.damageAt, lineFeeds.length)])
  }
  if (plan.damage === 'none') return bytes
  const lines = text.split('\n')
  if (lines.length <= 2) return bytes
  const target = 1 + at(plan.damageAt, lines.length - 2)
  lines[target] = lines[target]!.slice(0, Math.ceil(lines[target]!.length / 2))
  return Buffer.from(lines.join('\n'), 'utf8')
}

/** The storage input: `text` when the bytes are UTF-8 that survives a round trip, else `base64`. */
function storageMembers(bytes: Buffer): Record<string, unknown> {
  const text = bytes.toString('utf8')
  return Buffer.from(text, 'utf8').equals(bytes) ? { text } : { base64: bytes.toString('base64') }
}

/** Salts the plan's seed for the empty window, so that this draw is none of the other edits' nor the batch cuts'. */
const EMPTY_WINDOW_SALT = 0x454d5057

/**
 * surface over the whole log, or over a window of its tail whose first event is at `baseSeq`; one
 * window in eight is the empty one past the log's last event, which folds to the empty surface (SURF-3,
 * ENV-10).
 */
function surfaceProbe(run: DrawnRun): Probe {
  if (run.plan.window === undefined || run.events.length === 0) return { operation: 'surface', header: run.header, events: run.events, extra: {} }
  if (saltedChooser(run.plan.batchSeed, EMPTY_WINDOW_SALT).int(8) === 0) return { operation: 'surface', header: run.header, events: [], extra: { baseSeq: run.events.length } }
  const baseSeq = at(run.plan.window, run.events.length)
  return { operation: 'surface', header: run.header, events: run.events.slice(baseSeq), extra: { baseSeq } }
}

function atSeqMembers(run: DrawnRun): Record<string, unknown> {
  const atSeq = run.plan.atSeq === undefined ? undefined : seqAt(run.events, run.plan.atSeq)
  return atSeq === undefined ? {} : { atSeq }
}

type LogEdit = (events: readonly unknown[], planSeed: number, atSeq?: number) => unknown[] | undefined

/**
 * A request fold at the plan's seq over the log, or over the log as `edit` leaves the shapes producers
 * write (when its draw does), marked with `variant`; else over the log as `plainEdit` draws it (with
 * values a reader keeps as they are), unmarked.
 */
function atSeqOverEditedLog(operation: OperationName, edit: LogEdit, variant: ProbeVariant, plainEdit?: LogEdit): Derive {
  return run => {
    const extra = atSeqMembers(run)
    const atSeq = extra['atSeq'] as number | undefined
    const edited = edit(run.events, run.plan.batchSeed, atSeq)
    if (edited !== undefined) return { operation, header: run.header, events: edited, extra, variant }
    return { operation, header: run.header, events: plainEdit?.(run.events, run.plan.batchSeed, atSeq) ?? run.events, extra }
  }
}

/**
 * repair or resume over the log, or, when the draw takes it, over the valid log cut inside a turn with
 * calls whose ids no closer can carry (uncloseable-call-ids.ts), marked as that variant; else, when the
 * crash-tail draw takes it, over the valid log edited as crash-tails.ts says, unmarked.
 */
function overLogWithUncloseableCalls(operation: OperationName, extra: Record<string, unknown>): Derive {
  return run => {
    const valid = takesValidLogEdits(run)
    const edited = valid ? withUncloseableCalls(run.events, run.plan.batchSeed) : undefined
    if (edited !== undefined) return { operation, header: run.header, events: edited, extra, variant: UNCLOSEABLE_CALL_ID_VARIANT }
    return { operation, header: run.header, events: (valid ? withCrashTailEdit(run.events, run.plan.batchSeed) : undefined) ?? run.events, extra }
  }
}

/** The valid log in current shapes with one known type's events marked ignorable, when the draw takes it (ignorable-known.ts). */
function withKnownTypeMarked(run: DrawnRun): unknown[] | undefined {
  return takesValidLogEdits(run) ? withKnownTypeMarkedIgnorable(run.events, run.plan.batchSeed) : undefined
}

/**
 * compactionState over the log with the plan's entry, if any; when the edits' draws take them, with an
 * entry of undefined, or over the valid log cut inside a turn and ended by an end-seed
 * (compaction-entries.ts), marked as that variant; else, when that draw takes it, over the valid log
 * with one known type's events marked ignorable (ignorable-known.ts), unmarked.
 */
function compactionStateProbe(run: DrawnRun): Probe {
  const probe: Probe = { operation: 'compactionState', header: run.header, events: withKnownTypeMarked(run) ?? run.events, extra: {} }
  const entry = run.plan.entry
  if (entry === undefined) {
    return passesEntryUndefined(run.plan.batchSeed) ? { ...probe, events: run.events, extra: { entry: undefined }, variant: ENTRY_UNDEFINED_VARIANT } : probe
  }
  const edited = takesValidLogEdits(run) ? withEndSeedInOpenTurn(run.events, run.plan.batchSeed) : undefined
  if (edited === undefined) return { ...probe, extra: { entry } }
  return { ...probe, events: edited, extra: { entry }, variant: END_SEED_IN_TURN_VARIANT }
}

/** The probe with the optional members input-members.ts draws given as undefined, marked as that variant. */
function withUndefinedMembers(probe: Probe, operation: 'artifactPath' | 'fork', planSeed: number): Probe {
  const members = undefinedMembers(operation, probe.extra, planSeed)
  return members === undefined ? probe : { ...probe, extra: { ...probe.extra, ...members }, variant: UNDEFINED_MEMBERS_VARIANT }
}

/** The members input-members.ts draws a `sessionId` into, for a run whose log is valid and in current shapes. */
function sessionIdOf(run: DrawnRun): Record<string, unknown> {
  return (takesValidLogEdits(run) ? sessionIdMember(run.header, run.plan.batchSeed) : undefined) ?? {}
}

const loadOverEditedLog = overValidLogEditedBy('load', withSurfaceFaultPair, withSurfaceTypeLookalike, withKnownTypeMarkedIgnorable, withShapeFault)

const DERIVE: Record<string, Derive> = {
  // A sessionId only for a log no edit changes (nor the vocabulary growth, which takes it away): one
  // naming another session would hide the edit's fault.
  load: run => {
    const probe = loadOverEditedLog(run)!
    return probe.events === run.events ? { ...probe, extra: sessionIdOf(run) } : probe
  },
  surface: surfaceProbe,
  messages: overValidLogEditedBy('messages', withMessageEdgeEdits),
  requestHeader: atSeqOverEditedLog('requestHeader', withStoredHeadersOutsideHdr1, OUTSIDE_HDR_1_VARIANT),
  requestContext: atSeqOverEditedLog('requestContext', withContextDataNotObject, CONTEXT_NOT_OBJECT_VARIANT, withContextZeroAndNullMembers),
  headerEquals: run => {
    const { pair, outsideHdr1 } = headerPair(run.events, run.plan.batchSeed)
    return { operation: 'headerEquals', events: [], extra: pair, ...(outsideHdr1 ? { variant: OUTSIDE_HDR_1_VARIANT } : {}) }
  },
  relations: overValidLogEditedBy('relations', withRelationEdit, withKnownTypeMarkedIgnorable),
  repair: overLogWithUncloseableCalls('repair', {}),
  resume: overLogWithUncloseableCalls('resume', { now: NOW }),
  compactionState: compactionStateProbe,
  regionBalance: run => {
    const probe = overLog('regionBalance', regionMembers)(run)
    const marked = probe === undefined ? undefined : withKnownTypeMarked(run)
    return marked === undefined ? probe : { ...probe!, events: marked }
  },
  fork: run => {
    const boundary = seqAt(run.events, run.plan.boundary)
    if (boundary === undefined) return undefined
    const now = forkNow(run.plan.batchSeed, NOW)
    const probe: Probe = { operation: 'fork', header: run.header, events: run.events, extra: { boundary, childId: CHILD_ID, now } }
    if (forkAtNegativeZero(run.plan.batchSeed)) return atNegativeZeroBoundary(probe)
    const boolean = booleanBoundary(run.plan.batchSeed)
    if (boolean !== undefined) return { ...probe, extra: { ...probe.extra, boundary: boolean }, variant: BOOLEAN_BOUNDARY_VARIANT }
    const nonNumber = nonNumberBoundary(run.plan.batchSeed)
    if (nonNumber !== undefined) return { ...probe, extra: { ...probe.extra, boundary: nonNumber }, variant: NON_NUMBER_BOUNDARY_VARIANT }
    const offLog = boundaryOffLog(run.plan.batchSeed, run.events.length)
    if (offLog === OMITTED_BOUNDARY) {
      const { boundary: _boundary, ...rest } = probe.extra
      return withUndefinedMembers({ ...probe, extra: rest }, 'fork', run.plan.batchSeed)
    }
    if (offLog !== undefined) return withUndefinedMembers({ ...probe, extra: { ...probe.extra, boundary: offLog } }, 'fork', run.plan.batchSeed)
    // A sessionId only at a boundary of the log no other draw changed: one naming another session would
    // leave the result open (PROC-9), and the boundary's check unasked.
    return withUndefinedMembers({ ...probe, extra: { ...probe.extra, ...sessionIdOf(run) } }, 'fork', run.plan.batchSeed)
  },
  append: appendProbe,
  decodeJsonl: run => {
    const text = encoded(run)
    if (text === undefined) return undefined
    const edited = withStoredRowOutOfRange(text, run.plan.batchSeed)
    // An edited row is the probe's one departure from what a writer stores: no damage beside it.
    if (edited !== undefined) return { operation: 'decodeJsonl', events: [], extra: storageMembers(Buffer.from(edited, 'utf8')), variant: STORED_ROW_VARIANT }
    const textEdited = withArtifactTextEdit(text, run.plan.batchSeed)
    if (textEdited !== undefined) return { operation: 'decodeJsonl', events: [], extra: storageMembers(Buffer.from(textEdited, 'utf8')), variant: ARTIFACT_TEXT_VARIANT }
    const bytes = damaged(text, run.plan)
    const framed = asZstdFrames(bytes, run.plan.batchSeed)
    if (framed !== undefined) return { operation: 'decodeJsonl', events: [], extra: { encoding: 'zstd', base64: framed.toString('base64') }, variant: ZSTD_FRAMES_VARIANT }
    return { operation: 'decodeJsonl', events: [], extra: storageMembers(bytes) }
  },
  encodeJsonl: run => {
    const header = run.header === undefined ? STORE_HEADER : run.header
    if (!isLosslessJson(run) || !isAcceptedHeader(header)) return undefined
    const seed = run.plan.batchSeed
    const batches = withPackingEdge(withEmptyChunkDeltas(withChunkMembersReversed(batchesOf(run.events, run.plan), seed), seed), seed)
    return { operation: 'encodeJsonl', events: [], extra: { header, batches } }
  },
  artifactPath: run => {
    if (!isRecord(run.header)) return undefined
    const { id, cwd } = run.header
    const probe: Probe = { operation: 'artifactPath', events: [], extra: { sessionId: probedSessionId(run.plan.batchSeed, id), ...(cwd === undefined ? {} : { cwd }) } }
    return withUndefinedMembers(probe, 'artifactPath', run.plan.batchSeed)
  },
  store: storeProbe,
}

/** The operations that take load's `vocabulary` input (PROC-9): all that take a log, but append and fork. */
const TAKES_VOCABULARY: ReadonlySet<OperationName> = new Set([...OVER_LOADED_LOG, 'load' as const].filter(operation => operation !== 'fork'))

/** The probe over its log followed by a type v0-rc8 adds, when the draw takes it, over a valid log that no other edit marked. */
function withTypeOfAGrownVocabulary(probe: Probe, run: DrawnRun): Probe {
  // A stored log read with a vocabulary of the user's (`fuzz --vocabulary`) keeps it.
  if (!TAKES_VOCABULARY.has(probe.operation) || probe.variant !== undefined || !takesValidLogEdits(run) || run.vocabulary !== undefined) return probe
  const grown = withVocabularyGrowth(probe.events, run.plan.batchSeed, probe.operation === 'load')
  if (grown === undefined) return probe
  const vocabulary = grown.vocabulary === undefined ? {} : { vocabulary: grown.vocabulary }
  // Not a sessionId (input-members.ts): one naming another session would hide the grown type's verdict.
  const { sessionId: _sessionId, ...extra } = probe.extra
  return { ...probe, events: grown.events, extra: { ...extra, ...vocabulary } }
}

/** The probe reading its log with the run's vocabulary (a stored log's, `fuzz --vocabulary`), when it takes one. */
function withRunVocabulary(probe: Probe, run: DrawnRun): Probe {
  if (run.vocabulary === undefined || !TAKES_VOCABULARY.has(probe.operation)) return probe
  return { ...probe, extra: { ...probe.extra, vocabulary: run.vocabulary } }
}

export function deriveProbe(run: DrawnRun, operation: OperationName): Probe | undefined {
  const derived = DERIVE[operation]?.(run)
  const probe = derived === undefined ? undefined : withRunVocabulary(withTypeOfAGrownVocabulary(derived, run), run)
  return probe !== undefined && run.olderShapes === true ? { ...probe, olderShapes: true } : probe
}

/** The operation's input, as vector-cases.ts expands the one-step case the probe stands for. */
export function probeInput(probe: Probe): Record<string, unknown> {
  const header = probe.header === undefined ? {} : { header: probe.header }
  if (probe.operation === 'append') return { ...header, events: probe.events, candidate: probe.candidate, time: probe.candidateTime }
  return { ...header, events: probe.events, ...probe.extra }
}
