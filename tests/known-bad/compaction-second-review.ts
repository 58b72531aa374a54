// Known-bad adapters from a second planted-bug review of compactionState and regionBalance (80 bugs
// planted in a second implementation of chapters 13 and 14; these fourteen passed every vector of the
// compaction profile then): a checkpoint test that reads the type or the plugin loosely, a counter that
// wants call ids or matches block types by prefix, the JS habits `instanceof Object`, copy by
// assignment and lower-cased types, ignorable known events skipped, steering messages left un-upgraded,
// open copying the whole start, and seqs read as Python's bools, by falsiness, in seq order or by type
// first. Each wraps a reference operation: the operation over the loaded events as the bug reads them,
// its input as the bug takes it, or its answer as the bug gives it.
import type { OperationResult } from '../../conformance/expectations.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { isNonNegativeSafeInteger } from '../../reference/lossless-json.ts'
import { counterStep, nodeBalance, regionLegality } from '../../reference/region-balance.ts'
import { withSource } from './compaction-review.ts'
import {
  accepted, compactionStateOver, copiedByAssignment, dataOf, isRecord, loadedEvents, recordsOf, ref, rejected,
  type Input, type KnownBad, type Patch, type SyncOperation,
} from './wrap.ts'

type EventRecord = Record<string, unknown>
type Rewrite = (events: EventRecord[], input: Input) => EventRecord[]

/** regionBalance as the reference computes it, over the loaded events as `rewrite` changes them. */
function regionBalanceOver(rewrite: Rewrite): SyncOperation {
  return input => {
    const loaded = loadedEvents(input)
    if (loaded === undefined) return ref.regionBalance(input)
    const events = rewrite(loaded, input) as unknown as SessionEvent[]
    return (input['seq'] !== undefined ? nodeBalance(events, input['seq']) : regionLegality(events, input['start'], input['end'])) as OperationResult
  }
}

/** Both compaction operations over the loaded events as `rewrite` changes them. */
function bothOver(rewrite: Rewrite): Patch {
  return { compactionState: compactionStateOver(rewrite), regionBalance: regionBalanceOver(rewrite) }
}

/** The event as no fold reads it: of a type outside every vocabulary, and no surface node. */
function unread(event: EventRecord, type: string): EventRecord {
  return { type, seq: event['seq'], time: event['time'], data: event['data'] }
}

// ---- The Terms and COMP-17: checkpoints and open ----------------------------------------------------

function isCompactPluginSource(source: unknown): boolean {
  return isRecord(source) && source['kind'] === 'plugin' && source['plugin'] === 'compact'
}

/** Any replacing event whose data.source is the compact plugin is a checkpoint, whatever its type. */
const checkpointOfAnyType = compactionStateOver(events => events.map(event =>
  isRecord(event['surfaceOp']) && event['type'] !== 'user/message' && isCompactPluginSource(dataOf(event)['source'])
    ? { ...event, type: 'user/message' }
    : event))

/** A replacing user/message whose source has kind plugin is a checkpoint, whatever plugin it names. */
const checkpointByKindAlone = compactionStateOver(events => events.map(event => {
  const source = dataOf(event)['source']
  return event['type'] === 'user/message' && isRecord(event['surfaceOp']) && isRecord(source) && source['kind'] === 'plugin'
    ? withSource(event, found => ({ ...found, plugin: 'compact' }))
    : event
}))

/** open copies every member of the unmatched start's data, between startSeq and live. */
const openCopiesAll: SyncOperation = input => {
  const result = ref.compactionState(input)
  if (!result.ok) return result
  const value = result.value as { open: EventRecord | null }
  const open = value.open
  if (open === null) return result
  const start = loadedEvents(input)?.find(event => event['seq'] === open['startSeq'])
  return accepted({ ...value, open: { startSeq: open['startSeq'], ...dataOf(start), live: open['live'] } })
}

// ---- REGION-1: the counter -----------------------------------------------------------------------------

/** The event with the blocks of its assistant message's content changed by `edit`. */
function withAssistantBlocks(event: EventRecord, edit: (block: EventRecord) => EventRecord): EventRecord {
  const message = dataOf(event)['message']
  if (event['type'] !== 'assistant/message' || !isRecord(message) || !Array.isArray(message['content'])) return event
  const content = message['content'].map(block => (isRecord(block) ? edit(block) : block))
  return { ...event, data: { ...dataOf(event), message: { ...message, content } } }
}

/** A block the counter passes over. */
function uncounted(block: EventRecord): EventRecord {
  return { ...block, type: 'x-known-bad/uncounted' }
}

