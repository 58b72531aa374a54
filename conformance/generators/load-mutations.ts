// Mutation operators that `load` must reject (spec chapters 00-07, 09, 16-18). Each breaks one rule of
// one event; the events before it are untouched (but for what rewrite-changes-loosely does to the
// original, which no rule checks), so the phase order of PROC-2 and the check order of PROC-3 fix the
// code and the seq.
import { cloneEvents } from './log-edit.ts'
import { chance, pick, type Chooser } from './choices.ts'
import { SURFACE_TYPES, type JsonObject, type LogEvent, type ReplaceOp } from './events.ts'
import {
  dataOf, defineMutation, indexesWhere, INVALID_ORDINALS, messageOf, nodesBefore, NUMBERED_TYPES, reasonWithExtraMember, replaceOf, shadowedAt,
  type Mutation,
} from './mutation-kit.ts'

const isSurface = (event: LogEvent): boolean => SURFACE_TYPES.has(event.type)
const isRewrite = (event: LogEvent): boolean => event.type === 'tool/result' && replaceOf(event) !== undefined

function changed(events: readonly LogEvent[], index: number, change: (event: LogEvent) => void): unknown[] {
  const copy = cloneEvents(events)
  change(copy[index]!)
  return copy
}

export const dropEvent = defineMutation({
  name: 'drop-event', code: 'ENV_SEQ_NOT_CONTIGUOUS', operation: 'load', rule: 'ENV-9',
  targets: log => indexesWhere(log.events, (_, index) => index < log.events.length - 1),
  edit: (log, index) => ({ events: cloneEvents(log.events).filter((_, at) => at !== index), seq: index + 1 }),
})

export const swapEvents = defineMutation({
  name: 'swap-events', code: 'ENV_SEQ_NOT_CONTIGUOUS', operation: 'load', rule: 'ENV-9',
  targets: log => indexesWhere(log.events, (_, index) => index < log.events.length - 1),
  edit(log, index, chooser) {
    const other = index + 1 + chooser.int(log.events.length - index - 1)
    const copy = cloneEvents(log.events)
    ;[copy[index], copy[other]] = [copy[other]!, copy[index]!]
    return { events: copy, seq: other }
  },
})

export const duplicateEvent = defineMutation({
  name: 'duplicate-event', code: 'ENV_SEQ_NOT_CONTIGUOUS', operation: 'load', rule: 'ENV-9',
  targets: log => indexesWhere(log.events, () => true),
  edit(log, index) {
    const copy = cloneEvents(log.events)
    copy.splice(index + 1, 0, structuredClone(copy[index]!))
    return { events: copy, seq: index }
  },
})

/** A start that is not a current node: the event's own seq, a log-only event, or a shadowed node. */
export const breakReplaceStart = defineMutation({
  name: 'break-replace-start', code: 'SURFACE_REPLACE_START_NOT_FOUND', operation: 'load', rule: 'SURF-4',
  targets: log => indexesWhere(log.events, event => replaceOf(event) !== undefined),
  edit(log, index, chooser) {
    const current = new Set(nodesBefore(log.events, index).map(node => node.seq))
    const absent = [index, ...indexesWhere(log.events, (_, seq) => seq < index && !current.has(seq))]
    const start = absent[chooser.int(absent.length)]!
    return { events: changed(log.events, index, event => { event.surfaceOp = { ...replaceOf(event)!, start } }), seq: index }
  },
})

export const breakReplaceEnd = defineMutation({
  name: 'break-replace-end', code: 'SURFACE_REPLACE_END_NOT_FOUND', operation: 'load', rule: 'SURF-4',
  targets: log => indexesWhere(log.events, event => replaceOf(event) !== undefined),
  edit: (log, index) => ({ events: changed(log.events, index, event => { event.surfaceOp = { ...replaceOf(event)!, end: index } }), seq: index }),
})

export const reverseReplace = defineMutation({
  name: 'reverse-replace', code: 'SURFACE_REPLACE_REVERSED', operation: 'load', rule: 'SURF-5',
  targets: log => indexesWhere(log.events, event => replaceOf(event) !== undefined && replaceOf(event)!.start !== replaceOf(event)!.end),
  edit(log, index) {
    const { start, end } = replaceOf(log.events[index]!)!
    return { events: changed(log.events, index, event => { event.surfaceOp = { op: 'replace', start: end, end: start } }), seq: index }
  },
})

