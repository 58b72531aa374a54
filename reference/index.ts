/**
 * The reference interpreter of session-log format v0: its metadata and the operations of
 * spec/00-processing.md, each taking one plain input object and returning a Result.
 *
 * Every operation that takes `events` first runs `load` over them (with the input's header, session
 * id and vocabulary), so legacy shapes are upgraded before any fold reads them; a log that `load`
 * rejects gets that rejection, since the operations are defined only for logs `load` accepts.
 */
import packageJson from '../package.json' with { type: 'json' }
import { accept, type Result } from './result.ts'
import { isRecord, snapshotJson } from './lossless-json.ts'
import { appendCandidate, loadLog, runRelations, type Violation } from './processing.ts'
import { foldSurface, type SurfaceValue } from './surface.ts'
import { deriveMessages } from './derived-messages.ts'
import { foldRequestContext, foldRequestHeader } from './request-header.ts'
import { repairClosers } from './repair.ts'
import { withEndSeed } from './seeds.ts'
import { compactionState, type CompactionStateValue } from './compaction.ts'
import { nodeBalance, regionLegality, type NodeBalance, type RegionValue } from './region-balance.ts'
import { forkChild, type ForkValue } from './fork.ts'
import { decodeJsonl, type JsonlValue } from './jsonl.ts'
import type { SessionEvent } from './envelope.ts'
import type { JsonRecord } from './lossless-json.ts'

export type Input = Record<string, unknown>

export const PROFILES = ['reader', 'writer', 'relations', 'repair', 'compaction', 'fork', 'jsonl'] as const

function recordsOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : []
}

function loaded(input: Input, checkVocabulary = true): Result<SessionEvent[]> {
  return loadLog({
    header: input['header'],
    events: recordsOf(input['events'] ?? input['log']),
    sessionId: input['sessionId'],
    vocabulary: input['vocabulary'],
    checkVocabulary,
  })
}

/** Run `fold` over the loaded events, or pass load's rejection on. */
function overLoaded<T>(input: Input, fold: (events: SessionEvent[]) => Result<T>): Result<T> {
  const events = loaded(input)
  return events.ok ? fold(events.value) : events
}

function optionalSeq(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined
}

function load(input: Input): Result<SessionEvent[]> {
  return loaded(input)
}

/** The log is read as a writer reads it: any type is accepted (UNK-2). */
function append(input: Input): Result<SessionEvent> {
  const events = loaded(input, false)
  return events.ok ? appendCandidate({ events: events.value, candidate: input['candidate'], time: input['time'] }) : events
}

function surface(input: Input): Result<SurfaceValue> {
  return overLoaded(input, events => accept(foldSurface(events)))
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

function relations(input: Input): Result<{ violations: Violation[] }> {
  return overLoaded(input, events => accept(runRelations(events)))
}

function repair(input: Input): Result<{ closers: SessionEvent[] }> {
  return overLoaded(input, events => accept({ closers: repairClosers(events) }))
}

/** SEED-10: the loaded events, their repair closers, then the end-seed marker unless one ends them. */
function resume(input: Input): Result<SessionEvent[]> {
  return overLoaded(input, events => accept(withEndSeed([...events, ...repairClosers(events)], input['now'] as number)))
}

function compaction(input: Input): Result<CompactionStateValue> {
  const entry = input['entry'] === 'automatic' || input['entry'] === 'manual' ? input['entry'] : undefined
  return overLoaded(input, events => compactionState(events, entry))
}

function regionBalance(input: Input): Result<NodeBalance | RegionValue> {
  return overLoaded<NodeBalance | RegionValue>(input, events => ('seq' in input
    ? nodeBalance(events, input['seq'])
    : regionLegality(events, input['start'], input['end'])))
}

/** FORK-4: the seed copies the source records as given, not as load upgraded them. */
function fork(input: Input): Result<ForkValue> {
  return overLoaded(input, () => {
    const header = input['header'] === undefined ? undefined : snapshotJson(input['header']).value
    return forkChild({
      header: isRecord(header) ? header : undefined,
      events: recordsOf(input['events']).map(record => snapshotJson(record).value as SessionEvent),
      hasBoundary: 'boundary' in input,
      boundary: input['boundary'],
      childId: input['childId'],
      now: input['now'] as number,
    })
  })
}

function decode(input: Input): Result<JsonlValue> {
  return decodeJsonl({ text: input['text'], base64: input['base64'] })
}

export const reference = {
  name: 'reference',
  version: packageJson.version,
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
  decodeJsonl: decode,
}
