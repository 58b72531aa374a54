// Known-bad writers from a planted-bug review of append (bugs planted in a second implementation of
// chapters 00, 02, 04, 09, 10, 16 and 18; these passed every writer vector then): a falsy clock or an
// undefined header read the way `||` and `in` read them, message, turn, step, header and legacy shape
// checks that a port makes looser or stricter, the pairing relation run on append, and a copy that
// never sees a hidden member. Each wraps the reference's append: it checks the candidate as the bug
// reads it (an accepted event keeping the candidate as given), or rejects what the bug rejects.
import { hasOwn } from '../../reference/lossless-json.ts'
import { accepted, appendedEvent, dataOf, isRecord, recordsOf, ref, rejected, type KnownBad, type SyncOperation, type Violation } from './wrap.ts'

type EventRecord = Record<string, unknown>

/** How the bug reads a candidate: the candidate it checks in its place, or undefined when the bug has no bearing on it. */
type CandidateReading = (candidate: EventRecord) => EventRecord | undefined

/** append checking the candidate as `reading` gives it; an accepted event holds the candidate as given. */
function appendReading(reading: CandidateReading): SyncOperation {
  return input => {
    const candidate = input['candidate']
    const read = isRecord(candidate) ? reading(candidate) : undefined
    if (read === undefined) return ref.append(input)
    const result = ref.append({ ...input, candidate: read })
    return result.ok ? accepted(appendedEvent(input)) : result
  }
}

/** append rejecting with `code`, at the candidate's seq, a candidate the reference accepts and `refused` matches. */
function appendRefusing(code: string, refused: (candidate: EventRecord) => boolean): SyncOperation {
  return input => {
    const result = ref.append(input)
    const candidate = input['candidate']
    return result.ok && isRecord(candidate) && refused(candidate) ? rejected(code, recordsOf(input).length) : result
  }
}

/** The candidate's data, when the candidate has the given type and its data is an object. */
export function dataOfType(candidate: EventRecord, type: string): EventRecord | undefined {
  return candidate['type'] === type && isRecord(candidate['data']) ? candidate['data'] : undefined
}

/** The candidate with its data's `name` member set to `value`. */
export function withDataMember(candidate: EventRecord, name: string, value: unknown): EventRecord {
  return { ...candidate, data: { ...dataOf(candidate), [name]: value } }
}

/** The record without the members named. */
function without(record: EventRecord, ...names: string[]): EventRecord {
  return Object.fromEntries(Object.entries(record).filter(([member]) => !names.includes(member)))
}

/** A non-empty string the bug's looser check lets stand where the candidate has none. */
const STAND_IN = 'known-bad: stand-in'

// ---- PROC-4, PROC-10: the clock and the header -------------------------------------------------

/** The clock value that replaces a falsy time (a port's `time || Date.now()`, its clock held still). */
const CLOCK_NOW = 1

/** append with a falsy time input replaced by the clock, as `input.time || Date.now()` replaces it. */
const falsyTimeDefaulted: SyncOperation = input => ref.append({ ...input, time: input['time'] || CLOCK_NOW })

/** append that takes a header member holding undefined for a header (`'header' in input`) and finds it no object. */
const undefinedHeaderPresent: SyncOperation = input =>
  ('header' in input && input['header'] === undefined ? rejected('HEADER_NOT_OBJECT') : ref.append(input))

// ---- VOC-11, VOC-12, VOC-13: message shapes ----------------------------------------------------

/** The message of a candidate of the given type (in its data), when it is an object. */
function messageOfType(candidate: EventRecord, type: string): EventRecord | undefined {
  const message = dataOfType(candidate, type)?.['message']
  return isRecord(message) ? message : undefined
}

/** An assistant/message whose model source lacks a provider, or has an empty model, read with both filled in (the kind alone checked). */
const modelSourceKindOnly: CandidateReading = candidate => {
  const message = messageOfType(candidate, 'assistant/message')
  const source = message?.['source']
  if (!isRecord(source) || source['kind'] !== 'model') return undefined
  const filled = { ...(hasOwn(source, 'provider') ? {} : { provider: STAND_IN }), ...(source['model'] === '' ? { model: STAND_IN } : {}) }
  if (Object.keys(filled).length === 0) return undefined
  return withDataMember(candidate, 'message', { ...message, source: { ...source, ...filled } })
}

