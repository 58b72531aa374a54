// Known-bad adapters from a third planted-bug review of `repair` and `fork` (138 bugs planted in a port
// of chapters 11, 12, 15 and 18; these passed every vector then): a repair scan that compares event or
// block types loosely, keys call ids as text, knows only some turn/end reasons or lets a user message
// answer a call; REPAIR-13 judging ids by a list of bad kinds or by white space; SEED-4's marker known
// by a type family; a fork that coerces an array boundary or drops an empty parent id; and LEGACY-6 and
// LEGACY-11 read another way. A scan bug is a port's scan (repair-review.ts); a legacy bug rewrites the
// stored records the way the port reads them before the reference loads them; the rest wrap the
// reference's repair, resume or fork.
import type { SessionEvent } from '../../reference/envelope.ts'
import { hasOwn } from '../../reference/lossless-json.ts'
import { repairClosers } from '../../reference/repair.ts'
import { messageOf } from '../../reference/vocabulary.ts'
import { forkThen } from './fork-review.ts'
import { storedReasonOf } from './fork-second-review.ts'
import { contentBlocks, resumeWith, RULES, scanned, scanPatch, toolCallIds, type Rule, type Scan } from './repair-review.ts'
import { accepted, dataOf, isRecord, loadedEvents, readOr, ref, rejected, wrapEach, type Input, type KnownBad, type Patch, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>
type Closers = { closers: EventRecord[] }

// ---- REPAIR-2, REPAIR-3: types compared loosely ---------------------------------------------------

/** The scan's end state when every event type is lower-cased first, so Turn/End closes a turn (an open turn gets closers). */
const scanOfLowerCasedTypes = (_scan: Scan, events: EventRecord[]): Scan | undefined => {
  const lowered = events.map(event => (typeof event['type'] === 'string' ? { ...event, type: event['type'].toLowerCase() } : event))
  const scan = scanned(lowered)
  return scan.turn === null ? undefined : scan
}

/** A block type with case, hyphens and underscores ignored, so tool_call, Tool-Call and toolCall read as tool-call. */
const isLooseToolCall = (block: unknown): boolean =>
  isRecord(block) && typeof block['type'] === 'string' && block['type'].toLowerCase().replace(/[-_]/g, '') === 'toolcall'

/** An assistant message registers every block whose type is tool-call written any way. */
const looseBlocksRegister: Rule = (scan, event) => {
  for (const block of contentBlocks(event)) if (isLooseToolCall(block)) scan.calls.set((block as EventRecord)['id'], { step: dataOf(event)['step'] })
}

/** The turn/end reason kinds the port knows (TURN-2's listed ones). */
const KNOWN_REASON_KINDS: ReadonlySet<unknown> = new Set(['completed', 'blocked', 'max-tokens', 'interrupted', 'disposed', 'aborted', 'error'])

/** A turn/end closes the turn only when its reason kind is one the port knows. */
const knownReasonsClose: Rule = (scan, event) => {
  const reason = dataOf(event)['reason']
  if (isRecord(reason) && KNOWN_REASON_KINDS.has(reason['kind'])) RULES['turn/end']!(scan, event)
}

// ---- REPAIR-3, REPAIR-4: how ids are keyed, what forgets -------------------------------------------

/** The call id a message's source names (a tool/result's answer, or any user message's source). */
const sourceCallId = (event: EventRecord): unknown => {
  const message = messageOf(event['type'], event['data'])
  const source = isRecord(message) ? message['source'] : undefined
  return isRecord(source) ? source['callId'] : undefined
}

/** A map key as a port keying by `String(id)` makes it: numbers stay numbers, objects stay themselves, null, true and absent become text. */
const textKey = (id: unknown): unknown => (typeof id === 'number' || (typeof id === 'object' && id !== null) ? id : String(id))

/** The registered ids whose text key is that of `id`. */
const sameKey = (scan: Scan, id: unknown): unknown[] => [...scan.calls.keys()].filter(key => textKey(key) === textKey(id))

/** REPAIR-3 and REPAIR-4 with ids matched by their text key, so null meets "null" and the absent id "undefined". */
const TEXT_KEYED_RULES: Record<string, Rule> = {
  'assistant/message': (scan, event) => {
    for (const id of toolCallIds(event)) {
      const registered = sameKey(scan, id)
      scan.calls.set(registered.length > 0 ? registered[0] : id, { step: dataOf(event)['step'] })
    }
  },
  'tool/call': (scan, event) => {
    for (const key of sameKey(scan, dataOf(event)['callId'])) scan.calls.get(key)!.callSeq = event['seq'] as number
  },
  'tool/result': (scan, event) => {
    for (const key of sameKey(scan, sourceCallId(event))) scan.calls.delete(key)
  },
}

/** A user message whose source names a call forgets that call, as if it were the call's result. */
const userSourceForgets: Rule = (scan, event) => {
  scan.calls.delete(sourceCallId(event))
}

/** The number of times `id` is a tool-call block's id in the last assistant message that registers it. */
function blocksNaming(events: EventRecord[], id: unknown): number {
  const registering = events.findLast(event => event['type'] === 'assistant/message' && toolCallIds(event).includes(id))
  return registering === undefined ? 1 : Math.max(1, toolCallIds(registering).filter(each => each === id).length)
}

/** A closer renumbered to `seq`, a synthetic result's message id following it. */
function renumbered(closer: EventRecord, seq: number): EventRecord {
  if (closer['type'] !== 'tool/result') return { ...closer, seq }
  const message = dataOf(closer)['message'] as EventRecord
  const callId = (message['source'] as EventRecord)['callId']
  return { ...closer, seq, data: { ...dataOf(closer), message: { ...message, id: `interrupted-tool-result-${String(callId)}-${seq}` } } }
}

/** A call id repeated inside one message is pushed once per block, so it gets one synthetic result per block. */
const repeatedIdPushedTwice: SyncOperation = input => {
  const result = ref.repair(input)
  const events = loadedEvents(input)
  if (!result.ok || events === undefined) return result
  const closers = (result.value as Closers).closers
  if (closers.length === 0) return result
  const repeated = closers.flatMap(closer => {
    if (closer['type'] !== 'tool/result') return [closer]
    const callId = ((dataOf(closer)['message'] as EventRecord)['source'] as EventRecord)['callId']
    return Array.from({ length: blocksNaming(events, callId) }, () => closer)
  })
  const first = closers[0]!['seq'] as number
  return accepted({ closers: repeated.map((closer, index) => renumbered(closer, first + index)) })
}

// ---- REPAIR-13: which ids are unloadable -----------------------------------------------------------

/** The call id a synthetic result closer names. */
const closerCallId = (closer: EventRecord): unknown => ((dataOf(closer)['message'] as EventRecord)['source'] as EventRecord)['callId']

/** repair with REPAIR-13 judged by `unloadable` instead of "not a non-empty string": the first closer it picks rejects, else the closers stand. */
function idsJudgedBy(unloadable: (id: unknown) => boolean): SyncOperation {
  return input => {
    const events = loadedEvents(input)
    if (events === undefined) return ref.repair(input)
    const closers = repairClosers(events as unknown as SessionEvent[]) as unknown as EventRecord[]
    const bad = closers.find(closer => closer['type'] === 'tool/result' && unloadable(closerCallId(closer)))
    return bad === undefined ? accepted({ closers }) : rejected('MESSAGE_SOURCE_INVALID', bad['seq'] as number)
  }
}

/** The bad kinds a port lists: the empty string, numbers and the absent id (null, booleans, objects and arrays slip through). */
const listedBadKinds = (id: unknown): boolean => id === '' || id === undefined || typeof id === 'number'

/** REPAIR-13 as "not a non-empty string", with a string tested after trim(), so an id of white space is unloadable. */
const blankIsBad = (id: unknown): boolean => typeof id !== 'string' || id.trim() === ''

// ---- SEED-4, FORK-6: the marker by a type family ---------------------------------------------------

/** A type of the session/end-seed family (session/end-seed/v2 included). */
const isEndSeedFamily = (event: EventRecord | undefined): boolean =>
  typeof event?.['type'] === 'string' && event['type'].startsWith('session/end-seed')

/** A fork whose seed ends in an event of the end-seed family gets no marker of its own. */
const forkMarkerByFamily = forkThen(child => {
  const seedLength = child.header['seedLength'] as number
  return accepted(isEndSeedFamily(child.events[seedLength - 1]) ? { ...child, events: child.events.slice(0, seedLength) } : child)
})

// ---- FORK-1, FORK-2, FORK-5: the boundary and the parent -------------------------------------------

/** An array boundary is converted with Number(), so [0] is 0 and [1] is 1. */
const arrayBoundaryCoerced: SyncOperation = input =>
  ref.fork(Array.isArray(input['boundary']) ? { ...input, boundary: Number(input['boundary']) } : input)

/** With no sessionId the parent is `header.id || undefined`, so an empty header id gives no parentSession. */
const emptyHeaderIdNoParent = forkThen((child, input) => {
  if (input['sessionId'] !== undefined || child.header['parentSession'] !== '') return accepted(child)
  const { parentSession: _dropped, ...header } = child.header
  return accepted({ ...child, header })
})

// ---- LEGACY-6, LEGACY-11: the upgrades as the port reads them --------------------------------------

/** The operations of the ports' profiles (repair, resume, fork) over the input's records as `read` rewrites them; a record it cannot read stays. */
function recordsReadAs(read: (record: unknown, records: unknown[]) => unknown): Patch {
  const readInput = (input: Input): Input => {
    const records = input['events']
    return Array.isArray(records) ? { ...input, events: records.map(record => readOr(() => read(record, records), record)) } : input
  }
  return wrapEach(['repair', 'resume', 'fork'], operation => input => operation(readInput(input)))
}

/** Every stored turn/end reason as `read` makes it, before the reference's LEGACY-6 upgrade sees it. */
function reasonsReadAs(read: (reason: EventRecord) => EventRecord): Patch {
  return recordsReadAs(record => {
    const reason = storedReasonOf(record)
    return reason === undefined ? record : { ...(record as EventRecord), data: { ...dataOf(record), reason: read(reason) } }
  })
}

/** A record without the member `name`. */
function without(record: EventRecord, name: string): EventRecord {
  return Object.fromEntries(Object.entries(record).filter(([key]) => key !== name))
}

/** Every aborted reason is taken for the legacy one (its own reason member ignored). */
const abortedAlwaysLegacy = (reason: EventRecord): EventRecord => (reason['kind'] === 'aborted' ? without(reason, 'reason') : reason)

/** An error reason with a message or failure member is taken for the legacy shape, even when it has an error member. */
const errorLegacyByMessage = (reason: EventRecord): EventRecord =>
  reason['kind'] === 'error' && (hasOwn(reason, 'message') || hasOwn(reason, 'failure')) ? without(reason, 'error') : reason

/** Whether a stored record is current-shape with a message id the port never records (only upgraded records feed its id table). */
function currentWithMessage(record: unknown): boolean {
  if (!isRecord(record) || record['type'] === 'steering/message') return false
  const data = dataOf(record)
  return record['type'] === 'user/message' ? hasOwn(data, 'id') : isRecord(data['message'])
}

/** An unwrapped tool/result rewrite of a current-shape record, wrapped with no id: the port's id table has none for it. */
function rewriteOfCurrentUnnamed(record: unknown, records: unknown[]): unknown {
  if (!isRecord(record) || record['type'] !== 'tool/result' || !isRecord(record['surfaceOp']) || record['surfaceOp']['op'] !== 'replace') return record
  const data = dataOf(record)
  if (hasOwn(data, 'message') || !hasOwn(data, 'callId') || !hasOwn(data, 'content') || !hasOwn(data, 'isError')) return record
  const start = record['surfaceOp']['start']
  if (!currentWithMessage(records.find(each => isRecord(each) && each['seq'] === start))) return record
  const { callId, content, isError, ...rest } = data
  const message = { role: 'user', content: [{ type: 'tool-result', toolCallId: callId, content, isError }], source: { kind: 'tool', callId } }
  return { ...record, data: { ...rest, message } }
}

export const REPAIR_FORK_THIRD_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'repair-types-case-folded',
    bug: 'the repair scan compares event types case-insensitively, so an ignorable Turn/End closes the open turn',
    caughtBy: ['repair-turn-types-by-exact-name'],
    patch: scanPatch({ closes: scanOfLowerCasedTypes }),
  },
  {
    name: 'repair-block-types-normalized',
    bug: 'block types are compared with case, hyphens and underscores ignored, so tool_call, Tool-Call and toolCall blocks register calls',
    caughtBy: ['repair-block-types-by-exact-name'],
    patch: scanPatch({ rules: { 'assistant/message': looseBlocksRegister } }),
  },
  {
    name: 'repair-turn-end-known-kinds-only',
    bug: 'a turn/end closes the turn only when its reason kind is one the port knows, so a paused turn/end leaves it open',
    caughtBy: ['repair-turn-end-of-unknown-reason-kind-closes'],
    patch: scanPatch({ rules: { 'turn/end': knownReasonsClose } }),
  },
  {
    name: 'repair-call-ids-keyed-as-text',
    bug: 'registered calls are keyed by String(id) for non-numbers, so a result for "null" or "undefined" forgets the id null or the absent id',
    caughtBy: ['repair-id-null-not-removed-by-string-null', 'repair-absent-id-not-removed-by-string-undefined'],
    patch: scanPatch({ rules: TEXT_KEYED_RULES }),
  },
  {
    name: 'repair-user-message-source-forgets-call',
    bug: 'a user/message whose source names a callId forgets that call, as a tool/result would',
    caughtBy: ['repair-user-message-with-tool-source-forgets-nothing'],
    patch: scanPatch({ rules: { 'user/message': userSourceForgets } }),
  },
  {
    name: 'repair-repeated-id-results-twice',
    bug: 'a call id repeated inside one assistant message is registered once per block, so it gets two synthetic results',
    caughtBy: ['repair-call-id-repeated-in-one-message'],
    patch: { repair: repeatedIdPushedTwice, resume: resumeWith(repeatedIdPushedTwice) },
  },
  {
    name: 'repair-bad-id-kinds-listed',
    bug: 'REPAIR-13 rejects only the ids of the kinds the port lists ("", numbers, absent), so null, true, objects and arrays are written',
    caughtBy: ['repair-object-or-array-call-id-rejected', 'repair-boolean-call-id-rejected', 'repair-id-null-not-removed-by-string-null'],
    patch: { repair: idsJudgedBy(listedBadKinds), resume: resumeWith(idsJudgedBy(listedBadKinds)) },
  },
  {
    name: 'repair-blank-call-id-unloadable',
    bug: 'REPAIR-13 tests a string id after trim(), so a call id of white space is rejected',
    caughtBy: ['repair-blank-call-id-is-loadable'],
    patch: { repair: idsJudgedBy(blankIsBad), resume: resumeWith(idsJudgedBy(blankIsBad)) },
  },
  {
    name: 'seed-marker-by-type-prefix',
    bug: 'resume and fork take a last event whose type starts with session/end-seed (session/end-seed/v2) for the marker',
    caughtBy: ['seed-resume-look-alike-marker-type-gets-marker', 'fork-look-alike-marker-type-gets-marker'],
    patch: { resume: resumeWith(ref.repair, seed => isEndSeedFamily(seed.at(-1))), fork: forkMarkerByFamily },
  },
  {
    name: 'fork-boundary-array-coerced',
    bug: 'an array boundary is converted with Number(), so [0] and [1] fork at seq 0 and 1',
    caughtBy: ['fork-boundary-array-or-object'],
    patch: { fork: arrayBoundaryCoerced },
  },
  {
    name: 'fork-parent-empty-header-id-dropped',
    bug: "with no sessionId the parent is `header.id || undefined`, so a header id of \"\" gives no parentSession",
    caughtBy: ['fork-parent-from-empty-header-id'],
    patch: { fork: emptyHeaderIdNoParent },
  },
  {
    name: 'legacy-aborted-always-upgraded',
    bug: 'every aborted turn/end reason is upgraded to the legacy one, even one that has its own reason member',
    caughtBy: ['legacy-current-aborted-reason-kept-by-resume', 'fork-current-aborted-reason-kept', 'legacy-resume-null-members-and-empty-code-kept-as-stored'],
    patch: reasonsReadAs(abortedAlwaysLegacy),
  },
  {
    name: 'legacy-error-upgraded-by-message-member',
    bug: 'an error reason with a message or failure member is upgraded as legacy, even when it has an error member',
    caughtBy: ['legacy-resume-error-reason-with-error-and-message-kept'],
    patch: reasonsReadAs(errorLegacyByMessage),
  },
  {
    name: 'legacy-id-table-skips-current',
    bug: 'only upgraded records feed the LEGACY-11 id table, so an unwrapped rewrite of a current-shape result gets no id and the log is refused',
    caughtBy: ['legacy-rewrite-of-current-result-inherits-its-id'],
    patch: recordsReadAs(rewriteOfCurrentUnnamed),
  },
]
