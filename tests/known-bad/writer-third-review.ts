// Known-bad writers from a third planted-bug review of append (125 bugs planted in a second
// implementation of the writer profile; these passed every writer vector then): relations of chapters
// 09 and 13 run on append, a lossless-JSON walk with a swapped priority, one that enters what it
// rejects or skips opaque data, a replace's citations read as a set and a producer's citing rule
// checked, rewrite targets and comparisons read loosely, request-header, turn/end, trigger and message
// shapes made looser or stricter, a type and a marker checked their own way, and a loaded log folded
// otherwise.
// Each wraps the reference's append: it answers again for the candidate as the bug reads it, rejects
// what the bug rejects, or reports a rejection the way the bug reports it.
import { hasOwn, isNonNegativeSafeInteger, isPlainRecord, jsonEqual } from '../../reference/lossless-json.ts'
import { ROW_TAGS } from '../../reference/chunk-rows.ts'
import { withBlankedResultContent } from '../../reference/tool-result-rewrites.ts'
import { isSurfaceEligibleType, V0_RC8_TYPES } from '../../reference/vocabulary.ts'
import { rewritesRead, type Reading } from './surface-review.ts'
import { dataOfType, headerOf, withDataMember } from './writer-review.ts'
import {
  accepted, appendedEvent, isRecord, readOr, recordsOf, ref, rejected, skippingCheck,
  type Input, type KnownBad, type SyncOperation, type Violation,
} from './wrap.ts'

type EventRecord = Record<string, unknown>


// ---- how the bugs change append --------------------------------------------------------------

/** How the bug reads a candidate the reference rejected: the candidate it checks instead, or undefined when it has no bearing. */
type Retry = (candidate: EventRecord, input: Input) => EventRecord | undefined

/** append that, when the reference rejects with one of `codes`, answers for the candidate as `retry` reads it (an accepted event keeps the candidate as given). */
function forgivingOn(codes: string | readonly string[], retry: Retry): SyncOperation {
  return input => {
    const result = ref.append(input)
    const candidate = input['candidate']
    if (result.ok || !([] as string[]).concat(codes).includes(result.error.code) || !isRecord(candidate)) return result
    const reading = readOr(() => retry(candidate, input), undefined)
    if (reading === undefined) return result
    const again = ref.append({ ...input, candidate: reading })
    return again.ok ? accepted(appendedEvent(input)) : again
  }
}

/** append that rejects an event the reference accepts, with the code `refuse` gives it, at the log length. */
function refusing(refuse: (event: EventRecord, input: Input) => string | undefined): SyncOperation {
  return input => {
    const result = ref.append(input)
    if (!result.ok) return result
    const code = refuse(result.value as EventRecord, input)
    return code === undefined ? result : rejected(code, recordsOf(input).length)
  }
}

/** append that reports a rejection with `code` as `recode` gives it (same seq), or as it is. */
function recoding(code: string, recode: (candidate: EventRecord, input: Input) => string | undefined): SyncOperation {
  return input => {
    const result = ref.append(input)
    const candidate = input['candidate']
    if (result.ok || result.error.code !== code || !isRecord(candidate)) return result
    const other = readOr(() => recode(candidate, input), undefined)
    return other === undefined ? result : { ok: false, error: { ...result.error, code: other } }
  }
}

/** append over the log as `rewrite` has the stored records (the candidate's seq is still the log length). */
function appendOverLog(rewrite: (record: EventRecord) => EventRecord): SyncOperation {
  return input => {
    const records = recordsOf(input)
    const rewritten = records.map(record => (isRecord(record) ? readOr(() => rewrite(record), record) : record))
    return rewritten.every((record, index) => record === records[index]) ? ref.append(input) : ref.append({ ...input, events: rewritten })
  }
}

/** The candidate's replace, when its surfaceOp is one. */
function replaceOf(candidate: EventRecord): EventRecord | undefined {
  const op = candidate['surfaceOp']
  return isRecord(op) && op['op'] === 'replace' ? op : undefined
}

