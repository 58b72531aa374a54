// Known-bad folds and relations: pairing, compaction, derived messages, request header, repair, fork.
import { canonicalHeader } from '../../reference/request-header.ts'
import { withEndSeed } from '../../reference/seeds.ts'
import { messageOf } from '../../reference/vocabulary.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import {
  accepted, answeredCallId, dataOf, forgivingRelations, isRecord, loadedEvents, recordsOf, ref, rejected,
  type KnownBad, type SyncOperation,
} from './wrap.ts'

type EventRecord = Record<string, unknown>

const isOrphan = (code: string): boolean => code === 'TOOL_RESULT_ORPHAN'

/** The call ids logged by tool/call events before `seq`. */
function calledBefore(events: readonly EventRecord[], seq: number): Set<unknown> {
  return new Set(events.filter(event => event['type'] === 'tool/call' && (event['seq'] as number) < seq).map(event => dataOf(event)['callId']))
}

/** Call ids still unanswered before `seq` when step/end never empties the pending set. */
function pendingAcrossSteps(events: readonly EventRecord[], seq: number): Set<unknown> {
  const pending = new Set<unknown>()
  for (const event of events.filter(candidate => (candidate['seq'] as number) < seq)) {
    if (event['type'] === 'tool/call') pending.add(dataOf(event)['callId'])
    else pending.delete(answeredCallId(event))
  }
  return pending
}

function resultError(event: EventRecord | undefined): unknown {
  const error = dataOf(event)['error']
  return isRecord(error) ? error['code'] : undefined
}

/** The lock of a stale start (one a later end-seed discarded) is still held. */
const staleLockHeld: SyncOperation = input => {
  const result = ref.compactionState(input)
  if (!result.ok) return result
  const value = result.value as { open: EventRecord | null }
  if (value.open === null || value.open['live'] === true) return result
  if (input['entry'] === 'automatic' || input['entry'] === 'manual') return rejected('COMPACTION_BUSY', value.open['startSeq'] as number)
  return accepted({ ...value, open: { ...value.open, live: true } })
}

/** Every surface node projects to its message, empty assistant content included. */
const messagesKeepingEmpty: SyncOperation = input => {
  const surface = ref.surface(input)
  const events = loadedEvents(input)
  if (!surface.ok || events === undefined) return surface
  const nodes = (surface.value as { nodes: number[] }).nodes
  return accepted(nodes.map(seq => messageOf(String(events[seq]?.['type']), events[seq]?.['data'])))
}

/** Later header snapshots are merged over earlier ones instead of replacing them. */
const mergedHeader: SyncOperation = input => {
  const events = loadedEvents(input)
  if (events === undefined) return ref.requestHeader(input)
  const atSeq = typeof input['atSeq'] === 'number' ? input['atSeq'] : Infinity
  const headers = events
    .filter(event => event['type'] === 'request/header' && (event['seq'] as number) <= atSeq)
    .map(event => dataOf(event)['header'])
    .filter(isRecord)
  return accepted(headers.length === 0 ? null : canonicalHeader(Object.assign({}, ...headers) as EventRecord))
}

/**
 * The header in force keeps a `system` or `tools` that has a length, as a fold that tests "non-empty"
 * by length does (U20's fold): an array system and string tools, which HDR-3 drops.
 */
const headerKeptByLength: SyncOperation = input => {
  const result = ref.requestHeader(input)
  const events = loadedEvents(input)
  if (!result.ok || !isRecord(result.value) || events === undefined) return result
  const atSeq = typeof input['atSeq'] === 'number' ? input['atSeq'] : Infinity
  const stored = dataOf(events.findLast(event => event['type'] === 'request/header' && (event['seq'] as number) <= atSeq))['header']
  if (!isRecord(stored)) return result
  const hasLength = (value: unknown): boolean => (typeof value === 'string' || Array.isArray(value)) && value.length > 0
  const kept = ['system', 'tools'].filter(member => hasLength(stored[member]))
  return accepted({ ...result.value, ...Object.fromEntries(kept.map(member => [member, stored[member]])) })
}