/** A tool-call block counts only when it has a non-empty string id. */
const callNeedsId = regionBalanceOver(events => events.map(event => withAssistantBlocks(event, block =>
  block['type'] === 'tool-call' && (typeof block['id'] !== 'string' || block['id'] === '') ? uncounted(block) : block)))

/** A block counts when its type starts with tool-call (tool-calls too). */
const callTypeByPrefix = regionBalanceOver(events => events.map(event => withAssistantBlocks(event, block =>
  typeof block['type'] === 'string' && block['type'].startsWith('tool-call') ? { ...block, type: 'tool-call' } : block)))

// ---- UNK-1, UNK-4, JSON-9, JSON-11, LEGACY-7: how events are read --------------------------------------

/** Events marked ignorable skipped, known types included. */
const ignorableSkipped = bothOver(events => events.map(event => (event['ignorable'] === true ? unread(event, 'x-known-bad/skipped') : event)))

/** Event types compared after lower-casing. */
const typesCaseFolded = bothOver(events => events.map(event =>
  (typeof event['type'] === 'string' ? { ...event, type: event['type'].toLowerCase() } : event)))

/**
 * The loaded value read as a test of `instanceof Object` reads it: each object that the stored `source`
 * holds as a null-prototype or another realm's object is no object (null).
 */
function readByInstanceof(loaded: unknown, source: unknown): unknown {
  if (typeof source !== 'object' || source === null || typeof loaded !== 'object' || loaded === null) return loaded
  if (!Array.isArray(source) && !(source instanceof Object)) return null
  const stored = source as Record<string, unknown>
  if (Array.isArray(loaded)) return loaded.map((item, index) => readByInstanceof(item, stored[index]))
  return Object.fromEntries(Object.entries(loaded).map(([name, member]) => [name, readByInstanceof(member, Object.hasOwn(stored, name) ? stored[name] : undefined)]))
}

const objectsByInstanceof = bothOver((events, input) => events.map((event, index) => {
  const record = recordsOf(input)[index]
  return { ...event, data: readByInstanceof(event['data'], isRecord(record) ? record['data'] : undefined) }
}))

/** A value with every member its objects reach through `in` (inherited ones too) made its own. */
function readThroughIn(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(readThroughIn)
  if (typeof value !== 'object' || value === null) return value
  const members: Record<string, unknown> = {}
  for (const name in value) members[name] = readThroughIn((value as Record<string, unknown>)[name])
  return members
}

/** Events copied member by member (a member named __proto__ sets the prototype), then read with `in`. */
const copiedByAssignmentReadWithIn = bothOver(events => events.map(event => readThroughIn(copiedByAssignment(event)) as EventRecord))

/** A steering/message record left as stored: a log-only event of a type no fold reads. */
const steeringNotUpgraded = bothOver((events, input) => events.map((event, index) => {
  const record = recordsOf(input)[index]
  return isRecord(record) && record['type'] === 'steering/message' ? unread(event, 'steering/message') : event
}))

// ---- REGION-2, REGION-4 to REGION-6: the seqs asked for and reported ------------------------------------

const SEQ_MEMBERS = ['seq', 'start', 'end']

/** A boolean seq, start or end taken as 0 or 1, as an integer test that counts booleans takes it. */
const booleanSeqAsNumber: SyncOperation = input =>
  ref.regionBalance(Object.fromEntries(Object.entries(input).map(([name, value]) =>
    [name, SEQ_MEMBERS.includes(name) && typeof value === 'boolean' ? Number(value) : value])))

/** A rejection's seq of 0 dropped, as `seq || undefined` drops it. */
const zeroSeqDropped: SyncOperation = input => {
  const result = ref.regionBalance(input)
  return !result.ok && result.error.seq === 0 ? rejected(result.error.code) : result
}

/** The region form checks that both edges are usable seqs before it looks either up. */
const edgesTypedFirst: SyncOperation = input =>
  input['seq'] === undefined && !(isNonNegativeSafeInteger(input['start']) && isNonNegativeSafeInteger(input['end']))
    ? rejected('REGION_NOT_ON_SURFACE')
    : ref.regionBalance(input)

/** The first node, in seq order, at which the counter run over the nodes in seq order falls below zero. */
function firstOrphanBySeq(input: Input): number | undefined {
  const surface = ref.surface(input)
  const events = loadedEvents(input) ?? []
  const nodes = surface.ok ? [...(surface.value as { nodes: number[] }).nodes].sort((a, b) => a - b) : []
  let counter = 0
  for (const seq of nodes) {
    counter += counterStep(events[seq] as unknown as SessionEvent)
    if (counter < 0) return seq
  }
  return undefined
}

