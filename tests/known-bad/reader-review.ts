// Known-bad readers from a review that planted bugs in a second implementation of the reader profile:
// each passed every reader vector then, because the input that shows it was only ever given to a
// writer (`append`), or to no operation at all. Each wraps a reference operation: it edits the input
// the way the bug reads it, or the result the way the bug reports it.
import { isNonNegativeSafeInteger } from '../../reference/lossless-json.ts'
import {
  citationsOf, dataOf, isRecord, lateCitationHiddenByTextSort, lateCitationNotLast, recordsOf, ref, rejected, skippingCheck,
  type KnownBad, type SyncOperation,
} from './wrap.ts'

type EventRecord = Record<string, unknown>

/** `load` over the records as `edit` rewrites each (a record that is no object is passed as it is). */
export function loadReading(edit: (record: EventRecord) => EventRecord): SyncOperation {
  return input => ref.load({ ...input, events: recordsOf(input).map(record => (isRecord(record) ? edit(record) : record)) })
}

/** `load` accepting the log whenever it would report a rejection that `forgiven` matches. */
function loadForgiving(forgiven: Parameters<typeof skippingCheck>[0]): SyncOperation {
  return skippingCheck(forgiven).load!
}

/** PROV-8 done in one pass: each element checked for kind and lateness where it stands, duplicates last. */
function onePassCitationFault(sources: readonly unknown[], seq: number): string | undefined {
  for (const source of sources) {
    if (!isNonNegativeSafeInteger(source)) return 'PROVENANCE_ELEMENT_INVALID'
    if (source >= seq) return 'PROVENANCE_NOT_EARLIER'
  }
  return new Set(sources).size < sources.length ? 'PROVENANCE_DUPLICATE' : undefined
}

const citationsInOnePass: SyncOperation = input => {
  const result = ref.load(input)
  if (result.ok || !['PROVENANCE_ELEMENT_INVALID', 'PROVENANCE_DUPLICATE'].includes(result.error.code)) return result
  const seq = result.error.seq!
  const record = recordsOf(input).find(event => isRecord(event) && event['seq'] === seq) as EventRecord | undefined
  const code = onePassCitationFault(citationsOf(record), seq)
  return code === undefined ? result : rejected(code, seq)
}

const REPLACE_MEMBERS = ['op', 'start', 'end']

/** Whether a surfaceOp is an object that the grammar (SURF-2) would reject for its members. */
function hasBadMembers(surfaceOp: unknown): boolean {
  if (!isRecord(surfaceOp)) return false
  const names = Object.keys(surfaceOp)
  return names.length !== REPLACE_MEMBERS.length || !REPLACE_MEMBERS.every(name => names.includes(name))
}

/** SURF-9 upside down: a decoder that types surfaceOp before it asks whether the event may carry one. */
const grammarBeforeEligibility: SyncOperation = input => {
  const result = ref.load(input)
  if (result.ok || result.error.code !== 'SURFACE_OP_NOT_ALLOWED') return result
  const record = recordsOf(input).find(event => isRecord(event) && event['seq'] === result.error.seq)
  return isRecord(record) && hasBadMembers(record['surfaceOp']) ? rejected('SURFACE_OP_INVALID', result.error.seq) : result
}

/** A replace object without `end` read as a replace of its start node alone. */
function withEndDefaulted(record: EventRecord): EventRecord {
  const op = record['surfaceOp']
  return isRecord(op) && 'start' in op && !('end' in op) ? { ...record, surfaceOp: { ...op, end: op['start'] } } : record
}

/** A citation list given as a string read as the list of its characters (a language's "sequence"). */
function withStringSourcesSplit(record: EventRecord): EventRecord {
  const sources = record['sourceEventSeqs']
  return typeof sources === 'string' ? { ...record, sourceEventSeqs: [...sources] } : record
}

/** Booleans among the citations read as 0 and 1. */
function withBooleanSourcesAsNumbers(record: EventRecord): EventRecord {
  const sources = record['sourceEventSeqs']
  if (!Array.isArray(sources) || !sources.some(source => typeof source === 'boolean')) return record
  return { ...record, sourceEventSeqs: sources.map(source => (typeof source === 'boolean' ? Number(source) : source)) }
}

/** The tool-result block of a tool/result record, if it has one. */
function resultBlockOf(record: EventRecord): EventRecord | undefined {
  if (record['type'] !== 'tool/result') return undefined
  const message = dataOf(record)['message']
  const block = isRecord(message) && Array.isArray(message['content']) ? message['content'][0] : undefined
  return isRecord(block) ? block : undefined
}