// ---- PROC-7 in the writer: relations run on append -------------------------------------------

/** append that runs relations over the log and the accepted event, and rejects the event when they veto it with `code`. */
function relationOnAppend(code: string): SyncOperation {
  return refusing((event, input) => {
    const seq = recordsOf(input).length
    const relations = ref.relations({ ...input, events: [...recordsOf(input), event] })
    const violations = relations.ok ? (relations.value as { violations: Violation[] }).violations : []
    return violations.some(violation => violation.code === code && violation.seq === seq) ? code : undefined
  })
}

// ---- JSON-13: the lossless-JSON walk ----------------------------------------------------------

/** The leaves (non-objects) a walk of `value` reaches, entering each object `enters` admits once, by its enumerable string keys. */
function leavesOf(value: unknown, enters: (object: object) => boolean): unknown[] {
  const leaves: unknown[] = []
  const seen = new Set<object>()
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const next = pending.pop()
    if (typeof next !== 'object' || next === null) {
      leaves.push(next)
      continue
    }
    if (seen.has(next) || readOr(() => enters(next), undefined) !== true) continue
    seen.add(next)
    for (const key of readOr(() => Object.keys(next), [])) {
      try {
        pending.push(Reflect.get(next, key))
      } catch {
        // A throwing accessor is no leaf of any kind.
      }
    }
  }
  return leaves
}

/** A JSON value's containers, as a walk that stops at what is not plain enters them. */
function isPlainContainer(value: object): boolean {
  return Array.isArray(value) ? Object.getPrototypeOf(value) === Array.prototype : isPlainRecord(value)
}

/** A leaf JSON-7 rejects: a function, symbol or bigint. */
function isUnsupported(leaf: unknown): boolean {
  return typeof leaf === 'function' || typeof leaf === 'symbol' || typeof leaf === 'bigint'
}

/** An unsupported value reported as JSON_UNDEFINED when the walk also meets undefined: the two codes' places in JSON-13's list swapped. */
const undefinedOverUnsupported = recoding('JSON_UNSUPPORTED_VALUE', candidate =>
  (leavesOf(candidate, isPlainContainer).includes(undefined) ? 'JSON_UNDEFINED' : undefined))

/** A non-plain object the walk enters anyway, so an unsupported value or undefined inside it outranks JSON_NON_PLAIN_OBJECT. */
const walkEntersNonPlain = recoding('JSON_NON_PLAIN_OBJECT', candidate => {
  const leaves = leavesOf(candidate, () => true)
  if (leaves.some(isUnsupported)) return 'JSON_UNSUPPORTED_VALUE'
  return leaves.includes(undefined) ? 'JSON_UNDEFINED' : undefined
})

/** The JSON-13 codes. */
const JSON_CODES = ['JSON_CYCLE', 'JSON_UNSUPPORTED_VALUE', 'JSON_UNDEFINED', 'JSON_NON_PLAIN_OBJECT', 'JSON_SPARSE_ARRAY', 'JSON_NON_FINITE', 'JSON_NEGATIVE_ZERO']

/** The data of a candidate whose type is in no vocabulary read as opaque: checked as an empty object. */
const unknownTypeDataOpaque: Retry = candidate => {
  const type = candidate['type']
  if (typeof type !== 'string' || V0_RC8_TYPES.has(type) || !hasOwn(candidate, 'data') || candidate['data'] === undefined) return undefined
  return { ...candidate, data: {} }
}

// ---- PROV-8 on a replace -----------------------------------------------------------------------

/** A replace's citations read as a set (its coverage check's), so a repeated seq counts once. */
const replaceCitationsAsSet: Retry = candidate => {
  const sources = candidate['sourceEventSeqs']
  return replaceOf(candidate) !== undefined && Array.isArray(sources) ? { ...candidate, sourceEventSeqs: [...new Set(sources)] } : undefined
}