/** The single tool-result block of a tool/result candidate's message, when it is one object. */
function resultBlockOf(candidate: EventRecord): EventRecord | undefined {
  const content = messageOfType(candidate, 'tool/result')?.['content']
  return Array.isArray(content) && content.length === 1 && isRecord(content[0]) ? content[0] : undefined
}

/** The tool/result candidate with its single block replaced by `block`. */
function withResultBlock(candidate: EventRecord, block: EventRecord): EventRecord {
  return withDataMember(candidate, 'message', { ...messageOfType(candidate, 'tool/result'), content: [block] })
}

/** A tool-result block whose content is no array read with an empty one, as if its content were never checked. */
const blockContentUnchecked: CandidateReading = candidate => {
  const block = resultBlockOf(candidate)
  return block === undefined || Array.isArray(block['content']) ? undefined : withResultBlock(candidate, { ...block, content: [] })
}

/** A tool-result block without a toolCallId read with its source's callId, as if a missing one matched. */
const missingCallIdMatches: CandidateReading = candidate => {
  const block = resultBlockOf(candidate)
  const source = messageOfType(candidate, 'tool/result')?.['source']
  if (block === undefined || hasOwn(block, 'toolCallId') || !isRecord(source)) return undefined
  return withResultBlock(candidate, { ...block, toolCallId: source['callId'] })
}

// ---- PAIR-2: pairing belongs to relations --------------------------------------------------------

/** append that runs relations over the log and the accepted event, and rejects a tool/result they find orphaned. */
const pairingOnAppend: SyncOperation = input => {
  const result = ref.append(input)
  if (!result.ok) return result
  const seq = recordsOf(input).length
  const relations = ref.relations({ ...input, events: [...recordsOf(input), result.value] })
  const violations = relations.ok ? (relations.value as { violations: Violation[] }).violations : []
  return violations.some(violation => violation.code === 'TOOL_RESULT_ORPHAN' && violation.seq === seq) ? rejected('TOOL_RESULT_ORPHAN', seq) : result
}

// ---- TURN-1, TURN-2: turn and step payloads -------------------------------------------------------

/** The types whose data.step TURN-1 checks. */
const STEP_TYPES: ReadonlySet<string> = new Set(['step/start', 'step/end', 'assistant/chunk', 'tool/call'])

/** The candidate's data, when its type's data.step is checked by TURN-1 and its data is an object. */
function stepDataOf(candidate: EventRecord): EventRecord | undefined {
  return STEP_TYPES.has(candidate['type'] as string) && isRecord(candidate['data']) ? candidate['data'] : undefined
}

/** A tool/call with an empty callId read with a non-empty one, as a check of its type alone reads it. */
const emptyCallIdAccepted: CandidateReading = candidate =>
  (dataOfType(candidate, 'tool/call')?.['callId'] === '' ? withDataMember(candidate, 'callId', STAND_IN) : undefined)

/** A boolean step read as the number it converts to (true as 1), as an integer test that counts booleans reads it. */
const stepBooleanAsInteger: CandidateReading = candidate => {
  const step = stepDataOf(candidate)?.['step']
  return typeof step === 'boolean' ? withDataMember(candidate, 'step', Number(step)) : undefined
}

/** A step beyond the safe integers read as step 1, as Number.isInteger lets it pass. */
const unsafeStepAccepted: CandidateReading = candidate => {
  const step = stepDataOf(candidate)?.['step']
  return Number.isInteger(step) && (step as number) > Number.MAX_SAFE_INTEGER ? withDataMember(candidate, 'step', 1) : undefined
}

/** A turn/end whose turn is a boolean read as the number it converts to (true as 1). */
const turnEndBooleanAsInteger: CandidateReading = candidate => {
  const turn = dataOfType(candidate, 'turn/end')?.['turn']
  return typeof turn === 'boolean' ? withDataMember(candidate, 'turn', Number(turn)) : undefined
}

/** The kind-only reasons that a writer listing only what a live writer produces leaves out (their shape unchecked). */
const UNLISTED_KIND_ONLY = new Set(['interrupted', 'max-tokens'])

/** The reason of a turn/end candidate, when it is an object. */
function reasonOf(candidate: EventRecord): EventRecord | undefined {
  const reason = dataOfType(candidate, 'turn/end')?.['reason']
  return isRecord(reason) ? reason : undefined
}

