// Known-bad readers from a third planted-bug review of load (147 bugs planted in a port of the reader
// profile written from the spec; these passed every load vector then): phases that stop walking at a
// record that is no object or has no string type, a legacy id table keyed by index, a string replace
// start looked up, legacy ids minted from the index, wrapper and steering upgrades read loosely,
// single members no case varied (a flag's value, an assistant's model, a chunk's step, a vocabulary
// name's case), a lossless-JSON walk that enters what it rejects, an array record's seq taken for its
// locator, and a seed marker's ignorable refused.
// Each wraps the reference's load: it shows the reference the records as the bug reads them (already
// upgraded its way, or as stand-ins for records a phase never examines), or reports a rejection the
// way the bug reports it.
import { seqForRecord } from '../../reference/envelope.ts'
import { legacyRejectionFault, upgradeLegacyShapes, type UpgradeContext, type Upgraded } from '../../reference/legacy.ts'
import {
  hasOnlyKeys, hasOwn, isNonEmptyString, isNonNegativeSafeInteger, isRecord as isJsonObject, isSafeInteger, jsonEqual, snapshotJson,
  type JsonRecord,
} from '../../reference/lossless-json.ts'
import { effectiveSessionId, messageIdOf } from '../../reference/processing.ts'
import { turnPayloadFault } from '../../reference/turns-and-steps.ts'
import { unknownTypeFault, vocabularyNamed } from '../../reference/unknown-types.ts'
import { messageOf } from '../../reference/vocabulary.ts'
import { loadReading } from './reader-review.ts'
import {
  dataOf, isRecord, readOr, recordsOf, ref, rejected, skippingCheck, wrapEach, type Input, type KnownBad, type SyncOperation,
} from './wrap.ts'

type EventRecord = Record<string, unknown>

// ---- phases that stop walking early -------------------------------------------------------------

/** A type no vocabulary knows, for a record the vocabulary phase refuses and no other phase looks at. */
const UNSEEN_TYPE = 'known-bad/unexamined'

/**
 * `load` with one phase stopping at the first record `stops` picks: each later record is shown to the
 * reference as `unseen` makes it (one that phase finds nothing in, alike for every other phase before
 * replay). Replay rejects the stop record at the latest, so no stand-in reaches an output.
 */
function loadStoppingAt(stops: (record: unknown) => boolean, unseen: (record: EventRecord, input: Input) => unknown): SyncOperation {
  return input => {
    const records = recordsOf(input)
    const stop = records.findIndex(record => readOr(() => stops(record), false))
    if (stop < 0) return ref.load(input)
    const events = records.map((record, index) => (index > stop && isJsonObject(record) ? readOr(() => unseen(record, input), record) : record))
    return ref.load({ ...input, events })
  }
}

/** Whether the vocabulary phase (UNK-3) would refuse the record as it is. */
function refusedAsUnknown(record: EventRecord, input: Input): boolean {
  const known = vocabularyNamed(input['vocabulary'])
  return known !== undefined && unknownTypeFault(record, known) !== undefined
}

/** A record the legacy rejection phase never examined: a retired type or reason it would have refused becomes one it does not. */
function unseenByLegacyPhase(record: EventRecord): unknown {
  const found = legacyRejectionFault(record)
  if (found === undefined) return record
  if (found.code === 'LEGACY_FALLBACK_REASON') return { ...record, data: { ...dataOf(record), reason: 'unexamined' } }
  return { type: UNSEEN_TYPE, seq: record['seq'], data: record['data'], ignorable: record['ignorable'] }
}

/** A record the shape phase never reached: not upgraded or checked, only refused by the vocabulary phase as it is stored. */
function unseenByShapePhase(record: EventRecord, input: Input): unknown {
  if (legacyRejectionFault(record) !== undefined) return record
  return refusedAsUnknown(record, input) ? { type: UNSEEN_TYPE, seq: record['seq'] } : null
}

/** A record the unknown-type scan never reached: one it would refuse is shown marked ignorable. */
function unseenByVocabularyPhase(record: EventRecord, input: Input): unknown {
  return refusedAsUnknown(record, input) ? { ...record, ignorable: true } : record
}

const isNoObject = (record: unknown): boolean => !isJsonObject(record)

const hasNoStringType = (record: unknown): boolean => isJsonObject(record) && typeof record['type'] !== 'string'

// ---- legacy upgrades done the bug's way ---------------------------------------------------------

/** One record's phase-3 upgrade as the bug does it, with the bug's id table in `context`. */
type BuggyUpgrade = (record: JsonRecord, context: UpgradeContext, index: number) => Upgraded

/** The message id and source of an upgraded record, which the bugs below get wrong. */
function messageFacts(record: JsonRecord): unknown {
  const message = messageOf(record['type'], record['data'])
  return isJsonObject(message) ? [message['id'], message['source']] : undefined
}

