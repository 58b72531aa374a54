// Known-bad adapters with the bugs a second implementation makes, which only an input one step past
// the obvious case shows: one more event, turn or bracket, a member a writer checks apart from load, a
// name on Object.prototype, a looser equality. Reviews planted each in an implementation of their own,
// and each passed every vector of its profile then.
import { repairClosers } from '../../reference/repair.ts'
import { jsonEqual } from '../../reference/lossless-json.ts'
import { withBlankedResultContent } from '../../reference/tool-result-rewrites.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import {
  accepted, answeredCallId, appendedEvent, compactionStateOver, compactionStateWithLock, copiedByAssignment, dataOf, forgivingRelations, isRecord, lateCitationHiddenByTextSort,
  lateCitationNotLast, loadedEvents, ref, rejected, skippingCheck, stringsEdited, type Input, type KnownBad, type SyncOperation, type Violation,
} from './wrap.ts'

type EventRecord = Record<string, unknown>
type Child = { header: EventRecord; events: EventRecord[] }

/** `value[name]` when `value` is an object, else undefined. */
const memberAt = (value: unknown, name: string): unknown => (isRecord(value) ? value[name] : undefined)

/** The child gets no marker of its own when any seed event is an end-seed, not only the last one. */
const forkMarkerIfAny: SyncOperation = input => {
  const result = ref.fork(input)
  if (!result.ok) return result
  const child = result.value as Child
  const seed = child.events.slice(0, child.header['seedLength'] as number)
  if (seed.length === child.events.length || !seed.some(event => event['type'] === 'session/end-seed')) return result
  return accepted({ ...child, events: seed })
}

/** The prefix deep-copied member by member. */
const forkCopiedByAssignment: SyncOperation = input => {
  const result = ref.fork(input)
  return result.ok ? accepted(copiedByAssignment(result.value)) : result
}

/** The child's header is the source header with what changes replaced, not the members FORK-5 lists. */
const forkHeaderFromSource: SyncOperation = input => {
  const result = ref.fork(input)
  if (!result.ok || !isRecord(input['header'])) return result
  const { origin, delegationDepth, agentPreset, ...inherited } = input['header']
  const child = result.value as Child
  return accepted({ ...child, header: { ...inherited, ...child.header } })
}

/** Fork tracks open turns by number: a turn/end closes only the turn it names. */
const forkTurnsByNumber: SyncOperation = input => {
  const result = ref.fork(input)
  if (!result.ok) return result
  const child = result.value as Child
  const open = new Map<unknown, number>()
  for (const event of child.events.slice(0, child.header['seedLength'] as number)) {
    if (event['type'] === 'turn/start') open.set(dataOf(event)['turn'], event['seq'] as number)
    if (event['type'] === 'turn/end') open.delete(dataOf(event)['turn'])
  }
  return open.size === 0 ? result : rejected('FORK_OPEN_TURN', Math.max(...open.values()))
}

/** An event a scan skips, as one of no type it reads, at the same seq and time. */
function skipped(event: EventRecord): EventRecord {
  return { type: 'x-known-bad/skipped', seq: event['seq'], time: event['time'], data: {}, ignorable: true }
}

/** Repair's scan honours a step/end only when it names the open step; any other is skipped. */
const repairStepEndByNumber: SyncOperation = input => {
  const events = loadedEvents(input)
  if (events === undefined) return ref.repair(input)
  let openStep: unknown = null
  const scanned = events.map(event => {
    if (event['type'] === 'turn/start' || event['type'] === 'turn/end') openStep = null
    if (event['type'] === 'step/start') openStep = dataOf(event)['step']
    if (event['type'] !== 'step/end') return event
    if (dataOf(event)['step'] === openStep) {
      openStep = null
      return event
    }
    return skipped(event)
  })
  return ref.repair({ ...input, events: scanned })
}