/** The record with its tool-result block edited (a copy); any other record as it is. */
function withResultBlock(record: EventRecord, edit: (block: EventRecord) => EventRecord): EventRecord {
  const block = resultBlockOf(record)
  if (block === undefined) return record
  const message = dataOf(record)['message'] as EventRecord
  const content = [edit(block), ...(message['content'] as unknown[]).slice(1)]
  return { ...record, data: { ...dataOf(record), message: { ...message, content } } }
}

/** A rewrite's data with the turn and step of the result it replaces, as a comparison that skips them sees it. */
const loadIgnoringRewriteTurnAndStep: SyncOperation = input => {
  const records = recordsOf(input)
  const bySeq = new Map(records.filter(isRecord).map(record => [record['seq'], record]))
  return loadReading(record => {
    const op = record['surfaceOp']
    const original = record['type'] === 'tool/result' && isRecord(op) ? bySeq.get(op['start']) : undefined
    if (original === undefined) return record
    const { turn, step } = dataOf(original)
    return { ...record, data: { ...dataOf(record), turn, step } }
  })(input)
}

/** A tool/result's data without its members that hold null, at the top and in the message. */
function withoutNullMembers(record: EventRecord): EventRecord {
  if (record['type'] !== 'tool/result' || !isRecord(record['data'])) return record
  const drop = (value: EventRecord): EventRecord => Object.fromEntries(Object.entries(value).filter(([, member]) => member !== null))
  const data = drop(record['data'])
  if (isRecord(data['message'])) data['message'] = drop(data['message'])
  return { ...record, data }
}

/** The request folds read over the log with every event marked ignorable retyped as an unknown one. */
function foldSkippingIgnorable(operation: SyncOperation): SyncOperation {
  return input => operation({
    ...input,
    events: recordsOf(input).map(record => (isRecord(record) && record['ignorable'] === true ? { ...record, type: 'review/ignored' } : record)),
  })
}

/** The header in force with its config copied by Object.assign, which sets a prototype for `__proto__`. */
const headerCopiedByAssign: SyncOperation = input => {
  const result = ref.requestHeader(input)
  if (!result.ok || !isRecord(result.value)) return result
  return { ok: true, value: { ...result.value, config: Object.assign({}, result.value['config']) } }
}

/** headerEquals over snapshots whose adapterDefaults keep only the flags that are `true`. */
const falseFlagsAbsent: SyncOperation = input => {
  const onlyTrue = (snapshot: unknown): unknown => {
    if (!isRecord(snapshot) || !isRecord(snapshot['adapterDefaults'])) return snapshot
    return { ...snapshot, adapterDefaults: Object.fromEntries(Object.entries(snapshot['adapterDefaults']).filter(([, flag]) => flag === true)) }
  }
  return ref.headerEquals({ ...input, left: onlyTrue(input['left']), right: onlyTrue(input['right']) })
}

/** headerEquals comparing stop lists as JSON texts: elements that are objects or arrays become their text. */
const stopAsJson: SyncOperation = input => {
  const flattened = (snapshot: unknown): unknown => {
    const config = isRecord(snapshot) ? snapshot['config'] : undefined
    if (!isRecord(config) || !Array.isArray(config['stop'])) return snapshot
    const stop = config['stop'].map(item => (typeof item === 'object' && item !== null ? JSON.stringify(item) : item))
    return { ...(snapshot as EventRecord), config: { ...config, stop } }
  }
  return ref.headerEquals({ ...input, left: flattened(input['left']), right: flattened(input['right']) })
}