/**
 * `operation` over the records, each that `upgrade` gives another message id or source than the
 * reference given already upgraded the bug's way (phase 3 keeps a current shape as it is). The bug
 * files message ids under `keyOf` (the reference: the record's locator seq, PROC-1).
 */
function upgradedByBug(operation: SyncOperation, upgrade: BuggyUpgrade, keyOf: (record: unknown, index: number) => number = seqForRecord): SyncOperation {
  return input => {
    const sessionId = readOr(() => effectiveSessionId(input['header'], input['sessionId']), '')
    const bugIds = new Map<number, string>()
    const referenceIds = new Map<number, string>()
    const events = recordsOf(input).map((record, index) => {
      if (!isJsonObject(record)) return record
      return readOr(() => {
        const ours = upgrade(record, { sessionId, messageIdBySeq: bugIds }, index)
        const theirs = upgradeLegacyShapes(record, { sessionId, messageIdBySeq: referenceIds })
        if (!ours.ok || !theirs.ok) return record
        const id = messageIdOf(ours.record)
        if (id !== undefined) {
          bugIds.set(keyOf(record, index), id)
          referenceIds.set(seqForRecord(record, index), id)
        }
        return jsonEqual(messageFacts(ours.record), messageFacts(theirs.record)) ? record : ours.record
      }, record)
    })
    return operation({ ...input, events })
  }
}

/** LEGACY-11 with a string replace start converted to a number and looked up, instead of the record taking its own legacy id. */
const stringStartLookedUp: BuggyUpgrade = (record, context) => {
  const op = record['surfaceOp']
  if (!isJsonObject(op) || op['op'] !== 'replace' || typeof op['start'] !== 'string') return upgradeLegacyShapes(record, context)
  const upgraded = upgradeLegacyShapes({ ...record, surfaceOp: { ...op, start: Number(op['start']) } }, context)
  return upgraded.ok ? { ok: true, record: { ...upgraded.record, surfaceOp: op } } : upgraded
}

/** LEGACY-8 with the record's index in the legacy id where its seq belongs. */
const legacyIdFromIndex: BuggyUpgrade = (record, context, index) => {
  const upgraded = upgradeLegacyShapes({ ...record, seq: index }, context)
  return upgraded.ok ? { ok: true, record: { ...upgraded.record, seq: record['seq'] } } : upgraded
}

/** LEGACY-10 giving a provenance that is no object the source `{}`, without its kind model. */
const nonObjectProvenanceEmpty: BuggyUpgrade = (record, context) => {
  const upgraded = upgradeLegacyShapes(record, context)
  if (!upgraded.ok || upgraded.record === record || record['type'] !== 'assistant/message' || isJsonObject(dataOf(record)['provenance'])) return upgraded
  const data = dataOf(upgraded.record)
  return { ok: true, record: { ...upgraded.record, data: { ...data, message: { ...(data['message'] as EventRecord), source: {} } } } }
}

/** LEGACY-7 form 1 taking an array message for an object, so the steering event becomes a user/message holding it. */
function withArraySteeringUpgraded(record: EventRecord): EventRecord {
  const data = dataOf(record)
  if (record['type'] !== 'steering/message' || !Array.isArray(data['message']) || !isSafeInteger(data['turn']) || !hasOnlyKeys(data, ['turn', 'message'])) return record
  return { ...record, type: 'user/message', data: data['message'] }
}

// ---- single members -----------------------------------------------------------------------------

/** HDR-2 3.3 read as truthiness: a request/header's adapter-default flags that are truthy read as true. */
function withTruthyFlagsTrue(record: EventRecord): EventRecord {
  const data = dataOf(record)
  const header = data['header']
  const defaults = isRecord(header) ? header['adapterDefaults'] : undefined
  if (record['type'] !== 'request/header' || !isRecord(header) || !isRecord(defaults)) return record
  const flags = Object.entries(defaults)
  if (!flags.some(([, flag]) => flag !== true && Boolean(flag))) return record
  const adapterDefaults = Object.fromEntries(flags.map(([name, flag]) => [name, Boolean(flag) ? true : flag]))
  return { ...record, data: { ...data, header: { ...header, adapterDefaults } } }
}

/** A model source (an assistant message's, or a legacy provenance's) with a provider and no model. */
function modelSourceWithoutModel(record: EventRecord | undefined): boolean {
  if (record?.['type'] !== 'assistant/message') return false
  const data = dataOf(record)
  const message = data['message']
  const source = isRecord(message) ? message['source'] : { ...(isRecord(data['provenance']) ? data['provenance'] : {}), kind: 'model' }
  return isRecord(source) && source['kind'] === 'model' && isNonEmptyString(source['provider']) && source['model'] === undefined
}