/** REPAIR-13's rejection carries the seq of the last closer that cannot load, not the first. */
function namingLastBadCloser(operation: SyncOperation): SyncOperation {
  return input => {
    const result = operation(input)
    const events = loadedEvents(input)
    if (result.ok || result.error.code !== 'MESSAGE_SOURCE_INVALID' || events === undefined) return result
    const callId = (closer: SessionEvent): unknown => memberAt(memberAt(dataOf(closer)['message'], 'source'), 'callId')
    const unloadable = (closer: SessionEvent): boolean => closer.type === 'tool/result' && (typeof callId(closer) !== 'string' || callId(closer) === '')
    return rejected('MESSAGE_SOURCE_INVALID', repairClosers(events as unknown as SessionEvent[]).filter(unloadable).at(-1)?.seq)
  }
}

const compactSource = (event: EventRecord): EventRecord | undefined => {
  const source = dataOf(event)['source']
  return event['type'] === 'user/message' && isRecord(source) && source['kind'] === 'plugin' && source['plugin'] === 'compact' ? source : undefined
}

/** A compact plugin's user/message marks its bracket as a checkpoint whatever its surfaceOp. */
const appendedMessageIsCheckpoint = compactionStateOver(events => events.map(event =>
  compactSource(event) === undefined || isRecord(event['surfaceOp']) ? event : { ...event, surfaceOp: { op: 'replace', start: 0, end: 0 } }))

/** A summary or checkpoint marks only the bracket whose compactionId it names. */
const marksByCompactionId = compactionStateOver(events => {
  let openId: unknown
  return events.map(event => {
    if (event['type'] === 'compaction/start') openId = dataOf(event)['compactionId']
    if (event['type'] === 'compaction/summary' && dataOf(event)['compactionId'] !== openId) return { ...event, type: 'x-known-bad/unmarked' }
    const source = compactSource(event)
    return source !== undefined && source['compactionId'] !== openId ? { ...event, surfaceOp: 'append' } : event
  })
})

/** An unmatched start is stale when an end-seed has a later time, not a greater seq. */
const staleByTime = compactionStateWithLock((events, start) =>
  !events.some(event => event['type'] === 'session/end-seed' && (event['time'] as number) > (start['time'] as number)))

/** The automatic owner is the highest turn number started, not the latest turn/start's. */
const ownerHighestTurn: SyncOperation = input => {
  const result = ref.compactionState(input)
  const events = loadedEvents(input)
  if (!result.ok || input['entry'] !== 'automatic' || events === undefined) return result
  const turns = events.filter(event => event['type'] === 'turn/start').map(event => dataOf(event)['turn'] as number)
  return accepted({ ...(result.value as EventRecord), owner: Math.max(...turns) })
}

/** An append that lets pass the rejection `skipped` matches, as a writer whose own check misses it. */
const appendSkipping = (skipped: Parameters<typeof skippingCheck>[0]): SyncOperation => skippingCheck(skipped).append!

/** The writer tests a turn/start's turn as an integer, not a safe one. */
const turnIntegerNotSafe = appendSkipping((error, record) =>
  error.code === 'PAYLOAD_INVALID' && record?.['type'] === 'turn/start' && Number.isInteger(dataOf(record)['turn']))

/** The writer's list of kind-only turn/end reasons leaves out disposed. */
const disposedReasonOpen = appendSkipping((error, record) =>
  error.code === 'TURN_END_MALFORMED' && memberAt(dataOf(record)['reason'], 'kind') === 'disposed')

/** The writer takes any string as reasoningEffort, the empty one included. */
const emptyEffortAccepted = appendSkipping((error, record) =>
  error.code === 'REQUEST_HEADER_INVALID' && memberAt(memberAt(dataOf(record)['header'], 'config'), 'reasoningEffort') === '')

/** The writer tests only the last cited seq against its own, as if every list were ascending. */
const lastCitationOnly = appendSkipping(lateCitationNotLast)

