/**
 * The reference interpreter of session-log format v0: its metadata and the operations of
 * spec/00-processing.md, each taking one plain input object and returning a Result.
 *
 * Every operation that takes `events` first runs `load` over them (with the input's header, session
 * id and vocabulary), so legacy shapes are upgraded before any fold reads them; a log that `load`
 * rejects gets that rejection, since the operations are defined only for logs `load` accepts.
 */
import packageJson from '../package.json' with { type: 'json' }
import { accept, reject, type Result } from './result.ts'
import { isNonNegativeSafeInteger, isRecord, optionalSnapshot, snapshotJson, type Snapshot } from './lossless-json.ts'
import { appendCandidate, loadLog, runRelations, type Violation } from './processing.ts'
import { foldSurface, type SurfaceValue } from './surface.ts'
import { deriveMessages } from './derived-messages.ts'
import { canonicalHeader, foldRequestContext, foldRequestHeader, headerEquals as canonicalHeadersEqual } from './request-header.ts'
import { repairClosers } from './repair.ts'
import { withEndSeed } from './seeds.ts'
import { compactionState, type CompactionStateValue } from './compaction.ts'
import { nodeBalance, regionLegality, type NodeBalance, type RegionValue } from './region-balance.ts'
import { forkChild, type ForkValue } from './fork.ts'
import { artifactBytes, decodeRawJsonl, encodeRawJsonl, idSegment, projectDirectory, type JsonlValue } from './jsonl.ts'
import { decodeZstdArtifact } from './zstd.ts'
import { storeBatches, type StoredSession } from './storage.ts'
import { heldElements, recordsOf } from './array-indices.ts'
import type { SessionEvent } from './envelope.ts'
import type { JsonRecord } from './lossless-json.ts'

export type Input = Record<string, unknown>

export const PROFILES = ['reader', 'writer', 'relations', 'repair', 'compaction', 'fork', 'jsonl', 'storage'] as const

/** The input's header read once (JSON-11); undefined when the input has none. */
function headerOf(input: Input): Snapshot | undefined {
  return optionalSnapshot(input['header'])
}

/** `header` is the input's header read once (JSON-11): every check of it, and the fork's copy, see one value. */
function loaded(input: Input, header: Snapshot | undefined, checkVocabulary = true, baseSeq = 0): Result<SessionEvent[]> {
  return loadLog({
    header,
    events: recordsOf(input['events']),
    sessionId: input['sessionId'],
    vocabulary: input['vocabulary'],
    checkVocabulary,
    baseSeq,
  })
}

/** Run `fold` over the loaded events and the header load checked, or pass load's rejection on. */
function overLoaded<T>(input: Input, fold: (events: SessionEvent[], header: Snapshot | undefined) => Result<T>): Result<T> {
  const header = headerOf(input)
  const events = loaded(input, header)
  return events.ok ? fold(events.value, header) : events
}

function optionalSeq(value: unknown): number | undefined {
  // Stryker disable next-line ConditionalExpression: HDR-7: an atSeq that is not the seq of an event has no defined value
  return typeof value === 'number' ? value : undefined
}

function load(input: Input): Result<SessionEvent[]> {
  return loaded(input, headerOf(input))
}

/** The log is read as a writer reads it: any type is accepted (UNK-2). */
function append(input: Input): Result<SessionEvent> {
  const events = loaded(input, headerOf(input), false)
  return events.ok ? appendCandidate({ events: events.value, candidate: input['candidate'], time: input['time'] }) : events
}

/** With `baseSeq`, the events are a window of a log that starts at that seq (SURF-3, ENV-10). */
function surface(input: Input): Result<SurfaceValue> {
  const base = isNonNegativeSafeInteger(input['baseSeq']) ? input['baseSeq'] : 0
  // Stryker disable next-line BooleanLiteral: spec/00-processing.md defines surface only for logs that load accepts; a refused log has no defined surface
  const events = loaded(input, headerOf(input), true, base)
  return events.ok ? accept(foldSurface(events.value, base)) : events
}

function messages(input: Input): Result<unknown[]> {
  return overLoaded(input, events => accept(deriveMessages(events)))
}

function requestHeader(input: Input): Result<JsonRecord | null> {
  return overLoaded(input, events => accept(foldRequestHeader(events, optionalSeq(input['atSeq']))))
}

function requestContext(input: Input): Result<JsonRecord | null> {
  return overLoaded(input, events => accept(foldRequestContext(events, optionalSeq(input['atSeq']))))
}

/** PROC-7: each violation as its code and seq, the value the spec gives the operation. */
function relations(input: Input): Result<{ violations: Pick<Violation, 'code' | 'seq'>[] }> {
  return overLoaded(input, events => accept({ violations: runRelations(events).violations.map(({ code, seq }) => ({ code, seq })) }))
}

