// Known-bad views from a third planted-bug review of messages, requestHeader, requestContext and
// headerEquals (121 bugs planted in a port of chapters 08, 16 and 18; these passed every vector then,
// and the review's new cases catch them): version 0 upgrades done their own way where only `messages`
// sees them, a fold in time order, a message cache spliced at node positions, log-only payloads
// projected, seqs compared as text, a context coerced, and a canonical form or an equality that
// dedupes, walks arrays as objects, trims strings, or reads null and false flags their own way. Each
// wraps a reference operation: it edits the input the way the bug reads it, or the result the way the
// bug reports it.
import { deriveEventMessage, deriveMessages } from '../../reference/derived-messages.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import type { JsonRecord } from '../../reference/lossless-json.ts'
import { canonicalHeader, foldRequestContext, foldRequestHeader, headerEquals as canonicalHeadersEqual } from '../../reference/request-header.ts'
import { isSurfaceEligibleType, messageOf } from '../../reference/vocabulary.ts'
import { accepted, dataOf, isRecord, loadedEvents, recordsOf, ref, stringsEdited, type KnownBad, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>

// ---- LEGACY-7, LEGACY-10, LEGACY-11: upgrades as messages sees them ---------------------------------

/** messages over the loaded events, each as `upgrade` makes it from the record as stored (the upgrade the bug does its own way). */
function messagesUpgrading(upgrade: (event: EventRecord, stored: EventRecord, earlier: EventRecord[]) => EventRecord): SyncOperation {
  return input => {
    const events = loadedEvents(input)
    if (events === undefined) return ref.messages(input)
    const stored = recordsOf(input)
    const upgraded = events.map((event, index) => {
      const record = stored[index]
      return isRecord(record) ? upgrade(event, record, events.slice(0, index)) : event
    })
    return accepted(deriveMessages(upgraded as unknown as SessionEvent[]))
  }
}

/** Whether a stored record is a version 0 assistant message (content and provenance, no message wrapper). */
function isUnwrappedAssistant(record: EventRecord): boolean {
  const data = dataOf(record)
  return record['type'] === 'assistant/message' && !('message' in data) && 'content' in data && 'provenance' in data
}

/** The event with its data.message changed by `edit`. */
function withMessage(event: EventRecord, edit: (message: EventRecord) => EventRecord): EventRecord {
  const message = dataOf(event)['message']
  return isRecord(message) ? { ...event, data: { ...dataOf(event), message: edit(message) } } : event
}

/** An unwrapped assistant's source built as `{kind: 'model', ...provenance}`, so a provenance kind wins over "model". */
const provenanceKindKept = messagesUpgrading((event, stored) => {
  const provenance = dataOf(stored)['provenance']
  return isUnwrappedAssistant(stored) && isRecord(provenance) ? withMessage(event, message => ({ ...message, source: { kind: 'model', ...provenance } })) : event
})

/** A steering message of form 1 upgraded to its wrapped message with the steering turn kept in it. */
const steeringTurnKept = messagesUpgrading((event, stored) => {
  const data = dataOf(stored)
  return stored['type'] === 'steering/message' && isRecord(data['message']) ? { ...event, data: { ...dataOf(event), turn: data['turn'] } } : event
})

/** Whether a stored record is a version 0 tool result rewriting an earlier node (no message wrapper, a replace surfaceOp). */
function isLegacyRewrite(record: EventRecord): boolean {
  const data = dataOf(record)
  const op = record['surfaceOp']
  return record['type'] === 'tool/result' && !('message' in data) && 'callId' in data && isRecord(op) && op['op'] === 'replace'
}

/** The message id an event records (its message's id), if any. */
function recordedId(event: EventRecord): unknown {
  const message = messageOf(event['type'], event['data'])
  return isRecord(message) && typeof message['id'] === 'string' ? message['id'] : undefined
}

/** A legacy rewrite inherits the id recorded last before it, not the one recorded for its start. */
const rewriteTakesLatestId = messagesUpgrading((event, stored, earlier) => {
  const latest = earlier.map(recordedId).findLast(id => id !== undefined)
  return isLegacyRewrite(stored) && latest !== undefined ? withMessage(event, message => ({ ...message, id: latest })) : event
})

// ---- DER-1, DER-5, DER-7, DER-8: the projection -----------------------------------------------------

/** The events in time order (ties in seq order), renumbered as a log written in that order: seqs, replace endpoints and citations follow. */
function inTimeOrder(events: EventRecord[]): EventRecord[] {
  const sorted = [...events].sort((a, b) => (a['time'] as number) - (b['time'] as number))
  const renumbered = new Map(sorted.map((event, index) => [event['seq'], index]))
  return sorted.map((event, index) => {
    const op = event['surfaceOp']
    const sources = event['sourceEventSeqs']
    return {
      ...event,
      seq: index,
      ...(isRecord(op) ? { surfaceOp: { ...op, start: renumbered.get(op['start']), end: renumbered.get(op['end']) } } : {}),
      ...(Array.isArray(sources) ? { sourceEventSeqs: sources.map(seq => renumbered.get(seq)) } : {}),
    }
  })
}

/** messages folded over the events in time order, as a log sorted by time before it is read. */
const foldedByTime: SyncOperation = input => {
  const events = loadedEvents(input)
  return events === undefined ? ref.messages(input) : accepted(deriveMessages(inTimeOrder(events) as unknown as SessionEvent[]))
}

/** messages kept incrementally: a cache of messages spliced at the positions the replace has among the nodes, which an empty assistant node misaligns. */
const cacheSplicedAtNodePositions: SyncOperation = input => {
  const events = loadedEvents(input)
  if (events === undefined) return ref.messages(input)
  const nodes: unknown[] = []
  const cache: unknown[] = []
  for (const event of events) {
    const op = event['surfaceOp']
    const message = deriveEventMessage(event as unknown as SessionEvent)
    const derived = message === null ? [] : [message]
    if (op === 'append') {
      nodes.push(event['seq'])
      cache.push(...derived)
    } else if (isRecord(op)) {
      const from = nodes.indexOf(op['start'])
      const count = nodes.indexOf(op['end']) - from + 1
      nodes.splice(from, count, event['seq'])
      cache.splice(from, count, ...derived)
    }
  }
  return accepted(cache)
}

/** In a log with no replace, messages read straight off the events: each appended node, and any other event whose data holds a message object. */
const logOnlyPayloadsProjected: SyncOperation = input => {
  const events = loadedEvents(input)
  if (events === undefined || events.some(event => isRecord(event['surfaceOp']))) return ref.messages(input)
  return accepted(events.flatMap(event => {
    const inner = dataOf(event)['message']
    if (event['surfaceOp'] === 'append') {
      const message = deriveEventMessage(event as unknown as SessionEvent)
      return message === null ? [] : [message]
    }
    return !isSurfaceEligibleType(event['type'] as string) && isRecord(inner) ? [inner] : []
  }))
}

// ---- HDR-3, HDR-4, HDR-8: what is in force ----------------------------------------------------------

/** The request folds over the events whose seq, as text, sorts at or before atSeq as text ("10" before "9"). */
function atSeqAsText(operation: SyncOperation, fold: (events: readonly SessionEvent[]) => unknown): SyncOperation {
  return input => {
    const events = loadedEvents(input)
    if (events === undefined || typeof input['atSeq'] !== 'number') return operation(input)
    const atSeq = String(input['atSeq'])
    return accepted(fold(events.filter(event => String(event['seq']) <= atSeq) as unknown as SessionEvent[]))
  }
}

/** The context in force with a contextWindow written as a string of digits turned into a number. */
const contextWindowAsNumber: SyncOperation = input => {
  const result = ref.requestContext(input)
  const context = result.ok ? result.value : undefined
  if (!isRecord(context) || typeof context['contextWindow'] !== 'string' || !/^\d+$/.test(context['contextWindow'])) return result
  return accepted({ ...context, contextWindow: Number(context['contextWindow']) })
}

/** The tools without repeats: a schema equal (as JSON text) to an earlier one dropped. */
function deduplicated(tools: unknown[]): unknown[] {
  return [...new Map(tools.map(tool => [JSON.stringify(tool), tool])).values()]
}

/** The header in force with repeated tool schemas dropped. */
const toolsDeduplicatedInForce: SyncOperation = input => {
  const result = ref.requestHeader(input)
  const header = result.ok ? result.value : undefined
  return isRecord(header) && Array.isArray(header['tools']) ? accepted({ ...header, tools: deduplicated(header['tools']) }) : result
}

// ---- HDR-5: header equality -------------------------------------------------------------------------

/** headerEquals with each side's canonical form as `edit` reads it, then compared as HDR-5 says. */
function equalsOfCanonical(edit: (header: JsonRecord) => JsonRecord): SyncOperation {
  return input => {
    const canonical = (value: unknown): JsonRecord => edit(canonicalHeader(isRecord(value) ? value : {}))
    return accepted(canonicalHeadersEqual(canonical(input['left']), canonical(input['right'])))
  }
}

/** A canonical header whose tools are changed by `edit` (a header without tools kept as it is). */
function withToolsRead(edit: (tools: unknown[]) => unknown[]): (header: JsonRecord) => JsonRecord {
  return header => (Array.isArray(header['tools']) ? { ...header, tools: edit(header['tools']) } : header)
}

/** A value walked by Object.entries: each array read as an object with index-named members, at every depth. */
function arraysAsObjects(value: unknown): unknown {
  if (Array.isArray(value)) return Object.fromEntries(value.map((item, index) => [String(index), arraysAsObjects(item)]))
  return isRecord(value) ? Object.fromEntries(Object.entries(value).map(([name, member]) => [name, arraysAsObjects(member)])) : value
}

/** The canonical header with the strings of its config and system trimmed. */
function trimmed(header: JsonRecord): JsonRecord {
  return { ...header, config: stringsEdited(header['config'], text => text.trim()), ...('system' in header ? { system: String(header['system']).trim() } : {}) }
}

/** The config without its stop when that stop is null. */
function withoutNullStop(config: unknown): unknown {
  if (!isRecord(config) || config['stop'] !== null) return config
  const { stop: _stop, ...rest } = config
  return rest
}

/** Two null stops read as the same value: a null check before the array check. */
const nullStopsEqual: SyncOperation = input => {
  const bothNull = [input['left'], input['right']].every(side => isRecord(side) && isRecord(side['config']) && side['config']['stop'] === null)
  return bothNull ? equalsOfCanonical(header => ({ ...header, config: withoutNullStop(header['config']) }))(input) : ref.headerEquals(input)
}

/** Flags present on both sides equal only when both hold true (`a[flag] === true && b[flag] === true`). */
const flagsEqualOnlyWhenTrue: SyncOperation = input => {
  const result = ref.headerEquals(input)
  if (!result.ok || result.value !== true) return result
  const flags = canonicalHeader(isRecord(input['left']) ? input['left'] : {})['adapterDefaults']
  return accepted(!isRecord(flags) || Object.values(flags).every(flag => flag === true))
}

export const VIEWS_THIRD_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'messages-legacy-provenance-kind-kept',
    bug: 'an unwrapped assistant message gets source {kind: "model", ...provenance}, so a provenance kind overrides "model"',
    caughtBy: ['legacy-assistant-provenance-kind-replaced-by-model'],
    patch: { messages: provenanceKindKept },
  },
  {
    name: 'messages-steering-turn-kept',
    bug: 'a steering/message wrapping a message is upgraded to that message with the steering turn kept in it',
    caughtBy: ['legacy-steering-wrapped-bare-message-gets-id-and-role', 'legacy-steering-wrapped-message-drops-the-turn'],
    patch: { messages: steeringTurnKept },
  },
  {
    name: 'messages-legacy-rewrite-latest-id',
    bug: 'a legacy tool-result rewrite inherits the message id recorded last, not the one recorded for its start',
    caughtBy: ['legacy-rewrite-takes-the-id-at-start-not-the-latest'],
    patch: { messages: rewriteTakesLatestId },
  },
  {
    name: 'messages-folded-in-time-order',
    bug: 'messages fold the events in time order, not seq order',
    caughtBy: ['der-fold-in-seq-order-when-times-decrease'],
    patch: { messages: foldedByTime },
  },
  {
    name: 'messages-cache-spliced-at-node-positions',
    bug: 'a replace splices a cache of messages at its node positions, which an empty assistant node shifts',
    caughtBy: ['der-empty-assistant-keeps-position-before-a-replace'],
    patch: { messages: cacheSplicedAtNodePositions },
  },
  {
    name: 'messages-log-only-payload-projected',
    bug: 'in a log with no replace, a log-only event whose data holds a message object derives that message',
    caughtBy: ['der-ignorable-event-with-message-payload-derives-nothing'],
    patch: { messages: logOnlyPayloadsProjected },
  },
  {
    name: 'request-folds-at-seq-as-text',
    bug: 'the header and context folds compare seqs with atSeq as strings, so "10" comes before "9"',
    caughtBy: ['hdr-fold-two-digit-at-seq-is-numeric'],
    patch: {
      requestHeader: atSeqAsText(ref.requestHeader, foldRequestHeader),
      requestContext: atSeqAsText(ref.requestContext, foldRequestContext),
    },
  },
  {
    name: 'context-window-as-number',
    bug: 'the context in force turns a contextWindow written as a string of digits into a number',
    caughtBy: ['hdr-ctx-string-window-kept-as-stored'],
    patch: { requestContext: contextWindowAsNumber },
  },
  {
    name: 'header-tools-deduplicated',
    bug: 'the canonical header drops a tool schema identical to an earlier one, in the header in force and in equality',
    caughtBy: ['hdr-fold-identical-tools-both-kept'],
    patch: { requestHeader: toolsDeduplicatedInForce, headerEquals: equalsOfCanonical(withToolsRead(deduplicated)) },
  },
  {
    name: 'header-equality-arrays-as-index-objects',
    bug: 'header equality walks tools with Object.entries, so an array equals an object with index-named members',
    caughtBy: ['hdr-eq-tool-array-against-index-keyed-object'],
    patch: { headerEquals: equalsOfCanonical(withToolsRead(tools => tools.map(arraysAsObjects))) },
  },
  {
    name: 'header-equality-trimmed-strings',
    bug: 'header equality compares config strings and the system prompt after trimming white space',
    caughtBy: ['hdr-eq-strings-differ-in-white-space'],
    patch: { headerEquals: equalsOfCanonical(trimmed) },
  },
  {
    name: 'header-equality-null-stops-equal',
    bug: 'header equality takes a stop holding null on both sides as the same stop',
    caughtBy: ['hdr-eq-null-stop-on-both-sides-differs'],
    patch: { headerEquals: nullStopsEqual },
  },
  {
    name: 'header-equality-flags-only-true',
    bug: 'header equality takes two flags as equal only when both hold true, so the same null or false on both sides differs',
    caughtBy: ['hdr-eq-same-null-or-false-flag-on-both-sides'],
    patch: { headerEquals: flagsEqualOnlyWhenTrue },
  },
]
