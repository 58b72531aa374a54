// Known-bad adapters from a second planted-bug review of fork (80 bugs planted in a second
// implementation of chapter 15; these fourteen passed every vector of the fork profile then): a boundary
// test that lets NaN or a bigint through, turn types matched by prefix, legacy ids and turn/end reasons
// upgraded another way, a seed copy that loses falsy data, lone surrogates or a shared part, and a child
// header that reads its clock, cwd or source header the way `||`, path.normalize, instanceof and
// Object.assign read them. Each wraps the reference's fork: it edits the input the way the bug reads it,
// or the child the way the bug makes it.
import { posix } from 'node:path'
import { hasOwn } from '../../reference/lossless-json.ts'
import { forkThen, withSeedChanged, type Child } from './fork-review.ts'
import { accepted, copiedByAssignment, dataOf, isRecord, loadedEvents, recordsOf, ref, rejected, stringsEdited, type Input, type KnownBad, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>

// ---- FORK-2, FORK-3: the boundary and the open turn ----------------------------------------------

/** A NaN boundary passes a fraction test written `b % 1` (NaN is falsy), and slices the empty prefix. */
const nanBoundaryAccepted: SyncOperation = input => {
  if (!Number.isNaN(input['boundary']) || loadedEvents(input) === undefined) return ref.fork(input)
  return ref.fork({ ...input, events: [], boundary: undefined })
}

/** A bigint boundary is converted with Number() and forks at that seq. */
const bigintBoundaryConverted: SyncOperation = input =>
  ref.fork(typeof input['boundary'] === 'bigint' ? { ...input, boundary: Number(input['boundary']) } : input)

/** The last event whose type starts with turn/start or turn/end decides, so turn/started opens a turn (a prefix the reference refuses stays refused). */
const turnTypesByPrefix = forkThen(child => {
  const startsWith = (event: EventRecord, prefix: string): boolean => typeof event['type'] === 'string' && event['type'].startsWith(prefix)
  const last = child.events.slice(0, child.header['seedLength'] as number).findLast(event => startsWith(event, 'turn/start') || startsWith(event, 'turn/end'))
  return last !== undefined && startsWith(last, 'turn/start') ? rejected('FORK_OPEN_TURN', last['seq'] as number) : accepted(child)
})

// ---- FORK-4 with LEGACY-6 and LEGACY-8: the upgraded seed -----------------------------------------

/** The child of `input` with its seed as a fork of `minting` gives it: the legacy ids minted from that input's session id. */
function legacyIdsFrom(minting: (input: Input) => Input): SyncOperation {
  return input => {
    const result = ref.fork(input)
    if (!result.ok) return result
    const minted = ref.fork(minting(input))
    return minted.ok ? accepted({ ...(result.value as Child), events: (minted.value as Child).events }) : result
  }
}

export function headerIdOf(input: Input): unknown {
  return isRecord(input['header']) ? input['header']['id'] : undefined
}

/** The reason a turn/end record stores, when it is an object. */
export function storedReasonOf(record: unknown): EventRecord | undefined {
  const reason = isRecord(record) && record['type'] === 'turn/end' ? dataOf(record)['reason'] : undefined
  return isRecord(reason) ? reason : undefined
}

/** fork whose seed turn/ends with a stored reason `legacy` picks hold the reason `upgrade` makes of the stored and the loaded ones. */
function legacyReasonsUpgraded(legacy: (stored: EventRecord) => boolean, upgrade: (stored: EventRecord, loaded: EventRecord) => EventRecord): SyncOperation {
  return forkThen((child, input) => withSeedChanged(child, (event, index) => {
    const stored = storedReasonOf(recordsOf(input)[index])
    const loaded = dataOf(event)['reason']
    if (stored === undefined || !isRecord(loaded) || !legacy(stored)) return event
    return { ...event, data: { ...dataOf(event), reason: upgrade(stored, loaded) } }
  }))
}

/** A legacy error reason's failure rebuilt as {message, code}, its other members lost. */
function failureRebuilt(stored: EventRecord, loaded: EventRecord): EventRecord {
  const failure = stored['failure'] as EventRecord
  return { ...loaded, error: { message: failure['message'], code: failure['code'] } }
}

// ---- FORK-4: the copy of the seed -----------------------------------------------------------------

/** A string as a copy through UTF-8 bytes holds it: each lone surrogate becomes U+FFFD. */
function throughUtf8(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8')
}

/**
 * The loaded value copied with one set of every object of the stored `source` already seen, not of
 * the current ancestors: a part the source reaches a second time is copied as null.
 */
function copiedOnce(loaded: unknown, source: unknown, seen: Set<object>): unknown {
  if (typeof loaded !== 'object' || loaded === null || typeof source !== 'object' || source === null) return loaded
  if (seen.has(source)) return null
  seen.add(source)
  const stored = source as Record<string, unknown>
  if (Array.isArray(loaded)) return loaded.map((item, index) => copiedOnce(item, stored[index], seen))
  return Object.fromEntries(Object.entries(loaded).map(([name, member]) => [name, copiedOnce(member, hasOwn(stored, name) ? stored[name] : undefined, seen)]))
}

const sharedPartCopiedOnce = forkThen((child, input) => {
  const seen = new Set<object>()
  return withSeedChanged(child, (event, index) => copiedOnce(event, recordsOf(input)[index], seen))
})

// ---- FORK-5: the child header -----------------------------------------------------------------------

/** The clock value that replaces a falsy now (a port's `now || Date.now()`, its clock held still). */
export const CLOCK_NOW = 1

/** The source header taken for none unless it is `instanceof Object`, as another realm's or a null-prototype header is not. */
const headerByInstanceof: SyncOperation = input =>
  ref.fork(isRecord(input['header']) && !(input['header'] instanceof Object) ? { ...input, header: undefined } : input)

/** The source header copied with Object.assign and its cwd read by property, so a member named __proto__ lends its cwd. */
const cwdInherited = forkThen((child, input) => {
  const header = input['header']
  if (!isRecord(header) || hasOwn(header, 'cwd')) return accepted(child)
  const copy = copiedByAssignment(header) as EventRecord
  return accepted('cwd' in copy ? { ...child, header: { ...child.header, cwd: copy['cwd'] } } : child)
})

/** The child's cwd normalized with path.posix.normalize. */
const cwdNormalized = forkThen(child =>
  accepted(typeof child.header['cwd'] === 'string' ? { ...child, header: { ...child.header, cwd: posix.normalize(child.header['cwd']) } } : child))

export const FORK_SECOND_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'fork-boundary-nan-accepted',
    bug: 'a NaN boundary passes a fraction test written `b % 1` and forks the empty prefix',
    caughtBy: ['fork-boundary-nan-infinity-bigint'],
    patch: { fork: nanBoundaryAccepted },
  },
  {
    name: 'fork-boundary-bigint-converted',
    bug: 'a bigint boundary is converted with Number() and forks at that seq',
    caughtBy: ['fork-boundary-nan-infinity-bigint'],
    patch: { fork: bigintBoundaryConverted },
  },
  {
    name: 'fork-turn-types-by-prefix',
    bug: 'turn events are recognised by prefix, so an ignorable turn/started opens a turn',
    caughtBy: ['fork-turn-types-by-exact-name'],
    patch: { fork: turnTypesByPrefix },
  },
  {
    name: 'fork-legacy-id-from-header-only',
    bug: "legacy message ids are minted from the source header's id, the sessionId input ignored",
    caughtBy: ['fork-legacy-id-from-each-source-id'],
    patch: { fork: legacyIdsFrom(input => ({ ...input, sessionId: undefined })) },
  },
  {
    name: 'fork-legacy-id-undefined-session',
    bug: 'legacy message ids are minted from `${sessionId ?? header.id}`, so "undefined" when the source has no id',
    caughtBy: ['fork-legacy-id-from-each-source-id'],
    patch: { fork: legacyIdsFrom(input => ({ ...input, sessionId: String(input['sessionId'] ?? headerIdOf(input)) })) },
  },
  {
    name: 'fork-legacy-aborted-kept',
    bug: 'a legacy turn/end reason {kind: aborted} enters the seed as stored, without its legacy reason',
    caughtBy: ['fork-seed-upgrades-every-legacy-turn-end'],
    patch: { fork: legacyReasonsUpgraded(stored => stored['kind'] === 'aborted' && Object.keys(stored).length === 1, stored => stored) },
  },
  {
    name: 'fork-legacy-failure-rebuilt',
    bug: "a legacy error reason's failure is rebuilt as {message, code}, its status and other members lost",
    caughtBy: ['fork-seed-upgrades-every-legacy-turn-end'],
    patch: { fork: legacyReasonsUpgraded(stored => stored['kind'] === 'error' && isRecord(stored['failure']), failureRebuilt) },
  },
  {
    name: 'fork-seed-falsy-data-as-empty',
    bug: 'seed data is copied as `data || {}`, so null, false, 0 and "" become {}',
    caughtBy: ['fork-seed-keeps-falsy-data'],
    patch: { fork: forkThen(child => withSeedChanged(child, event => ({ ...event, data: event['data'] || {} }))) },
  },
  {
    name: 'fork-seed-strings-through-utf8',
    bug: 'seed strings are copied through UTF-8 bytes, so a lone surrogate becomes U+FFFD',
    caughtBy: ['fork-seed-keeps-lone-surrogates'],
    patch: { fork: forkThen(child => withSeedChanged(child, event => stringsEdited(event, throughUtf8))) },
  },
  {
    name: 'fork-seed-shared-part-once',
    bug: 'the seed copy guards against cycles with one set of every object seen, so a shared part is copied once and then as null',
    caughtBy: ['fork-seed-copies-shared-parts'],
    patch: { fork: sharedPartCopiedOnce },
  },
  {
    name: 'fork-now-zero-replaced',
    bug: 'a now of 0 is replaced by the wall clock, as `now || Date.now()` replaces it',
    caughtBy: ['fork-now-zero'],
    patch: { fork: input => ref.fork({ ...input, now: input['now'] || CLOCK_NOW }) },
  },
  {
    name: 'fork-header-by-instanceof',
    bug: 'a source header that is not `instanceof Object` (null-prototype, or another realm) is taken for none',
    caughtBy: ['fork-null-prototype-source-header', 'fork-foreign-realm-source-header'],
    patch: { fork: headerByInstanceof },
  },
  {
    name: 'fork-cwd-inherited-through-proto',
    bug: 'the source header is copied with Object.assign, so a member named __proto__ lends the child its cwd',
    caughtBy: ['fork-header-member-named-proto'],
    patch: { fork: cwdInherited },
  },
  {
    name: 'fork-cwd-normalized',
    bug: "the child's cwd is normalized with path.posix.normalize",
    caughtBy: ['fork-cwd-kept-as-written'],
    patch: { fork: cwdNormalized },
  },
]