/** The closers of the loaded log, or the fault `load` reports for the log followed by them (REPAIR-13). */
function closersOf(input: Input, header: Snapshot | undefined, events: SessionEvent[]): Result<SessionEvent[]> {
  const closers = repairClosers(events)
  const repaired = loaded({ ...input, events: [...events, ...closers] }, header)
  return repaired.ok ? accept(closers) : repaired
}

function repair(input: Input): Result<{ closers: SessionEvent[] }> {
  return overLoaded(input, (events, header) => {
    const closers = closersOf(input, header, events)
    return closers.ok ? accept({ closers: closers.value }) : closers
  })
}

/** SEED-10: the loaded events, their repair closers, then the end-seed marker unless one ends them. */
function resume(input: Input): Result<SessionEvent[]> {
  return overLoaded(input, (events, header) => {
    const closers = closersOf(input, header, events)
    return closers.ok ? accept(withEndSeed([...events, ...closers.value], input['now'] as number)) : closers
  })
}

function compaction(input: Input): Result<CompactionStateValue> {
  // Stryker disable next-line ConditionalExpression: entry is automatic, manual or absent (spec/00-processing.md); other values are outside the operation
  const entry = input['entry'] === 'automatic' || input['entry'] === 'manual' ? input['entry'] : undefined
  return overLoaded(input, events => compactionState(events, entry))
}

function regionBalance(input: Input): Result<NodeBalance | RegionValue> {
  return overLoaded<NodeBalance | RegionValue>(input, events => (input['seq'] !== undefined
    ? nodeBalance(events, input['seq'])
    : regionLegality(events, input['start'], input['end'])))
}

/** FORK-4: the seed copies the loaded prefix, legacy upgrades applied; FORK-5: the child header the source's as load read it. */
function fork(input: Input): Result<ForkValue> {
  return overLoaded(input, (events, snapshot) => {
    const header = snapshot?.value
    const sourceId = typeof input['sessionId'] === 'string' ? input['sessionId'] : isRecord(header) ? header['id'] : undefined
    return forkChild({
      header: isRecord(header) ? header : undefined,
      sourceId,
      events,
      boundary: input['boundary'],
      childId: input['childId'],
      now: input['now'] as number,
    })
  })
}

/** HDR-5 over the canonical forms (HDR-3) of two epoch headers. */
function headerEquals(input: Input): Result<boolean> {
  const canonical = (value: unknown): JsonRecord => canonicalHeader(isRecord(value) ? value : {})
  return accept(canonicalHeadersEqual(canonical(input['left']), canonical(input['right'])))
}

/** JSONL-5, JSONL-8: the raw artifact a writer produces from a header and its durable batches. */
function encodeJsonl(input: Input): Result<{ text: string }> {
  const header = snapshotJson(input['header']).value
  // A hole, in batches or in a batch, is outside the domain (JSONL-4): it is passed over.
  const batches = heldElements(recordsOf(input['batches'])).map(batch => heldElements(recordsOf(snapshotJson(batch).value)))
  return accept({ text: encodeRawJsonl(isRecord(header) ? header : {}, batches) })
}

/** JSONL-1, JSONL-2: the artifact's path below the storage root; an id or cwd that is empty or not a string has none (JSONL-3). */
function artifactPath(input: Input): Result<{ path: string }> {
  const id = input['sessionId']
  const cwd = input['cwd']
  const segment = typeof id === 'string' ? idSegment(id) : undefined
  const project = cwd === undefined || typeof cwd === 'string' ? projectDirectory(cwd) : undefined
  if (segment === undefined || project === undefined) return reject('HEADER_ID_MISMATCH', 'no artifact path derives from a session id or cwd that is empty or not a string')
  return accept({ path: `${project}/${segment}/session${input['encoding'] === 'zstd' ? '.jsonl.zstd' : '.jsonl'}` })
}

/** JSONL-4: `text` or `base64`, and `encoding` "raw" (the default) or "zstd". */
function decodeJsonl(input: Input): Result<JsonlValue> {
  const bytes = artifactBytes({ text: input['text'], base64: input['base64'] })
  return input['encoding'] === 'zstd' ? decodeZstdArtifact(bytes) : decodeRawJsonl(bytes)
}

/** STORE-1: the header and batches stored, then read back; the first batch outside the domain is refused (STORE-4). */
function store(input: Input): Result<StoredSession> {
  return storeBatches(input['header'], recordsOf(input['batches']))
}

export const reference = {
  // Stryker disable next-line StringLiteral: adapter metadata for reports; no operation reads it
  name: 'reference',
  version: packageJson.version,
  // Stryker disable next-line StringLiteral: adapter metadata for reports; no operation reads it
  language: 'typescript',
  profiles: [...PROFILES],
  load,
  append,
  surface,
  messages,
  requestHeader,
  requestContext,
  relations,
  repair,
  resume,
  compactionState: compaction,
  regionBalance,
  fork,
  decodeJsonl,
  encodeJsonl,
  artifactPath,
  store,
  headerEquals,
}