/** Drops one shadowed seq from the citations; an emptied list is removed, since [] has its own code. */
export const unciteShadowed = defineMutation({
  name: 'uncite-shadowed', code: 'PROVENANCE_INCOMPLETE', operation: 'load', rule: 'PROV-7',
  targets: log => indexesWhere(log.events, event => replaceOf(event) !== undefined),
  edit(log, index, chooser) {
    const shadowed = shadowedAt(log.events, index)
    const dropped = shadowed[chooser.int(shadowed.length)]!
    const events = changed(log.events, index, event => {
      const left = (event.sourceEventSeqs ?? []).filter(seq => seq !== dropped)
      if (left.length > 0) event.sourceEventSeqs = left
      else delete event.sourceEventSeqs
    })
    return { events, seq: index }
  },
})

/** Drops an inner node of a replace that shadows three or more: PROV-7 asks for every node, not the endpoints only. */
export const unciteInnerShadowed = defineMutation({
  name: 'uncite-inner-shadowed', code: 'PROVENANCE_INCOMPLETE', operation: 'load', rule: 'PROV-7',
  targets: log => indexesWhere(log.events, (event, index) => replaceOf(event) !== undefined && shadowedAt(log.events, index).length >= 3),
  edit(log, index, chooser) {
    const shadowed = shadowedAt(log.events, index)
    const dropped = shadowed[1 + chooser.int(shadowed.length - 2)]!
    return { events: changed(log.events, index, event => { event.sourceEventSeqs = (event.sourceEventSeqs ?? []).filter(seq => seq !== dropped) }), seq: index }
  },
})

/** A member set to a value outside the event's type (a fault an operator plants). */
function setMember(event: LogEvent, name: string, value: unknown): void {
  ;(event as unknown as Record<string, unknown>)[name] = value
}

/** A copy of `list` with `item` at a drawn position. */
function insertedAnywhere<T>(list: readonly T[], item: T, chooser: Chooser): T[] {
  const at = chooser.int(list.length + 1)
  return [...list.slice(0, at), item, ...list.slice(at)]
}

/** An earlier seq whose decimal text sorts after that of every seq from 10 to 89. */
const TEXT_SORT_LAST = 9

/**
 * A citation not earlier than the event, anywhere in its list but last (PROV-5 asks it of every
 * element; a check that takes the list as ascending reads only its last). Three times in four, when the
 * event comes after seq 9 and the later seq's text sorts before "9", seq 9 is cited too: a reader or
 * writer that sorts the list as text and takes its last element for the latest citation finds 9, which
 * is earlier.
 */
export const citeLaterEvent = defineMutation({
  name: 'cite-later-event', code: 'PROVENANCE_NOT_EARLIER', operation: 'load', rule: 'PROV-5',
  targets: log => indexesWhere(log.events, isSurface),
  edit(log, index, chooser) {
    const later = index + chooser.int(log.events.length - index + 1)
    const textSortTrap = chance(chooser, 75) && index > TEXT_SORT_LAST && String(later) < String(TEXT_SORT_LAST)
    return {
      events: changed(log.events, index, event => {
        const cited = event.sourceEventSeqs ?? []
        const withNine = textSortTrap && !cited.includes(TEXT_SORT_LAST) ? insertedAnywhere(cited, TEXT_SORT_LAST, chooser) : cited
        // Anywhere but last, unless the list holds nothing else.
        const at = chooser.int(Math.max(1, withNine.length))
        event.sourceEventSeqs = [...withNine.slice(0, at), later, ...withNine.slice(at)]
      }),
      seq: index,
    }
  },
})

/** Citations that are no non-negative safe integer (PROV-3): `false` is not 0, 2^53 is past the safe range. */
const BAD_CITATIONS: readonly unknown[] = [false, true, 2 ** 53, -1, 1.5, '0', null, [0], {}]
/** The bad citations a port most often lets through: in Python a bool is an int, and in JavaScript `true >= 0`. */
const BOOLEAN_CITATIONS: readonly unknown[] = [false, true]