/** The stored record with the given seq, when it is an object. */
function storedAt(input: Input, seq: unknown): EventRecord | undefined {
  const record = recordsOf(input).find(event => isRecord(event) && event['seq'] === seq)
  return isRecord(record) ? record : undefined
}

/** An assistant/message citing an event that is no assistant/chunk, which the producer rule PROV-9 read as a check refuses. */
const assistantCitesChunksOnly = refusing((event, input) => {
  const sources = event['sourceEventSeqs']
  if (event['type'] !== 'assistant/message' || !Array.isArray(sources)) return undefined
  return sources.every(seq => storedAt(input, seq)?.['type'] === 'assistant/chunk') ? undefined : 'PROVENANCE_ELEMENT_INVALID'
})

// ---- REWR-2, REWR-3: rewrites ------------------------------------------------------------------

/** A rewrite shadowing an assistant/message compared with it as if it were a tool/result (only a user/message target refused). */
const assistantTargetCompared = recoding('REWRITE_TARGET_INVALID', (candidate, input) => {
  const original = storedAt(input, replaceOf(candidate)?.['start'])
  if (original?.['type'] !== 'assistant/message') return undefined
  return jsonEqual(withBlankedResultContent(original['data']), withBlankedResultContent(candidate['data'])) ? undefined : 'REWRITE_DATA_CHANGED'
})

/** A value with each number in it replaced by its text. */
function numbersAsText(value: unknown): unknown {
  if (typeof value === 'number') return String(value)
  if (Array.isArray(value)) return value.map(numbersAsText)
  if (!isRecord(value)) return value
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, numbersAsText(member)]))
}

/** Both sides' numbers compared by their text, as a comparison by `==` or by String() does. */
const numbersReadAsText: Reading = data => numbersAsText(data) as EventRecord

// ---- HDR-1, HDR-2: the request header -----------------------------------------------------------

/** A header whose system is not a string, refused: HDR-1's producer shape read as a check. */
const systemMustBeString = refusing(event => {
  const header = headerOf(event)
  return header !== undefined && hasOwn(header, 'system') && typeof header['system'] !== 'string' ? 'REQUEST_HEADER_INVALID' : undefined
})

// ---- TURN-2, LEGACY-5: turn/end and trigger shapes ---------------------------------------------

/** A kind the reference does not list, standing in for a kind that is no string. */
const OTHER_KIND = 'known-bad: other kind'

/** A turn/end reason whose kind is present but no string read as an unlisted kind, as `'kind' in reason` reads it. */
const kindOfAnyType: Retry = candidate => {
  const reason = dataOfType(candidate, 'turn/end')?.['reason']
  if (!isRecord(reason) || !hasOwn(reason, 'kind') || typeof reason['kind'] === 'string') return undefined
  return withDataMember(candidate, 'reason', { ...reason, kind: OTHER_KIND })
}

/** A turn/start trigger with members besides kind, refused as if LEGACY-5 listed the trigger's members. */
const triggerMembersClosed = refusing(event => {
  const trigger = dataOfType(event, 'turn/start')?.['trigger']
  return isRecord(trigger) && Object.keys(trigger).some(member => member !== 'kind') ? 'LEGACY_SHAPE_MALFORMED' : undefined
})

// ---- VOC-10, VOC-12: message shapes -------------------------------------------------------------

/** A tool/result message with role "tool" read as role "user", as a port with OpenAI's tool role in mind lets it pass. */
const toolRoleAsUser: Retry = candidate => {
  const message = dataOfType(candidate, 'tool/result')?.['message']
  return isRecord(message) && message['role'] === 'tool' ? withDataMember(candidate, 'message', { ...message, role: 'user' }) : undefined
}

/** A user/message with an empty content array, refused as if VOC-12 asked for a block. */
const userContentNonEmpty = refusing(event => {
  const content = dataOfType(event, 'user/message')?.['content']
  return Array.isArray(content) && content.length === 0 ? 'MESSAGE_CONTENT_INVALID' : undefined
})