/** An assistant/chunk whose payload would pass TURN-1 with a step. */
function chunkFaultIsStepOnly(record: EventRecord | undefined): boolean {
  return record?.['type'] === 'assistant/chunk' && turnPayloadFault('assistant/chunk', { ...dataOf(record), step: 1 }) === undefined
}

/** VOC-16 compared case-insensitively: a vocabulary name in another letter case names that vocabulary. */
const vocabularyCaseFolded: SyncOperation = input => {
  const name = input['vocabulary']
  const folded = typeof name === 'string' ? name.toLowerCase() : undefined
  return ref.load(folded !== undefined && vocabularyNamed(folded) !== undefined ? { ...input, vocabulary: folded } : input)
}

// ---- the JSON walk, the locator, seeds ----------------------------------------------------------

/** JSON-13's codes that outrank JSON_NON_PLAIN_OBJECT. */
const ABOVE_NON_PLAIN = ['JSON_CYCLE', 'JSON_UNSUPPORTED_VALUE', 'JSON_UNDEFINED']

/** A copy in which each object of a plain or null prototype keeps its listed members only: what a walk that enters it anyway sees. */
function entered(value: unknown, copies: Map<object, unknown> = new Map()): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (copies.has(value)) return copies.get(value)
  const prototype: unknown = Object.getPrototypeOf(value)
  if (Array.isArray(value) ? prototype !== Array.prototype : prototype !== Object.prototype && prototype !== null) return value
  const copy: Record<string, unknown> = Array.isArray(value) ? new Array(value.length) as unknown as Record<string, unknown> : Object.create(prototype as object | null) as Record<string, unknown>
  copies.set(value, copy)
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, { value: entered((value as Record<string, unknown>)[key], copies), enumerable: true, writable: true, configurable: true })
  }
  return copy
}

/** JSON-13 with the walk entering an object it rejects for a symbol key or a hidden member, so a fault inside outranks JSON_NON_PLAIN_OBJECT. */
const walkEntersNonPlain: SyncOperation = input => {
  const result = ref.load(input)
  if (result.ok || result.error.code !== 'JSON_NON_PLAIN_OBJECT' || result.error.seq === undefined) return result
  const records = recordsOf(input)
  const at = records.findIndex((record, index) => readOr(() => seqForRecord(record, index) === result.error.seq && snapshotJson(record).fault?.code === 'JSON_NON_PLAIN_OBJECT', false))
  const found = at < 0 ? undefined : readOr(() => snapshotJson(entered(records[at])).fault?.code, undefined)
  return found !== undefined && ABOVE_NON_PLAIN.includes(found) ? { ok: false, error: { ...result.error, code: found, message: 'known-bad adapter' } } : result
}

/** PROC-1 reading a usable seq from a record that is an array (a property named seq), instead of giving its index. */
const arraySeqAsLocator: SyncOperation = input => {
  const result = ref.load(input)
  if (result.ok || result.error.code !== 'ENV_NOT_OBJECT' || result.error.seq === undefined) return result
  const record = recordsOf(input)[result.error.seq]
  const seq = readOr(() => (Array.isArray(record) ? (record as unknown as EventRecord)['seq'] : undefined), undefined)
  return isNonNegativeSafeInteger(seq) ? { ok: false, error: { ...result.error, seq } } : result
}

/**
 * SEED-5 read as "a marker is exactly type, seq, time and data": phase 3 refuses a session/end-seed
 * with an ignorable member (ENV_IGNORABLE_INVALID). The reference is shown, in the marker's place, a
 * record phase 3 rejects at the same locator, so the earlier phases and records still come first.
 */
const markerIgnorableRefused: SyncOperation = input => {
  const records = recordsOf(input)
  const at = records.findIndex(record => readOr(() => isJsonObject(record) && record['type'] === 'session/end-seed' && hasOwn(record, 'ignorable'), false))
  if (at < 0) return ref.load(input)
  const marker = records[at] as EventRecord
  const seq = readOr(() => seqForRecord(marker, at), at)
  const events = records.map((record, index) => (index === at ? { type: 'assistant/chunk', seq: marker['seq'], time: marker['time'], data: null } : record))
  const result = ref.load({ ...input, events })
  return !result.ok && result.error.code === 'PAYLOAD_INVALID' && result.error.seq === seq ? rejected('ENV_IGNORABLE_INVALID', seq) : ref.load(input)
}

