// Known-bad relations from a planted-bug review of the relations operation (bugs planted in a second
// implementation of chapters 09, 10 and 13; these passed every relations vector then): a scope check
// that compares one of the two numbers, call and compaction ids read looser than code units, a pending
// set held as a plain object, and identity, token-count and owner checks that a port makes looser. Each
// runs the reference's relations over the loaded log as the bug reads it (or reports its crash).
import { isCheckpoint } from '../../reference/compaction.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { hasOwn, isNonEmptyString } from '../../reference/lossless-json.ts'
import { runRelations } from '../../reference/processing.ts'
import { accepted, dataOf, isRecord, loadedEvents, ref, type KnownBad, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>
type Rewrite = (events: EventRecord[]) => EventRecord[]

/** relations as the reference runs them over the loaded events as `rewrite` changes them; a log load rejects keeps its rejection. */
function relationsOver(rewrite: Rewrite): SyncOperation {
  return input => {
    const events = loadedEvents(input)
    return events === undefined ? ref.relations(input) : accepted(runRelations(rewrite(events) as unknown as SessionEvent[]))
  }
}

/** The event with its data's `name` member set to `value`. */
function withDataMember(event: EventRecord, name: string, value: unknown): EventRecord {
  return { ...event, data: { ...dataOf(event), [name]: value } }
}

/** The record with its own `name` member edited by `edit`; a record without one as it is. */
function withMemberEdited(record: EventRecord, name: string, edit: (value: unknown) => unknown): EventRecord {
  return hasOwn(record, name) ? { ...record, [name]: edit(record[name]) } : record
}

// ---- TURN-8: a step-scoped event compared by one of its two numbers ------------------------------

/** The turn and step numbers open before an event, as the turn and step boundaries name them (undefined: none open). */
type OpenScope = { turn: unknown; step: unknown }

/** The scope after an event, vetoes aside: turn/start opens its turn, step/start its step, the ends close them. */
function scopeAfter(open: OpenScope, event: EventRecord): OpenScope {
  switch (event['type']) {
    case 'turn/start':
      return { turn: dataOf(event)['turn'], step: undefined }
    case 'turn/end':
      return { turn: undefined, step: undefined }
    case 'step/start':
      return { ...open, step: dataOf(event)['step'] }
    case 'step/end':
      return { ...open, step: undefined }
    default:
      return open
  }
}

/**
 * relations where the events `scoped` picks carry the open turn or step (`member`) in place of their
 * own, while one is open: only the other number is compared with the open scope.
 */
function comparedWithoutMember(member: keyof OpenScope, scoped: (event: EventRecord) => boolean): SyncOperation {
  return relationsOver(events => {
    let open: OpenScope = { turn: undefined, step: undefined }
    return events.map(event => {
      const read = scoped(event) && open[member] !== undefined ? withDataMember(event, member, open[member]) : event
      open = scopeAfter(open, read)
      return read
    })
  })
}

/** An event of the given type. */
function ofType(type: string): (event: EventRecord) => boolean {
  return event => event['type'] === type
}

/** An append-origin tool/result: the step-scoped kind (TURN-8). */
const isAppendedResult = (event: EventRecord): boolean => event['type'] === 'tool/result' && event['surfaceOp'] === 'append'

// ---- PAIR-1, PAIR-8: the pending set ----------------------------------------------------------

/** The event with the call id pairing reads (a tool/call's data.callId, a tool/result's source.callId) edited by `edit`. */
function withCallIdEdited(event: EventRecord, edit: (id: unknown) => unknown): EventRecord {
  if (event['type'] === 'tool/call') return { ...event, data: withMemberEdited(dataOf(event), 'callId', edit) }
  const message = dataOf(event)['message']
  if (event['type'] !== 'tool/result' || !isRecord(message) || !isRecord(message['source'])) return event
  return withDataMember(event, 'message', { ...message, source: withMemberEdited(message['source'], 'callId', edit) })
}

/** A string NFC-normalized; any other value as it is. */
const nfc = (value: unknown): unknown => (typeof value === 'string' ? value.normalize('NFC') : value)

/** Call ids NFC-normalized where pairing reads them (relations read no other copy of a call id). */
const callIdsNormalized = relationsOver(events => events.map(event => withCallIdEdited(event, nfc)))

/** A call id no result names, for the __proto__ that a plain-object pending set takes for its prototype. */
const UNRECORDED_CALL_ID = '\u0000known-bad: __proto__ set as the prototype'

/** A tool/call whose id is __proto__ never recorded as pending, as `pending[id] = true` on a plain object records it. */
const protoCallUnrecorded = relationsOver(events => events.map(event =>
  (event['type'] === 'tool/call' ? withCallIdEdited(event, id => (id === '__proto__' ? UNRECORDED_CALL_ID : id)) : event)))

// ---- COMP-1, COMP-4, COMP-5: identity and summary ----------------------------------------------

/** The types whose data carries a bracket's identity. */
const BRACKET_TYPES = new Set(['compaction/start', 'compaction/summary', 'compaction/end'])

/** The event with the identity member `name` of its bracket event data or checkpoint source edited by `edit`. */
function withIdentityEdited(event: EventRecord, name: string, edit: (value: unknown) => unknown): EventRecord {
  if (BRACKET_TYPES.has(event['type'] as string) && isRecord(event['data'])) return { ...event, data: withMemberEdited(event['data'], name, edit) }
  if (!isCheckpoint(event as unknown as SessionEvent)) return event
  return withDataMember(event, 'source', withMemberEdited(dataOf(event)['source'] as EventRecord, name, edit))
}

/** compactionIds NFC-normalized before they are compared. */
const compactionIdsNormalized = relationsOver(events => events.map(event => withIdentityEdited(event, 'compactionId', nfc)))

/** What an empty sourceCommandId reads as: one non-empty value, the same for every empty one. */
const EMPTY_COMMAND_ID = 'known-bad: empty'

/** An empty sourceCommandId taken for a valid one (a check that it is a string only). */
const emptyCommandIdAccepted = relationsOver(events => events.map(event =>
  withIdentityEdited(event, 'sourceCommandId', value => (value === '' ? EMPTY_COMMAND_ID : value))))

/** A summary's shadowedTokenCount beyond the safe integers read as 0, as Number.isInteger lets it pass. */
const tokenCountByIsInteger = relationsOver(events => events.map(event => {
  const count = dataOf(event)['shadowedTokenCount']
  const unsafe = event['type'] === 'compaction/summary' && Number.isInteger(count) && (count as number) > Number.MAX_SAFE_INTEGER
  return unsafe ? withDataMember(event, 'shadowedTokenCount', 0) : event
}))

const CRASH_ON_NULL_DATA = "Cannot read properties of null (reading 'compactionId')"

/** The crash of a port reading a compaction event's members without testing its data, at the first null data. */
const compactionDataUnguarded: SyncOperation = input => {
  const crashed = loadedEvents(input)?.find(event => String(event['type']).startsWith('compaction/') && event['data'] === null)
  if (crashed !== undefined) throw new TypeError(`${CRASH_ON_NULL_DATA} (seq ${String(crashed['seq'])})`)
  return ref.relations(input)
}

/** A valid summary carries the open bracket's compactionId (tracked from start, end and end-seed), as if it were never compared. */
const summaryIdUnchecked = relationsOver(events => {
  let open: unknown
  return events.map(event => {
    const id = dataOf(event)['compactionId']
    if (event['type'] === 'compaction/start') open = id
    else if (event['type'] === 'compaction/end' || event['type'] === 'session/end-seed') open = undefined
    const read = event['type'] === 'compaction/summary' && isNonEmptyString(id) && open !== undefined
    return read ? withDataMember(event, 'compactionId', open) : event
  })
})

/**
 * COMP-3 against the last turn started: a start owned by that turn after it ended passes, read as a
 * start with no owner (which needs no open turn), and so does the end of its bracket naming that turn.
 */
const ownerAgainstLastTurn = relationsOver(events => {
  let lastTurn: unknown
  let openTurn: unknown
  let ownedByEndedTurn = false
  return events.map(event => {
    const owner = dataOf(event)['turn']
    switch (event['type']) {
      case 'turn/start':
        lastTurn = openTurn = owner
        return event
      case 'turn/end':
        openTurn = undefined
        return event
      case 'compaction/start':
        ownedByEndedTurn = openTurn === undefined && typeof owner === 'number' && owner === lastTurn
        return ownedByEndedTurn ? withDataMember(event, 'turn', null) : event
      case 'compaction/end': {
        const read = ownedByEndedTurn && owner === lastTurn ? withDataMember(event, 'turn', null) : event
        ownedByEndedTurn = false
        return read
      }
      default:
        return event
    }
  })
})

export const RELATIONS_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'call-compares-step-only',
    bug: "a tool/call's data.turn is not compared with the open turn, only its data.step with the open step",
    caughtBy: ['turn-scope-call-wrong-turn-right-step'],
    patch: { relations: comparedWithoutMember('turn', ofType('tool/call')) },
  },
  {
    name: 'result-compares-step-only',
    bug: "an append-origin tool/result's data.turn is not compared with the open turn, only its data.step with the open step",
    caughtBy: ['turn-scope-result-wrong-turn-right-step'],
    patch: { relations: comparedWithoutMember('turn', isAppendedResult) },
  },
  {
    name: 'step-end-compares-step-only',
    bug: "a step/end's data.turn is not compared with the open turn, only its data.step with the open step",
    caughtBy: ['turn-scope-step-end-wrong-turn-right-step'],
    patch: { relations: comparedWithoutMember('turn', ofType('step/end')) },
  },
  {
    name: 'chunk-compares-turn-only',
    bug: "an assistant/chunk's data.step is not compared with the open step, only its data.turn with the open turn",
    caughtBy: ['turn-scope-chunk-wrong-step-right-turn'],
    patch: { relations: comparedWithoutMember('step', ofType('assistant/chunk')) },
  },
  {
    name: 'pending-nfc-normalize',
    bug: 'call ids are NFC-normalized before a result is paired with its call',
    caughtBy: ['pair-ids-not-unicode-normalized'],
    patch: { relations: callIdsNormalized },
  },
  {
    name: 'pending-plain-object',
    bug: 'the pending set is a plain object, so a call whose id is __proto__ is never recorded',
    caughtBy: ['pair-call-id-proto'],
    patch: { relations: protoCallUnrecorded },
  },
  {
    name: 'comp-id-normalized',
    bug: 'compactionIds are NFC-normalized before they are compared with the open bracket',
    caughtBy: ['comp-rel-ids-not-unicode-normalized'],
    patch: { relations: compactionIdsNormalized },
  },
  {
    name: 'cmd-id-empty-ok',
    bug: 'an empty sourceCommandId is accepted, as a check that it is a string lets it pass',
    caughtBy: ['comp-rel-command-id-empty'],
    patch: { relations: emptyCommandIdAccepted },
  },
  {
    name: 'summary-tokens-isinteger',
    bug: 'shadowedTokenCount is tested with Number.isInteger, so 2^53 and beyond pass',
    caughtBy: ['comp-rel-summary-tokens-two-to-the-53'],
    patch: { relations: tokenCountByIsInteger },
  },
  {
    name: 'comp-data-unguarded',
    bug: "relations read a compaction event's members without testing that its data is an object, and crash on null",
    caughtBy: ['comp-rel-data-null'],
    patch: { relations: compactionDataUnguarded },
    crashes: `relations threw: TypeError: ${CRASH_ON_NULL_DATA}`,
  },
  {
    name: 'summary-id-unchecked',
    bug: "a summary's compactionId is not compared with the open bracket's",
    caughtBy: ['comp-rel-summary-other-compaction-id'],
    patch: { relations: summaryIdUnchecked },
  },
  {
    name: 'owner-vs-last-turn',
    bug: "a start's numbered owner is compared with the last turn started, not the open turn",
    caughtBy: ['comp-rel-owner-numbered-after-turn-ended'],
    patch: { relations: ownerAgainstLastTurn },
  },
]