// ---- ENV-3, SEED-5: types and the marker -------------------------------------------------------

/** A type that is a storage tag once lower-cased, refused as one (the tags compared case-insensitively). */
const storageTagCaseFolded = refusing(event => {
  const type = event['type']
  return typeof type === 'string' && (ROW_TAGS as readonly string[]).includes(type.toLowerCase()) ? 'ENV_TYPE_INVALID' : undefined
})

/** A session/end-seed candidate let through the surface checks, as if SEED-5's "whatever its data" covered its markers. */
const markerSurfaceExempt = skippingCheck((error, record) => error.code === 'SURFACE_OP_NOT_ALLOWED' && record?.['type'] === 'session/end-seed').append!

// ---- PROC-1, PROC-9, UNK-4: the inputs and the loaded log ---------------------------------------

/** An ENV_UNKNOWN_KEY rejection carrying the seq the candidate brought, as load's seq-for-record rule gives it. */
const rejectionSeqFromCandidate: SyncOperation = input => {
  const result = ref.append(input)
  const candidate = input['candidate']
  if (result.ok || result.error.code !== 'ENV_UNKNOWN_KEY' || !isRecord(candidate)) return result
  const seq = readOr(() => candidate['seq'], undefined)
  return isNonNegativeSafeInteger(seq) ? { ok: false, error: { ...result.error, seq } } : result
}

/** The log-only type a skipped record is taken for. */
const NOT_A_NODE = 'known-bad/not-a-node'

/** An ignorable surface event of the log skipped by the surface fold, as if ignorable meant "skip" on a known type: a log-only event in its place. */
const ignorableNodeSkipped = appendOverLog(record =>
  (record['ignorable'] === true && typeof record['type'] === 'string' && isSurfaceEligibleType(record['type'])
    ? { type: NOT_A_NODE, seq: record['seq'], time: record['time'], data: {}, ignorable: true }
    : record))