/** The writer tests the largest cited seq after a sort that compares them as text. */
const citationsSortedAsText = appendSkipping(lateCitationHiddenByTextSort)

/** The writer checks adapterDefaults by its first member alone. */
const adapterDefaultsFirstMemberOnly: SyncOperation = input => {
  const result = ref.append(input)
  const candidate = isRecord(input['candidate']) ? input['candidate'] : {}
  const header = dataOf(candidate)['header']
  const flags = memberAt(header, 'adapterDefaults')
  if (result.ok || result.error.code !== 'REQUEST_HEADER_INVALID' || !isRecord(flags)) return result
  const firstOnly = Object.fromEntries(Object.entries(flags).slice(0, 1))
  const checked = { ...candidate, data: { ...dataOf(candidate), header: { ...(header as EventRecord), adapterDefaults: firstOnly } } }
  return ref.append({ ...input, candidate: checked }).ok ? accepted(appendedEvent(input)) : result
}

/** Equality written over Object.keys, as by hand: {} and [] both have no keys, so they are equal. */
function equalByKeys(left: unknown, right: unknown): boolean {
  if (typeof left !== 'object' || left === null || typeof right !== 'object' || right === null) return Object.is(left, right)
  const names = Object.keys(left)
  return names.length === Object.keys(right).length
    && names.every(name => equalByKeys((left as EventRecord)[name], (right as EventRecord)[name]))
}

/** The candidate rewrite and the earlier event `find` picks as its original, if both are there. */
function rewriteAndEarlier(input: Input, find: (events: EventRecord[], rewrite: EventRecord) => EventRecord | undefined): [EventRecord, EventRecord] | undefined {
  const rewrite = input['candidate']
  if (!isRecord(rewrite) || rewrite['type'] !== 'tool/result' || !isRecord(rewrite['surfaceOp'])) return undefined
  const earlier = find((input['events'] as unknown[]).filter(isRecord), rewrite)
  return earlier === undefined ? undefined : [rewrite, earlier]
}

/** The writer compares a rewrite with its original by an equality over Object.keys. */
const rewriteEqualByKeys: SyncOperation = input => {
  const result = ref.append(input)
  if (result.ok || result.error.code !== 'REWRITE_DATA_CHANGED') return result
  const pair = rewriteAndEarlier(input, (events, rewrite) => events.find(event => event['seq'] === memberAt(rewrite['surfaceOp'], 'start')))
  if (pair === undefined) return result
  return equalByKeys(withBlankedResultContent(pair[0]['data']), withBlankedResultContent(pair[1]['data'])) ? accepted(appendedEvent(input)) : result
}

/** The writer finds a rewrite's original as the first result of the same call id, not the node it shadows. */
const rewriteOriginalByCallId: SyncOperation = input => {
  const result = ref.append(input)
  if (!result.ok) return result
  const callIdOf = (event: EventRecord): unknown => memberAt(memberAt(dataOf(event)['message'], 'source'), 'callId')
  const pair = rewriteAndEarlier(input, (events, rewrite) => events.find(event => event['type'] === 'tool/result' && callIdOf(event) === callIdOf(rewrite)))
  if (pair === undefined) return result
  const same = jsonEqual(withBlankedResultContent(pair[0]['data']), withBlankedResultContent(pair[1]['data']))
  return same ? result : rejected('REWRITE_DATA_CHANGED', (input['events'] as unknown[]).length)
}

/** Events that end a bracket's life in a relations scan, and that the bug lets pass without disarming a claim. */
const BRACKET_EVENTS = new Set(['session/end-seed', 'compaction/start', 'compaction/end'])