export const LOAD_THIRD_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'legacy-phase-stops-at-non-object',
    bug: 'the legacy rejection phase stops at the first record that is no object, so a retired type after it is never refused',
    caughtBy: ['proc-legacy-phase-walks-past-null-record'],
    patch: { load: loadStoppingAt(isNoObject, unseenByLegacyPhase) },
  },
  {
    name: 'shape-phase-stops-at-non-object',
    bug: 'the shape phase stops at the first record that is no object, so later records are neither upgraded nor shape-checked',
    caughtBy: ['proc-shape-phase-walks-past-non-object-record'],
    patch: { load: loadStoppingAt(isNoObject, unseenByShapePhase) },
  },
  {
    name: 'unknown-scan-stops-at-untyped',
    bug: 'the unknown-type scan stops at a record whose type is not a string, so an unknown type after it is never refused',
    caughtBy: ['unk-scan-continues-after-numeric-type'],
    patch: { load: loadStoppingAt(hasNoStringType, unseenByVocabularyPhase) },
  },
  {
    name: 'legacy-id-table-by-index',
    bug: 'the legacy id table files each message id under the record index, not under its stated seq',
    caughtBy: ['legacy-id-table-keyed-by-stated-seq', 'legacy-id-table-later-record-replaces-entry'],
    patch: { load: upgradedByBug(ref.load, upgradeLegacyShapes, (_record, index) => index) },
  },
  {
    name: 'legacy-rewrite-string-start-looked-up',
    bug: 'a legacy tool/result whose replace start is a string looks the number it spells up in the id table instead of taking its own legacy id',
    caughtBy: ['legacy-rewrite-string-start-takes-legacy-id'],
    patch: { load: upgradedByBug(ref.load, stringStartLookedUp) },
  },
  {
    name: 'legacy-id-from-index',
    bug: 'a legacy message id is minted from the record index instead of its seq, which differs in a window',
    caughtBy: ['legacy-id-uses-seq-not-index-in-window'],
    patch: wrapEach(['load', 'surface'], operation => upgradedByBug(operation, legacyIdFromIndex)),
  },
  {
    name: 'legacy-provenance-non-object-no-kind',
    bug: 'a legacy assistant/message whose provenance is no object gets the source {} instead of {kind: model}',
    caughtBy: ['legacy-assistant-non-object-provenance-gets-model-kind'],
    patch: { load: upgradedByBug(ref.load, nonObjectProvenanceEmpty) },
  },
  {
    name: 'steering-array-message-upgraded',
    bug: 'a steering/message whose message is an array is upgraded as form 1 (typeof object) instead of rejected as malformed',
    caughtBy: ['legacy-steering-array-message-malformed'],
    patch: { load: loadReading(withArraySteeringUpgraded) },
  },
  {
    name: 'header-flag-any-truthy',
    bug: 'a request/header adapter-default flag passes the shape check when it is truthy (1, "yes"), not only when it is true',
    caughtBy: ['hdr-shape-flag-value-must-be-literal-true'],
    patch: { load: loadReading(withTruthyFlagsTrue) },
  },
  {
    name: 'msg-assistant-model-optional',
    bug: 'an assistant message source of kind model needs a provider but may lack its model',
    caughtBy: ['voc-assistant-source-without-model'],
    patch: { load: skippingCheck((error, record) => error.code === 'MESSAGE_SOURCE_INVALID' && modelSourceWithoutModel(record)).load! },
  },
  {
    name: 'chunk-step-unchecked',
    bug: 'the TURN-1 payload check of an assistant/chunk skips its step',
    caughtBy: ['turn-payload-chunk-without-step'],
    patch: { load: skippingCheck((error, record) => error.code === 'PAYLOAD_INVALID' && chunkFaultIsStepOnly(record)).load! },
  },
  {
    name: 'vocabulary-name-case-folded',
    bug: 'the vocabulary name is compared case-insensitively, so V0-RC8 names v0-rc8',
    caughtBy: ['voc-vocabulary-name-compared-exactly'],
    patch: { load: vocabularyCaseFolded },
  },
  {
    name: 'load-walk-enters-non-plain',
    bug: 'the lossless-JSON walk of load enters an object it rejects for a symbol key or a hidden member, so a function or bigint inside outranks JSON_NON_PLAIN_OBJECT',
    caughtBy: ['json-walk-skips-inside-symbol-keyed-and-hidden-member-objects'],
    patch: { load: walkEntersNonPlain },
  },
  {
    name: 'array-record-seq-as-locator',
    bug: 'a record that is an array is located by a usable seq property it carries instead of by its index',
    caughtBy: ['env-array-record-with-seq-property-carries-index'],
    patch: { load: arraySeqAsLocator },
  },
  {
    name: 'end-seed-ignorable-refused',
    bug: 'a session/end-seed marker carrying an ignorable member is refused (ENV_IGNORABLE_INVALID) instead of loaded',
    caughtBy: ['seed-marker-marked-ignorable-loads'],
    patch: { load: markerIgnorableRefused },
  },
]
