// Known-bad views from a second planted-bug review of messages, requestHeader, requestContext and
// headerEquals (80 bugs planted in a second implementation of chapters 08 and 16; these fourteen passed
// every reader vector then): a replace run found another way, a projection that frames, unwraps, skips
// or flags a message, folds that reset, pick by time, match types by prefix or normalize stop, and an
// equality looser about null, case or tool members. Each wraps a reference operation: it edits the
// input the way the bug reads it, or the result the way the bug reports it.
import { deriveEventMessage } from '../../reference/derived-messages.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { hasOwn } from '../../reference/lossless-json.ts'
import { foldRequestContext, foldRequestHeader } from '../../reference/request-header.ts'
import { foldResetAt, messagesByOwnFold, type ReplaceStep } from './views-review.ts'
import { accepted, dataOf, isRecord, loadedEvents, ref, stringsEdited, type KnownBad, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>

// ---- DER-1 to DER-8: the projection -------------------------------------------------------------

/** The replace shadows its two endpoint nodes only, and stands where start stood. */
const endpointsOnlyShadowed: ReplaceStep = (nodes, { start, end }, event) => {
  const kept = nodes.map(seq => (seq === start ? event['seq'] as number : seq))
  return kept.filter(seq => seq !== end || end === start)
}

/** The run found from the numerically smaller endpoint to the larger: reversed positions splice nothing out, only the replacement in. */
const runFromSmallerSeq: ReplaceStep = (nodes, { start, end }, event) => {
  const from = nodes.indexOf(Math.min(start, end))
  const to = nodes.indexOf(Math.max(start, end))
  return [...nodes.slice(0, from), event['seq'] as number, ...nodes.slice(Math.max(from, to + 1))]
}

/** messages with each current node's message as `project` gives it from its event and the message the reference derives (null: none). */
function messagesProjecting(project: (event: EventRecord, message: unknown) => unknown): SyncOperation {
  return input => {
    const surface = ref.surface(input)
    const events = loadedEvents(input)
    if (!surface.ok || events === undefined) return ref.messages(input)
    return accepted((surface.value as { nodes: number[] }).nodes.flatMap(seq => {
      const event = events[seq]!
      const message = project(event, deriveEventMessage(event as unknown as SessionEvent))
      return message === null ? [] : [message]
    }))
  }
}

/** The message with each content block that `edit` applies to changed by it. */
function withBlocks(message: unknown, edit: (block: EventRecord) => EventRecord): unknown {
  if (!isRecord(message) || !Array.isArray(message['content'])) return message
  return { ...message, content: message['content'].map(block => (isRecord(block) ? edit(block) : block)) }
}

/** Whether a message's source is a plugin's injected instructions. */
function isInjectedInstructions(message: unknown): boolean {
  const source = isRecord(message) ? message['source'] : undefined
  return isRecord(source) && source['kind'] === 'plugin' && source['form'] === 'instructions'
}

/** Injected instructions have each text block wrapped in <system-reminder> tags. */
const instructionsFramed = messagesProjecting((_, message) => (isInjectedInstructions(message)
  ? withBlocks(message, block => (block['type'] === 'text' ? { ...block, text: `<system-reminder>\n${String(block['text'])}\n</system-reminder>` } : block))
  : message))

/** One projection for every type: data.message when it is an object, so a user/message with such a member projects it. */
const innerMessageMember = messagesProjecting((event, message) => {
  const inner = dataOf(event)['message']
  return event['type'] === 'user/message' && isRecord(inner) ? inner : message
})

/** Whether a tool result's message holds a tool-result block with empty content, as a pruned result has. */
function hasEmptyResultBlock(message: unknown): boolean {
  const content = isRecord(message) ? message['content'] : undefined
  return Array.isArray(content) && content.some(block => isRecord(block) && Array.isArray(block['content']) && block['content'].length === 0)
}

/** A tool result with an empty tool-result block projects to nothing, as DER-4 does for an empty assistant message. */
const emptyToolResultSkipped = messagesProjecting((event, message) =>
  (event['type'] === 'tool/result' && hasEmptyResultBlock(message) ? null : message))

/** A tool result whose data has an error projects with isError: true added to each block that lacks one. */
const errorSetsIsError = messagesProjecting((event, message) =>
  (event['type'] === 'tool/result' && hasOwn(dataOf(event), 'error')
    ? withBlocks(message, block => (block['type'] === 'tool-result' && !hasOwn(block, 'isError') ? { ...block, isError: true } : block))
    : message))

// ---- HDR-3, HDR-4, HDR-8: what is in force ---------------------------------------------------------

type RequestFold = (events: readonly SessionEvent[], atSeq?: number) => unknown

/** A request fold run by the reference over the loaded events as `rewrite` changes them. */
function foldOver(operation: SyncOperation, fold: RequestFold, rewrite: (events: EventRecord[]) => EventRecord[]): SyncOperation {
  return input => {
    const events = loadedEvents(input)
    if (events === undefined) return operation(input)
    return accepted(fold(rewrite(events) as unknown as SessionEvent[], typeof input['atSeq'] === 'number' ? input['atSeq'] : undefined))
  }
}

/** The events in time order (ties in seq order), so the last one of a type is the latest in time. */
function byTime(events: EventRecord[]): EventRecord[] {
  return [...events].sort((a, b) => (a['time'] as number) - (b['time'] as number))
}

/** The event as a fold that matches types by prefix reads it: any type starting with a request type is that type. */
function typedByPrefix(event: EventRecord): EventRecord {
  const type = typeof event['type'] === 'string' ? event['type'] : ''
  const matched = ['request/header', 'request/context'].find(prefix => type.startsWith(prefix))
  return matched === undefined ? event : { ...event, type: matched }
}

/** The header in force with a string config.stop turned into a one-element list, as formats that allow either are read. */
const stopAsList: SyncOperation = input => {
  const result = ref.requestHeader(input)
  const header = result.ok ? result.value : undefined
  if (!isRecord(header) || !isRecord(header['config']) || typeof header['config']['stop'] !== 'string') return result
  return accepted({ ...header, config: { ...header['config'], stop: [header['config']['stop']] } })
}

// ---- HDR-5: header equality ----------------------------------------------------------------------

/** headerEquals over both headers as `edit` reads them. */
function equalsReading(edit: (header: EventRecord) => EventRecord): SyncOperation {
  return input => ref.headerEquals({
    ...input,
    left: isRecord(input['left']) ? edit(input['left']) : input['left'],
    right: isRecord(input['right']) ? edit(input['right']) : input['right'],
  })
}

function withoutNulls(record: EventRecord): EventRecord {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null))
}