/** An interrupted or max-tokens reason with members besides kind read as its kind alone. */
const unlistedKindsUnchecked: CandidateReading = candidate => {
  const reason = reasonOf(candidate)
  if (reason === undefined || !UNLISTED_KIND_ONLY.has(reason['kind'] as string) || Object.keys(reason).length === 1) return undefined
  return withDataMember(candidate, 'reason', { kind: reason['kind'] })
}

/** A reason whose kind is the empty string read as one without a kind, as `!reason.kind` reads it. */
const emptyKindMissing: CandidateReading = candidate => {
  const reason = reasonOf(candidate)
  return reason?.['kind'] === '' ? withDataMember(candidate, 'reason', without(reason, 'kind')) : undefined
}

// ---- HDR-2: the request header -----------------------------------------------------------------

/** The adapterDefaults flags, each naming the config field it asks for. */
const ADAPTER_DEFAULT_FLAGS = ['reasoningEffort', 'maxTokens']

/** The header of a request/header candidate, when it is an object. */
export function headerOf(candidate: EventRecord): EventRecord | undefined {
  const header = dataOfType(candidate, 'request/header')?.['header']
  return isRecord(header) ? header : undefined
}

/** An adapterDefaults member holding null read as absent, as `header.adapterDefaults != null` reads it. */
const nullDefaultsAbsent: CandidateReading = candidate => {
  const header = headerOf(candidate)
  return header !== undefined && hasOwn(header, 'adapterDefaults') && header['adapterDefaults'] === null
    ? withDataMember(candidate, 'header', without(header, 'adapterDefaults'))
    : undefined
}

/** A flagged config field holding a falsy value read as absent, as a truthiness test of config[flag] reads it. */
const falsyFlaggedFieldAbsent: CandidateReading = candidate => {
  const header = headerOf(candidate)
  const defaults = header?.['adapterDefaults']
  const config = header?.['config']
  if (!isRecord(defaults) || !isRecord(config)) return undefined
  const falsy = ADAPTER_DEFAULT_FLAGS.filter(flag => hasOwn(defaults, flag) && hasOwn(config, flag) && !config[flag])
  if (falsy.length === 0) return undefined
  return withDataMember(candidate, 'header', { ...header, config: without(config, ...falsy) })
}

// ---- LEGACY-2, LEGACY-5: legacy shapes ---------------------------------------------------------

/** A turn/start whose trigger is null read as one without a trigger, as `data.trigger != null` reads it. */
const nullTriggerAbsent: CandidateReading = candidate => {
  const data = dataOfType(candidate, 'turn/start')
  return data !== undefined && hasOwn(data, 'trigger') && data['trigger'] === null ? { ...candidate, data: without(data, 'trigger') } : undefined
}

/** A candidate of another type than request/header whose data.reason is fallback, which a test of data.reason on every type refuses. */
function fallbackOnOtherType(candidate: EventRecord): boolean {
  return candidate['type'] !== 'request/header' && dataOf(candidate)['reason'] === 'fallback'
}

// ---- JSON-9: hidden members --------------------------------------------------------------------

/** Whether the object's own member `key` is enumerable. */
function isEnumerable(record: EventRecord, key: PropertyKey): boolean {
  return Object.prototype.propertyIsEnumerable.call(record, key)
}

/** The object with only its enumerable own members (its prototype kept), as a copy walking Object.keys makes it. */
function enumerableOnly(record: EventRecord): EventRecord {
  const copy = Object.create(Object.getPrototypeOf(record)) as EventRecord
  for (const key of Reflect.ownKeys(record).filter(key => isEnumerable(record, key))) {
    Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(record, key)!)
  }
  return copy
}

/** append with candidate data that has a non-enumerable own member copied without it first (the data as the copy holds it). */
const hiddenDataMemberUnseen: SyncOperation = input => {
  const candidate = input['candidate']
  const data = isRecord(candidate) ? candidate['data'] : undefined
  if (!isRecord(candidate) || !isRecord(data) || Reflect.ownKeys(data).every(key => isEnumerable(data, key))) return ref.append(input)
  return ref.append({ ...input, candidate: { ...candidate, data: enumerableOnly(data) } })
}