export const READER_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'surface-op-null-as-absent',
    bug: 'on load, a surfaceOp holding null counts as no surfaceOp, so a log-only event may carry one',
    caughtBy: ['surf-elig-surfaceop-null-on-log-only-reader'],
    patch: { load: loadForgiving((error, record) => error.code === 'SURFACE_OP_NOT_ALLOWED' && record?.['surfaceOp'] === null) },
  },
  {
    name: 'replace-end-defaults-to-start',
    bug: 'on load, a replace object without end replaces its start node alone',
    caughtBy: ['surf-grammar-missing-member-reader'],
    patch: { load: loadReading(withEndDefaulted) },
  },
  {
    name: 'surface-grammar-before-eligibility',
    bug: 'on load, a malformed surfaceOp on a log-only event is reported as malformed, not as not allowed',
    caughtBy: ['surf-check-eligibility-beats-grammar-reader'],
    patch: { load: grammarBeforeEligibility },
  },
  {
    name: 'empty-citations-refused-on-user-only',
    bug: 'on load, an empty citation list is refused on a user/message only',
    caughtBy: ['prov-empty-tool-result-reader'],
    patch: { load: loadForgiving((error, record) => error.code === 'PROVENANCE_EMPTY' && record?.['type'] !== 'user/message') },
  },
  {
    name: 'boolean-citation-as-number',
    bug: 'on load, a boolean citation reads as 0 or 1',
    caughtBy: ['prov-element-boolean-reader'],
    patch: { load: loadReading(withBooleanSourcesAsNumbers) },
  },
  {
    name: 'late-citation-checked-last-only',
    bug: 'on load, only the last citation is compared with the citing seq',
    caughtBy: ['prov-not-earlier-not-last-reader'],
    patch: { load: loadForgiving(lateCitationNotLast) },
  },
  {
    name: 'latest-citation-by-text-sort',
    bug: 'on load, the latest citation is the last of a default (text) sort, so 9 outranks 10',
    caughtBy: ['prov-not-earlier-two-digit-seqs-reader'],
    patch: { load: loadForgiving(lateCitationHiddenByTextSort) },
  },
  {
    name: 'citation-string-as-list',
    bug: 'on load, a citation list given as a string is read as the list of its characters',
    caughtBy: ['prov-not-array-string-reader'],
    patch: { load: loadReading(withStringSourcesSplit) },
  },
  {
    name: 'citations-checked-in-one-pass',
    bug: 'on load, each citation is checked for kind and lateness where it stands, duplicates after the pass',
    caughtBy: ['prov-order-whole-list-per-step-reader', 'prov-order-duplicate-before-not-earlier-reader'],
    patch: { load: citationsInOnePass },
  },
  {
    name: 'rewrite-is-error-defaults-false',
    bug: 'on load, a tool result without isError is compared as if it held false',
    caughtBy: ['rewr-data-is-error-added-reader'],
    patch: { load: loadReading(record => withResultBlock(record, block => ('isError' in block ? block : { ...block, isError: false }))) },
  },
  {
    name: 'rewrite-turn-and-step-skipped',
    bug: 'on load, a rewrite is compared with its original without turn and step',
    caughtBy: ['rewr-data-turn-step-reader'],
    patch: { load: loadIgnoringRewriteTurnAndStep },
  },
  {
    name: 'rewrite-boolean-equals-number',
    bug: 'on load, a rewrite comparison takes 1 for true and 0 for false',
    caughtBy: ['rewr-data-boolean-vs-number-reader'],
    patch: {
      load: loadReading(record => withResultBlock(record, block => (typeof block['isError'] === 'number' ? { ...block, isError: block['isError'] !== 0 } : block))),
    },
  },
  {
    name: 'rewrite-null-equals-absent',
    bug: 'on load, a member holding null compares equal to an absent one in a rewrite',
    caughtBy: ['rewr-data-null-vs-absent-reader'],
    patch: { load: loadReading(withoutNullMembers) },
  },
  {
    name: 'request-folds-skip-ignorable',
    bug: 'the request folds skip events marked ignorable, known types included',
    caughtBy: ['hdr-fold-ignorable-known-types-read'],
    patch: { requestHeader: foldSkippingIgnorable(ref.requestHeader), requestContext: foldSkippingIgnorable(ref.requestContext) },
  },
  {
    name: 'header-config-copied-by-assign',
    bug: 'the header in force copies its config with Object.assign, losing a member named __proto__',
    caughtBy: ['hdr-fold-config-member-named-proto-kept'],
    patch: { requestHeader: headerCopiedByAssign },
  },
  {
    name: 'header-equality-false-flag-absent',
    bug: 'headerEquals takes an adapter flag that is not true for an absent one',
    caughtBy: ['hdr-eq-edge-false-flag-beside-true-flag'],
    patch: { headerEquals: falseFlagsAbsent },
  },
  {
    name: 'header-equality-stop-as-json',
    bug: 'headerEquals compares stop lists as JSON texts, so equal nested elements match',
    caughtBy: ['hdr-eq-edge-stop-non-scalar-elements'],
    patch: { headerEquals: stopAsJson },
  },
]