/** A snapshot whose config's stop list is empty, without it: [] is taken for an absent stop. */
function withoutEmptyStop(snapshot: unknown): unknown {
  if (!isRecord(snapshot) || !isRecord(snapshot['config'])) return snapshot
  const { stop, ...config } = snapshot['config']
  return Array.isArray(stop) && stop.length === 0 ? { ...snapshot, config } : snapshot
}

const emptyStopEqualsAbsent: SyncOperation = input =>
  ref.headerEquals({ ...input, left: withoutEmptyStop(input['left']), right: withoutEmptyStop(input['right']) })

/** A value whose booleans read as the numbers 1 and 0, as Python's `True == 1` has them. */
function booleansAsNumbers(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (Array.isArray(value)) return value.map(booleansAsNumbers)
  return isRecord(value) ? Object.fromEntries(Object.entries(value).map(([key, member]) => [key, booleansAsNumbers(member)])) : value
}

/** A snapshot whose config and flags compare a boolean equal to its number. */
function withLooseConfig(snapshot: unknown): unknown {
  if (!isRecord(snapshot)) return snapshot
  const { config, adapterDefaults } = snapshot
  return { ...snapshot, config: booleansAsNumbers(config), ...(adapterDefaults === undefined ? {} : { adapterDefaults: booleansAsNumbers(adapterDefaults) }) }
}

const booleanEqualsNumber: SyncOperation = input =>
  ref.headerEquals({ ...input, left: withLooseConfig(input['left']), right: withLooseConfig(input['right']) })

/** The step/end closer is written before the synthetic results instead of after them. */
const closersStepFirst: SyncOperation = input => {
  const result = ref.repair(input)
  if (!result.ok) return result
  const closers = (result.value as { closers: EventRecord[] }).closers
  const stepEnd = closers.find(closer => closer['type'] === 'step/end')
  if (stepEnd === undefined || closers[0] === stepEnd) return result
  const reordered = [stepEnd, ...closers.filter(closer => closer !== stepEnd)]
  const first = closers[0]!['seq'] as number
  return accepted({ closers: reordered.map((closer, index) => renumbered(closer, first + index)) })
}

function renumbered(closer: EventRecord, seq: number): EventRecord {
  if (closer['type'] !== 'tool/result') return { ...closer, seq }
  const data = dataOf(closer)
  const message = data['message'] as EventRecord
  const callId = (message['source'] as EventRecord)['callId']
  return { ...closer, seq, data: { ...data, message: { ...message, id: `interrupted-tool-result-${String(callId)}-${seq}` } } }
}

/** Fork does not look for an open turn: the child header and seed of any boundary. */
const forkAnywhere: SyncOperation = input => {
  const result = ref.fork(input)
  if (result.ok || result.error.code !== 'FORK_OPEN_TURN') return result
  const events = recordsOf(input) as SessionEvent[]
  const boundary = typeof input['boundary'] === 'number' ? input['boundary'] : events.length - 1
  const prefix = events.slice(0, boundary + 1)
  const header = isRecord(input['header']) ? input['header'] : {}
  const parent = typeof input['sessionId'] === 'string' ? input['sessionId'] : header['id']
  return accepted({
    header: {
      version: 0, id: input['childId'], createdAt: input['now'],
      ...('cwd' in header ? { cwd: header['cwd'] } : {}),
      ...(parent === undefined ? {} : { parentSession: parent }),
      seedLength: prefix.length,
    },
    events: withEndSeed(prefix, input['now'] as number),
  })
}

/** A -0 boundary passes as 0, as under a safe-integer test that lets negative zero through (U19). */
const forkAtNegativeZeroAsZero: SyncOperation = input =>
  ref.fork(Object.is(input['boundary'], -0) ? { ...input, boundary: 0 } : input)