export const citationElementInvalid = defineMutation({
  name: 'citation-element-invalid', code: 'PROVENANCE_ELEMENT_INVALID', operation: 'load', rule: 'PROV-3',
  targets: log => indexesWhere(log.events, isSurface),
  edit(log, index, chooser) {
    // Half the time a boolean, else any bad citation.
    const bad = structuredClone(pick(chooser, chance(chooser, 50) ? BOOLEAN_CITATIONS : BAD_CITATIONS))
    return { events: changed(log.events, index, event => setMember(event, 'sourceEventSeqs', insertedAnywhere<unknown>(event.sourceEventSeqs ?? [], bad, chooser))), seq: index }
  },
})

/** A citation list that is no array (PROV-1): a string of digits, a number, null, an object, a boolean. */
export const citationsNotArray = defineMutation({
  name: 'citations-not-array', code: 'PROVENANCE_NOT_ARRAY', operation: 'load', rule: 'PROV-1',
  targets: log => indexesWhere(log.events, isSurface),
  edit(log, index, chooser) {
    const value = structuredClone(pick(chooser, ['0', '', 0, null, {}, true]))
    return { events: changed(log.events, index, event => setMember(event, 'sourceEventSeqs', value)), seq: index }
  },
})

export const duplicateCitation = defineMutation({
  name: 'duplicate-citation', code: 'PROVENANCE_DUPLICATE', operation: 'load', rule: 'PROV-4',
  targets: log => indexesWhere(log.events, event => (event.sourceEventSeqs?.length ?? 0) > 0),
  edit(log, index, chooser) {
    const events = changed(log.events, index, event => {
      const seqs = event.sourceEventSeqs!
      seqs.splice(chooser.int(seqs.length + 1), 0, seqs[chooser.int(seqs.length)]!)
    })
    return { events, seq: index }
  },
})

/** A later event cited first, then one seq cited twice: PROV-8 checks for duplicates before it checks that citations are earlier. */
export const laterThenDuplicateCitation = defineMutation({
  name: 'later-then-duplicate-citation', code: 'PROVENANCE_DUPLICATE', operation: 'load', rule: 'PROV-8',
  targets: log => indexesWhere(log.events, event => (event.sourceEventSeqs?.length ?? 0) > 0),
  edit(log, index, chooser) {
    const later = index + chooser.int(log.events.length - index + 1)
    const events = changed(log.events, index, event => {
      const seqs = event.sourceEventSeqs!
      event.sourceEventSeqs = [later, ...seqs, seqs[chooser.int(seqs.length)]!]
    })
    return { events, seq: index }
  },
})

export const emptyCitation = defineMutation({
  name: 'empty-citation', code: 'PROVENANCE_EMPTY', operation: 'load', rule: 'PROV-2',
  targets: log => indexesWhere(log.events, event => event.type === 'user/message' || event.type === 'tool/result'),
  edit: (log, index) => ({ events: changed(log.events, index, event => { event.sourceEventSeqs = [] }), seq: index }),
})

export const rewriteChangesData = defineMutation({
  name: 'rewrite-changes-data', code: 'REWRITE_DATA_CHANGED', operation: 'load', rule: 'REWR-3',
  targets: log => indexesWhere(log.events, isRewrite),
  edit(log, index, chooser) {
    const events = changed(log.events, index, event => {
      const data = dataOf(event)
      const block = (messageOf(event)['content'] as JsonObject[])[0]!
      switch (chooser.int(5)) {
        case 0: messageOf(event)['id'] = `${String(messageOf(event)['id'])}-changed`; break
        case 1: data['step'] = (data['step'] as number) + 1; break
        case 2: data['turn'] = (data['turn'] as number) + 1; break
        case 3: block['pruned'] = true; break
        default: data['meta'] = { rewritten: true, previous: data['meta'] ?? null }
      }
    })
    return { events, seq: index }
  },
})

/**
 * A rewrite whose result block's `isError` differs: flipped, `false` where there was none, or the flag as
 * the number a loose language equals it to. Apart from rewrite-changes-data, as the flag is where
 * implementations compare loosely.
 */