/** A claim stays armed across an end-seed, a compaction/start or a compaction/end, until the next replace. */
const claimKeptAcrossBracketEvents: SyncOperation = input => {
  const result = ref.relations(input)
  if (!result.ok) return result
  const violations = (result.value as { violations: Violation[] }).violations
  const added: Violation[] = []
  let claim: unknown
  for (const event of loadedEvents(input) ?? []) {
    const type = event['type'] as string
    const op = event['surfaceOp']
    if (type === 'compaction/summary' || type === 'compaction/prune') claim = dataOf(event)['shadowedRange']
    else if (isRecord(op) && claim !== undefined) {
      const seq = event['seq'] as number
      const mismatch = op['start'] !== memberAt(claim, 'start') || op['end'] !== memberAt(claim, 'end')
      if (mismatch && !violations.some(violation => violation.seq === seq)) added.push({ code: 'COMPACTION_CLAIM_MISMATCH', seq })
      claim = undefined
    } else if (!BRACKET_EVENTS.has(type)) claim = undefined
  }
  return accepted({ violations: [...violations, ...added].sort((left, right) => left.seq - right.seq) })
}

/**
 * A vetoed compaction/end (COMPACTION_ID_MISMATCH) is not counted as an event between a start and a later
 * end-seed: the relations of the log with each one skipped, and the vetoes.
 */
const vetoedEndNotBetween: SyncOperation = input => {
  const result = ref.relations(input)
  const events = loadedEvents(input)
  if (!result.ok || events === undefined) return result
  const ends = new Set(events.filter(event => event['type'] === 'compaction/end').map(event => event['seq']))
  const vetoes = (result.value as { violations: Violation[] }).violations.filter(violation => violation.code === 'COMPACTION_ID_MISMATCH' && ends.has(violation.seq))
  if (vetoes.length === 0) return result
  const vetoed = new Set<unknown>(vetoes.map(violation => violation.seq))
  const rest = ref.relations({ ...input, events: events.map(event => (vetoed.has(event['seq']) ? skipped(event) : event)) })
  if (!rest.ok) return rest
  const violations = [...vetoes, ...(rest.value as { violations: Violation[] }).violations]
  return accepted({ violations: violations.sort((left, right) => left.seq - right.seq) })
}

/** Each projected message copied with Object.assign, which sets a member named __proto__ as the prototype. */
const messagesCopiedByAssign: SyncOperation = input => {
  const result = ref.messages(input)
  return result.ok ? accepted((result.value as unknown[]).map(message => (isRecord(message) ? Object.assign({}, message) : message))) : result
}

/** The context in force copied with Object.assign, which sets a member named __proto__ as the prototype. */
const contextCopiedByAssign: SyncOperation = input => {
  const result = ref.requestContext(input)
  return result.ok && isRecord(result.value) ? accepted(Object.assign({}, result.value)) : result
}

/** Every string of a value, NFC-normalized, as a language whose string equality normalizes compares them. */
const normalized = (value: unknown): unknown => stringsEdited(value, text => text.normalize('NFC'))

/** A header without its optional members that hold 0 or "", as a writer with Go's omitempty writes it. */
function withoutZeroMembers(input: Input): Input {
  if (!isRecord(input['header'])) return input
  const kept = Object.entries(input['header']).filter(([name, value]) =>
    !['cwd', 'parentSession', 'seedLength', 'origin', 'agentPreset'].includes(name) || (value !== 0 && value !== ''))
  return { ...input, header: Object.fromEntries(kept) }
}

/** An artifact path whose session segment escapes a surrogate pair as one code point. */
const pathByCodePoint: SyncOperation = input => {
  const result = ref.artifactPath(input)
  if (!result.ok) return result
  const codePoint = (_: string, high: string, low: string): string =>
    `~${String.fromCharCode(parseInt(high, 16), parseInt(low, 16)).codePointAt(0)!.toString(16).toUpperCase()}`
  return accepted({ path: (result.value as { path: string }).path.replace(/~(D[89AB][0-9A-F]{2})~(D[C-F][0-9A-F]{2})/g, codePoint) })
}