export const WRITER_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'time-falsy-default',
    bug: 'a falsy time input is replaced by the clock, as `input.time || Date.now()` replaces it',
    caughtBy: ['proc-append-time-zero-is-a-time'],
    patch: { append: falsyTimeDefaulted },
  },
  {
    name: 'header-undefined-present',
    bug: "a header member holding undefined is taken for a header (`'header' in input`) and rejected as no object",
    caughtBy: ['proc-append-header-undefined-is-absent'],
    patch: { append: undefinedHeaderPresent },
  },
  {
    name: 'msg-assistant-provider-optional',
    bug: "an assistant/message's model source is checked for its kind alone, so a missing provider or an empty model passes",
    caughtBy: ['voc-source-model-route-append'],
    patch: { append: appendReading(modelSourceKindOnly) },
  },
  {
    name: 'msg-tool-block-content-unchecked',
    bug: "a tool-result block's content is not checked to be an array",
    caughtBy: ['voc-tool-result-block-content-append'],
    patch: { append: appendReading(blockContentUnchecked) },
  },
  {
    name: 'msg-toolcallid-missing-ok',
    bug: 'a tool-result block without a toolCallId is accepted, as only a present one is compared with the source',
    caughtBy: ['voc-tool-result-call-id-missing-append'],
    patch: { append: appendReading(missingCallIdMatches) },
  },
  {
    name: 'pair-enforced-on-append',
    bug: 'append runs the pairing relation, so a tool/result answering no pending call is rejected as an orphan',
    caughtBy: ['pair-append-result-without-call-accepted'],
    patch: { append: pairingOnAppend },
  },
  {
    name: 'turn1-callid-empty-ok',
    bug: "a tool/call's callId is checked to be a string only, so the empty string passes",
    caughtBy: ['turn-shape-append-tool-call-empty-call-id'],
    patch: { append: appendReading(emptyCallIdAccepted) },
  },
  {
    name: 'turn1-step-bool-as-int',
    bug: "a candidate's step true is read as 1, as an integer test that counts booleans reads it",
    caughtBy: ['turn-shape-append-step-boolean-and-unsafe'],
    patch: { append: appendReading(stepBooleanAsInteger) },
  },
  {
    name: 'turn1-step-unsafe-ok',
    bug: "a candidate's step is tested with Number.isInteger, so 2^53 and beyond pass",
    caughtBy: ['turn-shape-append-step-boolean-and-unsafe'],
    patch: { append: appendReading(unsafeStepAccepted) },
  },
  {
    name: 'turn2-turn-bool-as-int',
    bug: "a turn/end candidate's turn true is read as 1",
    caughtBy: ['turn-end-append-boolean-turn'],
    patch: { append: appendReading(turnEndBooleanAsInteger) },
  },
  {
    name: 'turn2-interrupted-extra-ok',
    bug: "the writer's list of kind-only reasons leaves out interrupted and max-tokens, so either passes with an extra member",
    caughtBy: ['turn-end-append-kind-only-kinds'],
    patch: { append: appendReading(unlistedKindsUnchecked) },
  },
  {
    name: 'turn2-kind-nonempty',
    bug: 'a turn/end reason whose kind is the empty string is rejected as having no kind',
    caughtBy: ['turn-end-append-empty-kind-accepted'],
    patch: { append: appendReading(emptyKindMissing) },
  },
  {
    name: 'hdr-adapter-defaults-null-absent',
    bug: 'a request/header whose adapterDefaults is null is read as one without adapterDefaults',
    caughtBy: ['hdr-shape-append-adapter-defaults-null-or-not-true'],
    patch: { append: appendReading(nullDefaultsAbsent) },
  },
  {
    name: 'hdr-flag-config-truthy',
    bug: 'the config field an adapterDefaults flag asks for is tested for truthiness, so 0 and null count as missing',
    caughtBy: ['hdr-shape-append-adapter-defaults-flagged-field-any-value'],
    patch: { append: appendReading(falsyFlaggedFieldAbsent) },
  },
  {
    name: 'legacy-trigger-null-skipped',
    bug: 'a turn/start candidate whose trigger is null is read as one without a trigger',
    caughtBy: ['legacy-writer-trigger-null-or-extra-member'],
    patch: { append: appendReading(nullTriggerAbsent) },
  },
  {
    name: 'legacy-fallback-any-type',
    bug: 'a candidate of any type whose data.reason is fallback is rejected, not only a request/header',
    caughtBy: ['legacy-writer-fallback-only-on-request-header'],
    patch: { append: appendRefusing('LEGACY_FALLBACK_REASON', fallbackOnOtherType) },
  },
  {
    name: 'json-non-enumerable-ok',
    bug: "a non-enumerable member of a candidate's data is never seen, as a copy walking Object.keys leaves it out",
    caughtBy: ['json-non-enumerable-append'],
    patch: { append: hiddenDataMemberUnseen },
  },
]