export const rewriteChangesIsError = defineMutation({
  name: 'rewrite-changes-is-error', code: 'REWRITE_DATA_CHANGED', operation: 'load', rule: 'REWR-3',
  targets: log => indexesWhere(log.events, isRewrite),
  edit(log, index, chooser) {
    const events = changed(log.events, index, event => {
      const block = (messageOf(event)['content'] as JsonObject[])[0]!
      if (chooser.int(2) === 0) block['isError'] = block['isError'] === true ? false : true
      else block['isError'] = 'isError' in block ? Number(block['isError']) : false
    })
    return { events, seq: index }
  },
})

/**
 * A rewrite that adds `meta: null` (the generated results have none): a member holding null is present,
 * so the data differ, where a reader that drops nulls (or reads them as absent) finds them equal. An
 * operator of its own, not a case of rewrite-changes-data, so that it is drawn as often as any other.
 */
export const rewriteAddsNullMember = defineMutation({
  name: 'rewrite-adds-null-member', code: 'REWRITE_DATA_CHANGED', operation: 'load', rule: 'REWR-3',
  targets: log => indexesWhere(log.events, event => isRewrite(event) && !('meta' in dataOf(event))),
  edit: (log, index) => ({ events: changed(log.events, index, event => { dataOf(event)['meta'] = null }), seq: index }),
})

/** Whether the rewrite shadows an appended tool/result, which an edit leaves valid and compared with no earlier node. */
function shadowsAppendedResult(events: readonly LogEvent[], event: LogEvent): boolean {
  const original = events[replaceOf(event)!.start]
  return original?.type === 'tool/result' && original.surfaceOp === 'append'
}

/**
 * A rewrite whose data differ from its original only where a loose comparison looks away (REWR-3): an
 * error holding null (where the original has none, or one); both given an error, the rewrite's with a
 * member more than `{name, code}`; the original without turn and step, the rewrite with 0 and 0; or
 * message ids that are the same text in another Unicode normalization, or a lone high and a lone low
 * surrogate. All but the first edit the original too, which is appended and stays valid on its own
 * (TURN-1 checks no turn of a tool/result, VOC-9 no id beyond being a non-empty string), so the first
 * fault is still the rewrite.
 */
export const rewriteChangesLoosely = defineMutation({
  name: 'rewrite-changes-loosely', code: 'REWRITE_DATA_CHANGED', operation: 'load', rule: 'REWR-3',
  targets: log => indexesWhere(log.events, event => isRewrite(event) && shadowsAppendedResult(log.events, event)),
  edit(log, index, chooser) {
    const events = cloneEvents(log.events)
    const rewrite = events[index]!
    const original = events[replaceOf(rewrite)!.start]!
    switch (chooser.int(5)) {
      case 0:
        dataOf(rewrite)['error'] = null
        break
      case 1:
        dataOf(original)['error'] = { name: 'ToolError', code: 'E1' }
        dataOf(rewrite)['error'] = { name: 'ToolError', code: 'E1', message: 'disk full' }
        break
      case 2:
        delete dataOf(original)['turn']
        delete dataOf(original)['step']
        Object.assign(dataOf(rewrite), { turn: 0, step: 0 })
        break
      case 3:
        messageOf(original)['id'] = 'caf\u00e9'
        messageOf(rewrite)['id'] = 'cafe\u0301'
        break
      default:
        messageOf(original)['id'] = 'r\ud800'
        messageOf(rewrite)['id'] = 'r\udc00'
    }
    return { events, seq: index }
  },
})

/** A rewrite retargeted at a user or assistant node (cited, so coverage passes). */
export const rewriteWrongTarget = defineMutation({
  name: 'rewrite-wrong-target', code: 'REWRITE_TARGET_INVALID', operation: 'load', rule: 'REWR-2',
  targets: log => indexesWhere(log.events, (event, index) => isRewrite(event) && nodesBefore(log.events, index).some(node => node.type !== 'tool/result')),
  edit(log, index, chooser) {
    const others = nodesBefore(log.events, index).filter(node => node.type !== 'tool/result')
    const target = others[chooser.int(others.length)]!.seq
    const events = changed(log.events, index, event => {
      event.surfaceOp = { op: 'replace', start: target, end: target }
      event.sourceEventSeqs = [target]
    })
    return { events, seq: index }
  },
})