export const FOLD_AND_RELATION_BUGS: KnownBad[] = [
  {
    name: 'results-paired-across-steps',
    bug: 'a tool/result may answer any call logged earlier, in any step, even one already answered',
    caughtBy: ['pair-result-in-later-step', 'pair-second-result'],
    patch: {
      relations: forgivingRelations((violation, events) => {
        const event = events.find(candidate => candidate['seq'] === violation.seq)
        return isOrphan(violation.code) && calledBefore(events, violation.seq).has(answeredCallId(event))
      }),
    },
  },
  {
    name: 'step-end-keeps-pending',
    bug: 'step/end does not empty the pending calls, so a later step may answer them',
    caughtBy: ['pair-result-in-later-step', 'pair-result-in-later-turn'],
    patch: {
      relations: forgivingRelations((violation, events) => {
        const event = events.find(candidate => candidate['seq'] === violation.seq)
        return isOrphan(violation.code) && pendingAcrossSteps(events, violation.seq).has(answeredCallId(event))
      }),
    },
  },
  {
    name: 'not-started-on-error-code-alone',
    bug: 'the TOOL_NOT_STARTED exemption is granted on the error code alone, without isError',
    caughtBy: ['pair-exempt-iserror-missing', 'pair-exempt-iserror-false'],
    patch: {
      relations: forgivingRelations((violation, events) => isOrphan(violation.code)
        && resultError(events.find(candidate => candidate['seq'] === violation.seq)) === 'TOOL_NOT_STARTED'),
    },
  },
  {
    name: 'claim-unchecked',
    bug: 'a checkpoint may replace another range than the summary right before it claimed',
    caughtBy: ['comp-claim-checkpoint-other-range', 'comp-claim-plain-replace-after-summary'],
    patch: { relations: forgivingRelations(violation => violation.code === 'COMPACTION_CLAIM_MISMATCH') },
  },
  {
    name: 'relations-stop-at-first',
    bug: 'relations stop at the first violation, as a live writer would',
    caughtBy: ['pair-several-violations-one-log', 'proc-relations-vetoed-turn-start'],
    patch: {
      relations: input => {
        const result = ref.relations(input)
        if (!result.ok) return result
        return accepted({ violations: (result.value as { violations: unknown[] }).violations.slice(0, 1) })
      },
    },
  },
  {
    name: 'stale-start-live',
    bug: 'an unmatched compaction/start before the last end-seed still holds the lock',
    caughtBy: ['comp-orphan-stale-start-frees-the-lock', 'comp-orphan-resumed-log-state'],
    patch: { compactionState: staleLockHeld },
  },
  {
    name: 'empty-assistant-derived',
    bug: 'an assistant message with empty content is derived instead of skipped',
    caughtBy: ['der-empty-assistant-skipped'],
    patch: { messages: messagesKeepingEmpty },
  },
  {
    name: 'header-fold-merges',
    bug: 'request/header snapshots are merged member by member instead of replacing each other',
    caughtBy: ['hdr-fold-latest-snapshot-wins-wholesale'],
    patch: { requestHeader: mergedHeader },
  },
  {
    name: 'header-fold-kept-by-length',
    bug: 'the header in force keeps an array system or string tools, testing "non-empty" by length',
    caughtBy: ['hdr-fold-non-string-system-non-array-tools'],
    patch: { requestHeader: headerKeptByLength },
  },
  {
    name: 'header-equality-boolean-as-number',
    bug: 'header equality takes true for 1 and false for 0, as a host whose equality mixes the two types does',
    caughtBy: ['hdr-eq-edge-json-types'],
    patch: { headerEquals: booleanEqualsNumber },
  },
  {
    name: 'header-equality-empty-stop-absent',
    bug: 'headerEquals takes an empty stop list for an absent one',
    caughtBy: ['hdr-eq-stop'],
    patch: { headerEquals: emptyStopEqualsAbsent },
  },
  {
    name: 'repair-closes-step-first',
    bug: 'repair writes the step/end closer before the synthetic results of the step',
    caughtBy: ['repair-chapter-example', 'repair-registration-order'],
    patch: { repair: closersStepFirst },
  },
  {
    name: 'fork-inside-open-turn',
    bug: 'fork accepts a boundary inside an open turn',
    caughtBy: ['fork-boundary-inside-turn', 'fork-end-seed-inside-open-turn'],
    patch: { fork: forkAnywhere },
  },
  {
    name: 'fork-negative-zero-boundary',
    bug: 'fork takes a -0 boundary as 0',
    caughtBy: ['fork-boundary-invalid-values'],
    patch: { fork: forkAtNegativeZeroAsZero },
  },
]