export const WRITER_THIRD_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'append-turn-numbering-checked',
    bug: 'append runs the turn relations and rejects a turn/start whose number is not the last turn + 1 (TURN_NUMBER_INVALID)',
    caughtBy: ['turn-shape-append-turn-number-and-nesting-not-checked'],
    patch: { append: relationOnAppend('TURN_NUMBER_INVALID') },
  },
  {
    name: 'append-claim-checked',
    bug: 'append runs the compaction relations and rejects a replace right after a compaction/prune that claimed another range (COMPACTION_CLAIM_MISMATCH)',
    caughtBy: ['rewr-writer-ignores-prune-claim'],
    patch: { append: relationOnAppend('COMPACTION_CLAIM_MISMATCH') },
  },
  {
    name: 'json-undefined-over-unsupported',
    bug: "JSON-13's list is ported with JSON_UNDEFINED above JSON_UNSUPPORTED_VALUE, so undefined beside a bigint is reported as JSON_UNDEFINED",
    caughtBy: ['json-pair-unsupported-before-undefined-append'],
    patch: { append: undefinedOverUnsupported },
  },
  {
    name: 'json-walk-enters-non-plain',
    bug: 'the lossless-JSON walk enters an object it rejects as not plain, so a function or undefined inside it outranks JSON_NON_PLAIN_OBJECT',
    caughtBy: ['json-walk-skips-inside-non-plain-append'],
    patch: { append: walkEntersNonPlain },
  },
  {
    name: 'json-unknown-type-data-opaque',
    bug: 'the data of a candidate whose type is in no vocabulary is taken for opaque and not checked for lossless JSON',
    caughtBy: ['unk-writer-unknown-type-data-is-lossless-checked'],
    patch: { append: forgivingOn(JSON_CODES, unknownTypeDataOpaque) },
  },
  {
    name: 'replace-citations-as-set',
    bug: "a replace's sourceEventSeqs are read as a set for coverage and never checked for duplicates",
    caughtBy: ['prov-replace-duplicate-citation-writer'],
    patch: { append: forgivingOn('PROVENANCE_DUPLICATE', replaceCitationsAsSet) },
  },
  {
    name: 'prov-assistant-cites-chunks-only',
    bug: 'an assistant/message citing anything but assistant/chunk events is rejected as PROVENANCE_ELEMENT_INVALID (PROV-9, a producer rule, read as a check)',
    caughtBy: ['prov-assistant-cites-non-chunks-writer', 'surf-types-assistant-replaces-user-writer'],
    patch: { append: assistantCitesChunksOnly },
  },
  {
    name: 'rewrite-of-assistant-allowed',
    bug: 'a tool/result rewrite may shadow an assistant/message (only a user/message target is refused), and is then compared with it',
    caughtBy: ['rewr-target-assistant-writer'],
    patch: { append: assistantTargetCompared },
  },
  {
    name: 'rewrite-numbers-as-text',
    bug: 'load and append compare the numbers of a rewrite by their text, so the string "1" and the number 1 are equal',
    caughtBy: ['rewr-data-string-vs-number'],
    patch: rewritesRead(numbersReadAsText),
  },
  {
    name: 'hdr-system-must-be-string',
    bug: "a request/header whose header.system is not a string is rejected (HDR-1's producer shape read as a check)",
    caughtBy: ['hdr-append-unchecked-members-accepted'],
    patch: { append: systemMustBeString },
  },
  {
    name: 'turn2-kind-any-type',
    bug: "a turn/end reason's kind is checked to be present, not to be a string, so kind 5 or null passes as an unlisted kind",
    caughtBy: ['turn-end-append-kind-not-string'],
    patch: { append: forgivingOn('TURN_END_MALFORMED', kindOfAnyType) },
  },
  {
    name: 'legacy-trigger-members-closed',
    bug: 'a turn/start trigger with members besides kind is rejected as LEGACY_SHAPE_MALFORMED, where they are allowed and ignored',
    caughtBy: ['legacy-writer-trigger-kind-and-members'],
    patch: { append: triggerMembersClosed },
  },
  {
    name: 'msg-tool-result-role-tool-ok',
    bug: 'a tool/result message with role "tool" is accepted',
    caughtBy: ['voc-tool-result-role-tool-append'],
    patch: { append: forgivingOn('MESSAGE_ROLE_INVALID', toolRoleAsUser) },
  },
  {
    name: 'msg-user-content-nonempty',
    bug: 'a user/message with an empty content array is rejected as MESSAGE_CONTENT_INVALID',
    caughtBy: ['voc-block-members-unchecked-append'],
    patch: { append: userContentNonEmpty },
  },
  {
    name: 'append-storage-tag-case-folded',
    bug: 'a type is compared with the storage tags case-insensitively, so Text-chunks is rejected as ENV_TYPE_INVALID',
    caughtBy: ['env-type-storage-tag-lookalikes-append-accepted'],
    patch: { append: storageTagCaseFolded },
  },
  {
    name: 'end-seed-surface-exempt',
    bug: 'a session/end-seed candidate skips the surface checks, so a marker carrying surfaceOp or sourceEventSeqs is accepted',
    caughtBy: ['seed-append-marker-with-surface-markers-rejected'],
    patch: { append: markerSurfaceExempt },
  },
  {
    name: 'append-reject-seq-from-candidate',
    bug: 'an ENV_UNKNOWN_KEY rejection carries the seq the candidate brought instead of the log length',
    caughtBy: ['proc-append-rejection-seq-ignores-candidate-seq'],
    patch: { append: rejectionSeqFromCandidate },
  },
  {
    name: 'append-log-ignorable-skipped',
    bug: "append's fold of its log skips events marked ignorable, known surface types included, so an ignorable user/message is no node",
    caughtBy: ['proc-append-log-ignorable-known-node'],
    patch: { append: ignorableNodeSkipped },
  },
]