/** A rewrite widened to its neighbour on the surface, citing both. */
export const rewriteSpansTwo = defineMutation({
  name: 'rewrite-spans-two', code: 'REWRITE_SPAN_INVALID', operation: 'load', rule: 'REWR-1',
  targets: log => indexesWhere(log.events, (event, index) => {
    const nodes = nodesBefore(log.events, index)
    return isRewrite(event) && nodes.length > 1
  }),
  edit(log, index) {
    const nodes = nodesBefore(log.events, index)
    const target = replaceOf(log.events[index]!)!.start
    const position = nodes.findIndex(node => node.seq === target)
    const [first, last] = position + 1 < nodes.length ? [target, nodes[position + 1]!.seq] : [nodes[position - 1]!.seq, target]
    const events = changed(log.events, index, event => {
      event.surfaceOp = { op: 'replace', start: first, end: last }
      event.sourceEventSeqs = [first, last]
    })
    return { events, seq: index }
  },
})

export const dropSurfaceOp = defineMutation({
  name: 'drop-surface-op', code: 'SURFACE_OP_MISSING', operation: 'load', rule: 'SURF-1',
  targets: log => indexesWhere(log.events, isSurface),
  edit: (log, index) => ({ events: changed(log.events, index, event => { delete event.surfaceOp }), seq: index }),
})

export const surfaceOpOnLogOnly = defineMutation({
  name: 'surface-op-on-log-only', code: 'SURFACE_OP_NOT_ALLOWED', operation: 'load', rule: 'SURF-1',
  targets: log => indexesWhere(log.events, event => !isSurface(event)),
  edit(log, index, chooser) {
    // Either member, whatever its value: null, and a malformed replace, are still present (SURF-1 comes before SURF-2).
    const [name, value] = pick(chooser, LOG_ONLY_MARKERS)
    return { events: changed(log.events, index, event => setMember(event, name, structuredClone(value))), seq: index }
  },
})

/** Markers a log-only event must not carry, each as a member name and a value. */
const LOG_ONLY_MARKERS: readonly (readonly [string, unknown])[] = [
  ['surfaceOp', 'append'], ['sourceEventSeqs', []], ['surfaceOp', null], ['sourceEventSeqs', null], ['surfaceOp', { op: 'replace', start: 0 }],
]

/**
 * surfaceOp values SURF-2 rejects: a member missing or extra, another op, an endpoint that is no seq, no
 * object or string at all, or the replace written as an array of its three members.
 */
function malformedSurfaceOp(event: LogEvent, chooser: Chooser): unknown {
  const op = replaceOf(event)
  const start = op?.start ?? 0
  const end = op?.end ?? start
  return pick(chooser, [
    { op: 'replace', start }, { op: 'replace', end }, { op: 'replace', start, end, note: 'x' }, { op: 'insert', start, end },
    { op: 'replace', start: String(start), end }, { op: 'replace', start, end: end + 0.5 }, { op: 'replace', start: false, end },
    'replace', 'Append', null, 0, [start, end], ['replace', start, end],
  ])
}

export const surfaceOpMalformed = defineMutation({
  name: 'surface-op-malformed', code: 'SURFACE_OP_INVALID', operation: 'load', rule: 'SURF-2',
  targets: log => indexesWhere(log.events, isSurface),
  edit(log, index, chooser) {
    const value = malformedSurfaceOp(log.events[index]!, chooser)
    return { events: changed(log.events, index, event => setMember(event, 'surfaceOp', value)), seq: index }
  },
})

/**
 * A replace written with its start alone, as a writer meaning a single node might write it: SURF-2 asks
 * for `end` too, where a reader that defaults it to `start` reads a replace of one node. Drawn on its own
 * for the same reason as rewrite-adds-null-member (as one of surface-op-malformed's values it is rare).
 */
export const replaceWithoutEnd = defineMutation({
  name: 'replace-without-end', code: 'SURFACE_OP_INVALID', operation: 'load', rule: 'SURF-2',
  targets: log => indexesWhere(log.events, event => replaceOf(event) !== undefined),
  edit: (log, index) => ({ events: changed(log.events, index, event => { delete (event.surfaceOp as Partial<ReplaceOp>).end }), seq: index }),
})