/** A header whose members, config members and flags holding null are read as absent (`!= null`). */
const nullsAbsent = equalsReading(header => {
  const { config, adapterDefaults } = header
  return {
    ...withoutNulls(header),
    ...(isRecord(config) ? { config: withoutNulls(config) } : {}),
    ...(isRecord(adapterDefaults) ? { adapterDefaults: withoutNulls(adapterDefaults) } : {}),
  }
})

/** A header whose config strings are read lower-cased. */
const configCaseFolded = equalsReading(header => ({ ...header, config: stringsEdited(header['config'], text => text.toLowerCase()) }))

/** A value with every object member holding null left out, at every depth (array elements kept), as an omitempty serializer writes it. */
function omittingNullMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(omittingNullMembers)
  if (!isRecord(value)) return value
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== null).map(([name, member]) => [name, omittingNullMembers(member)]))
}

/** A header whose tools are written without their null members before they are compared. */
const toolNullsOmitted = equalsReading(header => (Array.isArray(header['tools']) ? { ...header, tools: omittingNullMembers(header['tools']) } : header))

export const VIEWS_SECOND_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'messages-replace-endpoints-only',
    bug: 'a replace shadows its two endpoint nodes only, not the nodes between them',
    caughtBy: ['der-replace-run-of-three-shadows-the-middle'],
    patch: { messages: messagesByOwnFold(endpointsOnlyShadowed) },
  },
  {
    name: 'messages-run-from-smaller-seq',
    bug: 'a replace run is found from its numerically smaller endpoint, so a reversed one removes nothing and inserts its event',
    caughtBy: ['der-numerically-reversed-replace-projects-once'],
    patch: { messages: messagesByOwnFold(runFromSmallerSeq) },
  },
  {
    name: 'messages-instructions-framed',
    bug: 'injected instructions from a plugin have their text wrapped in <system-reminder> tags',
    caughtBy: ['der-injected-instructions-not-framed'],
    patch: { messages: instructionsFramed },
  },
  {
    name: 'messages-user-inner-message-projected',
    bug: 'a user/message whose data has an object member named message projects that member, as one projection for every type does',
    caughtBy: ['der-user-message-member-named-message-kept'],
    patch: { messages: innerMessageMember },
  },
  {
    name: 'messages-empty-tool-result-skipped',
    bug: 'a tool result whose tool-result block has empty content projects to nothing',
    caughtBy: ['der-tool-result-empty-inner-content-projected', 'der-assistant-and-tool-member-named-proto-kept'],
    patch: { messages: emptyToolResultSkipped },
  },
  {
    name: 'messages-error-sets-is-error',
    bug: 'a tool result whose data has an error projects with isError: true added to its block',
    caughtBy: ['der-tool-result-error-adds-no-is-error'],
    patch: { messages: errorSetsIsError },
  },
  {
    name: 'request-folds-reset-at-turn-start',
    bug: 'the header and context folds start again from nothing at the last turn/start',
    caughtBy: ['hdr-fold-in-force-across-turn-start'],
    patch: { requestHeader: foldResetAt('turn/start', ref.requestHeader), requestContext: foldResetAt('turn/start', ref.requestContext) },
  },
  {
    name: 'context-reset-at-header',
    bug: 'a request/header snapshot clears the context in force',
    caughtBy: ['hdr-ctx-survives-a-later-header'],
    patch: { requestContext: foldResetAt('request/header', ref.requestContext) },
  },
  {
    name: 'request-folds-latest-by-time',
    bug: 'the header and context in force are the records with the greatest time, not the last by seq',
    caughtBy: ['hdr-fold-latest-by-seq-not-time'],
    patch: { requestHeader: foldOver(ref.requestHeader, foldRequestHeader, byTime), requestContext: foldOver(ref.requestContext, foldRequestContext, byTime) },
  },
  {
    name: 'request-folds-type-prefix',
    bug: 'every type starting with request/header or request/context is folded as one',
    caughtBy: ['hdr-fold-exact-type-names'],
    patch: {
      requestHeader: foldOver(ref.requestHeader, foldRequestHeader, events => events.map(typedByPrefix)),
      requestContext: foldOver(ref.requestContext, foldRequestContext, events => events.map(typedByPrefix)),
    },
  },
  {
    name: 'header-fold-stop-as-list',
    bug: 'the header in force turns a string config.stop into a one-element list',
    caughtBy: ['hdr-fold-string-stop-kept-as-stored'],
    patch: { requestHeader: stopAsList },
  },
  {
    name: 'header-equality-null-as-absent',
    bug: 'header equality takes a member, config member or flag holding null for an absent one',
    caughtBy: ['hdr-eq-null-is-present'],
    patch: { headerEquals: nullsAbsent },
  },
  {
    name: 'header-equality-case-insensitive',
    bug: 'header equality compares config strings case-insensitively',
    caughtBy: ['hdr-eq-strings-case-sensitive'],
    patch: { headerEquals: configCaseFolded },
  },
  {
    name: 'header-equality-tool-nulls-omitted',
    bug: 'header equality compares tool schemas with their null members left out',
    caughtBy: ['hdr-eq-tool-schemas-ordered-equal-all-the-way'],
    patch: { headerEquals: toolNullsOmitted },
  },
]