export const SECOND_IMPLEMENTATION_BUGS: KnownBad[] = [
  {
    name: 'fork-marker-if-any-end-seed',
    bug: 'the child gets no end-seed of its own when any seed event is one, not only the last',
    caughtBy: ['fork-end-seed-earlier-in-prefix'],
    patch: { fork: forkMarkerIfAny },
  },
  {
    name: 'fork-copies-by-assignment',
    bug: 'fork deep-copies the prefix member by member, so a member named __proto__ becomes a prototype',
    caughtBy: ['fork-seed-keeps-odd-member-names'],
    patch: { fork: forkCopiedByAssignment },
  },
  {
    name: 'fork-header-from-source',
    bug: "the child's header is the source header with what changes replaced, unknown members kept",
    caughtBy: ['fork-header-takes-no-unknown-member'],
    patch: { fork: forkHeaderFromSource },
  },
  {
    name: 'fork-turns-by-number',
    bug: 'fork tracks open turns by number, so a turn/end naming another turn leaves the turn open',
    caughtBy: ['fork-open-turn-by-position'],
    patch: { fork: forkTurnsByNumber },
  },
  {
    name: 'repair-step-end-by-number',
    bug: "repair's scan honours a step/end only when it names the open step",
    caughtBy: ['repair-step-end-of-another-step'],
    patch: { repair: repairStepEndByNumber },
  },
  {
    name: 'repair-names-last-bad-closer',
    bug: "REPAIR-13's rejection carries the seq of the last closer that cannot load",
    caughtBy: ['repair-first-unloadable-closer-named'],
    patch: { repair: namingLastBadCloser(ref.repair), resume: namingLastBadCloser(ref.resume) },
  },
  {
    name: 'compaction-appended-message-is-checkpoint',
    bug: "a compact plugin's user/message appended inside a bracket marks it as a checkpoint",
    caughtBy: ['comp-state-appended-summary-message-is-no-checkpoint'],
    patch: { compactionState: appendedMessageIsCheckpoint },
  },
  {
    name: 'compaction-marks-by-id',
    bug: 'a summary or checkpoint marks only the bracket whose compactionId it names',
    caughtBy: ['comp-state-summary-of-another-id-counts'],
    patch: { compactionState: marksByCompactionId },
  },
  {
    name: 'compaction-stale-by-time',
    bug: 'an unmatched start is stale when an end-seed has a later time, whatever the seqs',
    caughtBy: ['comp-state-stale-by-seq-not-time'],
    patch: { compactionState: staleByTime },
  },
  {
    name: 'compaction-owner-highest-turn',
    bug: 'the automatic owner is the highest turn number started, not the latest turn/start',
    caughtBy: ['comp-state-owner-is-latest-turn'],
    patch: { compactionState: ownerHighestTurn },
  },
  {
    name: 'append-turn-integer-not-safe',
    bug: "the writer tests a turn/start's turn as an integer, not a safe one",
    caughtBy: ['turn-shape-append-turn-beyond-safe'],
    patch: { append: turnIntegerNotSafe },
  },
  {
    name: 'append-disposed-reason-open',
    bug: "the writer's list of kind-only turn/end reasons leaves out disposed",
    caughtBy: ['turn-end-append-disposed-extra-member'],
    patch: { append: disposedReasonOpen },
  },
  {
    name: 'append-empty-reasoning-effort',
    bug: "the writer takes any string as reasoningEffort, the empty one included",
    caughtBy: ['hdr-append-empty-reasoning-effort'],
    patch: { append: emptyEffortAccepted },
  },
  {
    name: 'append-provenance-last-element',
    bug: 'the writer tests only the last cited seq against its own, as if lists were ascending',
    caughtBy: ['prov-not-earlier-anywhere-in-list'],
    patch: { append: lastCitationOnly },
  },
  {
    name: 'append-provenance-text-sorted',
    bug: 'the writer tests the largest cited seq after a sort that compares them as text',
    caughtBy: ['prov-not-earlier-two-digit-seqs'],
    patch: { append: citationsSortedAsText },
  },
  {
    name: 'append-adapter-defaults-first-member',
    bug: 'the writer checks adapterDefaults by its first member alone',
    caughtBy: ['hdr-append-adapter-defaults-later-member'],
    patch: { append: adapterDefaultsFirstMemberOnly },
  },
  {
    name: 'append-rewrite-equal-by-keys',
    bug: 'the writer compares a rewrite with its original over Object.keys, so {} equals []',
    caughtBy: ['rewr-append-object-to-array-is-a-change'],
    patch: { append: rewriteEqualByKeys },
  },
  {
    name: 'append-rewrite-original-by-call-id',
    bug: "the writer compares a rewrite with the first result of its call id, not the node it shadows",
    caughtBy: ['rewr-append-compares-the-shadowed-node'],
    patch: { append: rewriteOriginalByCallId },
  },
  {
    name: 'pending-calls-in-plain-object',
    bug: 'pending call ids are members of a plain object, so a name on Object.prototype is always pending',
    caughtBy: ['pair-orphan-id-named-like-a-prototype-member'],
    patch: {
      relations: forgivingRelations((violation, events) => violation.code === 'TOOL_RESULT_ORPHAN'
        && String(answeredCallId(events.find(event => event['seq'] === violation.seq))) in {}),
    },
  },
  {
    name: 'claim-kept-across-bracket-events',
    bug: 'a claim stays armed across an end-seed, a compaction/start or a compaction/end',
    caughtBy: ['comp-claim-disarmed-by-end-seed-start-and-end'],
    patch: { relations: claimKeptAcrossBracketEvents },
  },
  {
    name: 'vetoed-end-not-between',
    bug: 'a vetoed compaction/end does not count as an event between a start and a later end-seed, so the start goes stale',
    caughtBy: ['comp-stale-start-needs-nothing-between'],
    patch: { relations: vetoedEndNotBetween },
  },
  {
    name: 'summary-kept-across-end-seed',
    bug: 'a summary counts for a later bracket after an end-seed discarded its own',
    caughtBy: ['comp-summary-of-discarded-bracket-does-not-count'],
    patch: {
      relations: forgivingRelations((violation, events) => violation.code === 'COMPACTION_END_WITHOUT_SUMMARY'
        && events.some(event => event['type'] === 'compaction/summary' && (event['seq'] as number) < violation.seq)),
    },
  },
  {
    name: 'header-equality-normalized',
    bug: 'header equality compares strings after NFC normalization',
    caughtBy: ['hdr-eq-edge-no-looser-equality'],
    patch: { headerEquals: input => ref.headerEquals({ ...input, left: normalized(input['left']), right: normalized(input['right']) }) },
  },
  {
    name: 'context-copied-by-assign',
    bug: 'the context in force is copied with Object.assign, which sets a __proto__ member as the prototype',
    caughtBy: ['hdr-ctx-member-named-proto-kept'],
    patch: { requestContext: contextCopiedByAssign },
  },
  {
    name: 'messages-copied-by-assign',
    bug: 'each projected message is copied with Object.assign, which sets a __proto__ member as the prototype',
    caughtBy: ['der-member-named-proto-kept'],
    patch: { messages: messagesCopiedByAssign },
  },
  {
    name: 'encode-omits-zero-members',
    bug: 'the header line leaves out optional members that hold 0 or the empty string',
    caughtBy: ['enc-header-zero-and-empty-members-written'],
    patch: { encodeJsonl: input => ref.encodeJsonl(withoutZeroMembers(input)) },
  },
  {
    name: 'artifact-path-by-code-point',
    bug: "the session id segment escapes a character beyond U+FFFF by its code point, not its two units",
    caughtBy: ['jsonl-path-astral-id-by-code-units'],
    patch: { artifactPath: pathByCodePoint },
  },
]