export const callIdMismatch = defineMutation({
  name: 'call-id-mismatch', code: 'MESSAGE_CALL_ID_MISMATCH', operation: 'load', rule: 'VOC-13',
  targets: log => indexesWhere(log.events, event => event.type === 'tool/result'),
  edit(log, index) {
    const events = changed(log.events, index, event => {
      const block = (messageOf(event)['content'] as JsonObject[])[0]!
      block['toolCallId'] = `${String(block['toolCallId'])}-other`
    })
    return { events, seq: index }
  },
})

export const roleInvalid = defineMutation({
  name: 'role-invalid', code: 'MESSAGE_ROLE_INVALID', operation: 'load', rule: 'VOC-10',
  targets: log => indexesWhere(log.events, isSurface),
  edit: (log, index) => ({ events: changed(log.events, index, event => { messageOf(event)['role'] = event.type === 'assistant/message' ? 'user' : 'assistant' }), seq: index }),
})

export const payloadInvalid = defineMutation({
  name: 'payload-invalid', code: 'PAYLOAD_INVALID', operation: 'load', rule: 'TURN-1',
  targets: log => indexesWhere(log.events, event => NUMBERED_TYPES.has(event.type)),
  edit(log, index, chooser) {
    const events = changed(log.events, index, event => {
      const data = dataOf(event)
      const member = event.type === 'turn/start' || chooser.int(2) === 0 ? 'turn' : 'step'
      data[member] = pick(chooser, INVALID_ORDINALS)
    })
    return { events, seq: index }
  },
})

export const turnEndMalformed = defineMutation({
  name: 'turn-end-malformed', code: 'TURN_END_MALFORMED', operation: 'load', rule: 'TURN-2',
  targets: log => indexesWhere(log.events, event => event.type === 'turn/end'),
  edit(log, index, chooser) {
    const events = changed(log.events, index, event => {
      const data = dataOf(event)
      if (chooser.int(2) === 0) data['step'] = 1
      else data['reason'] = reasonWithExtraMember(chooser)
    })
    return { events, seq: index }
  },
})

export const requestHeaderInvalid = defineMutation({
  name: 'request-header-invalid', code: 'REQUEST_HEADER_INVALID', operation: 'load', rule: 'HDR-2',
  targets: log => indexesWhere(log.events, event => event.type === 'request/header'),
  edit: (log, index) => ({ events: changed(log.events, index, event => { (dataOf(event)['header'] as JsonObject)['adapterDefaults'] = { maxTokens: true } }), seq: index }),
})

export const legacyEventType = defineMutation({
  name: 'legacy-event-type', code: 'LEGACY_EVENT_TYPE', operation: 'load', rule: 'LEGACY-1',
  targets: log => indexesWhere(log.events, event => !isSurface(event)),
  edit(log, index, chooser) {
    const type = chooser.int(2) === 0 ? 'mode/set' : 'request/header-delta'
    return { events: changed(log.events, index, event => { event.type = type }), seq: index }
  },
})

/** A log-only event renamed to a type no vocabulary has, not marked ignorable. */
export const unknownType = defineMutation({
  name: 'unknown-type', code: 'FORMAT_UNKNOWN_EVENT_TYPE', operation: 'load', rule: 'UNK-3',
  targets: log => indexesWhere(log.events, event => !isSurface(event)),
  edit: (log, index) => ({ events: changed(log.events, index, event => { event.type = 'acme/unknown-event'; delete event.ignorable }), seq: index }),
})

export const LOAD_MUTATIONS: readonly Mutation[] = [
  dropEvent, swapEvents, duplicateEvent, breakReplaceStart, breakReplaceEnd, reverseReplace, unciteShadowed, unciteInnerShadowed,
  citeLaterEvent, citationElementInvalid, citationsNotArray, duplicateCitation, laterThenDuplicateCitation, emptyCitation, rewriteChangesData,
  rewriteChangesIsError, rewriteAddsNullMember, rewriteChangesLoosely, rewriteWrongTarget, rewriteSpansTwo, dropSurfaceOp, surfaceOpOnLogOnly, surfaceOpMalformed, replaceWithoutEnd,
  callIdMismatch, roleInvalid, payloadInvalid, turnEndMalformed, requestHeaderInvalid, legacyEventType, unknownType,
]