/** An orphan the reference reports named as the first one met in seq order instead of surface order. */
const orphanBySeqOrder: SyncOperation = input => {
  const result = ref.regionBalance(input)
  if (result.ok || result.error.code !== 'REGION_ORPHAN_RESULT') return result
  return rejected('REGION_ORPHAN_RESULT', firstOrphanBySeq(input) ?? result.error.seq)
}

export const COMPACTION_SECOND_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'compaction-checkpoint-of-any-type',
    bug: 'any replacing event whose data.source is the compact plugin is a checkpoint, whatever its type',
    caughtBy: ['comp-state-checkpoint-is-a-user-message'],
    patch: { compactionState: checkpointOfAnyType },
  },
  {
    name: 'compaction-checkpoint-by-kind-alone',
    bug: 'a replacing user/message whose source has kind plugin is a checkpoint, whatever plugin it names',
    caughtBy: ['comp-state-checkpoint-needs-compact-plugin'],
    patch: { compactionState: checkpointByKindAlone },
  },
  {
    name: 'compaction-open-copies-all',
    bug: "open copies every member of the start's data, not only compactionId, sourceCommandId and turn",
    caughtBy: ['comp-state-open-copies-three-members-only', 'comp-state-proto-member-is-data'],
    patch: { compactionState: openCopiesAll },
  },
  {
    name: 'region-call-needs-id',
    bug: 'a tool-call block counts only when it has a non-empty string id',
    caughtBy: ['region-bare-tool-call-block-counts'],
    patch: { regionBalance: callNeedsId },
  },
  {
    name: 'region-call-type-by-prefix',
    bug: 'a content block counts as a call when its type starts with tool-call',
    caughtBy: ['region-only-exact-tool-call-type-counts'],
    patch: { regionBalance: callTypeByPrefix },
  },
  {
    name: 'compaction-ignorable-skipped',
    bug: 'events marked ignorable are skipped by both compaction operations, known types included',
    caughtBy: ['comp-state-ignorable-known-types-count', 'region-ignorable-known-assistant-is-a-node'],
    patch: ignorableSkipped,
  },
  {
    name: 'compaction-types-case-folded',
    bug: 'the compaction operations compare event types after lower-casing them',
    caughtBy: ['comp-state-type-names-are-exact'],
    patch: typesCaseFolded,
  },
  {
    name: 'compaction-objects-by-instanceof',
    bug: 'the compaction operations test objects with instanceof Object, so null-prototype and other-realm objects are none',
    caughtBy: ['comp-state-null-prototype-data', 'comp-state-other-realm-data', 'region-call-blocks-of-any-plain-prototype-count'],
    patch: objectsByInstanceof,
  },
  {
    name: 'compaction-copied-by-assignment',
    bug: 'the compaction operations copy events member by member and test members with `in`, so a member named __proto__ lends its members',
    caughtBy: ['comp-state-proto-member-is-data', 'region-proto-member-is-no-type'],
    patch: copiedByAssignmentReadWithIn,
  },
  {
    name: 'compaction-steering-not-upgraded',
    bug: 'the compaction operations read a legacy steering/message as stored, a log-only event, not as a user/message',
    caughtBy: ['legacy-steering-checkpoint-marks-bracket', 'legacy-steering-message-is-a-node', 'legacy-steering-turn-of-any-sign'],
    patch: steeringNotUpgraded,
  },
  {
    name: 'region-boolean-seq-as-number',
    bug: "a boolean seq, start or end is taken as 0 or 1, as Python's bool is an int",
    caughtBy: ['region-boolean-is-no-seq'],
    patch: { regionBalance: booleanSeqAsNumber },
  },
  {
    name: 'region-zero-seq-dropped',
    bug: 'a regionBalance rejection carrying seq 0 loses it, as `seq || undefined` drops it',
    caughtBy: ['region-seq-zero-not-a-node-is-carried', 'region-unbalanced-end-zero-is-carried', 'region-orphan-at-zero-is-carried'],
    patch: { regionBalance: zeroSeqDropped },
  },
  {
    name: 'region-edges-typed-first',
    bug: "both region edges are checked to be usable seqs before either is looked up, so a bad end hides a start that is no node",
    caughtBy: ['region-usable-start-before-unusable-end'],
    patch: { regionBalance: edgesTypedFirst },
  },
  {
    name: 'region-orphan-by-seq-order',
    bug: 'the orphan reported is the first met running the counter over the nodes in seq order, not surface order',
    caughtBy: ['region-first-orphan-by-position'],
    patch: { regionBalance: orphanBySeqOrder },
  },
]
