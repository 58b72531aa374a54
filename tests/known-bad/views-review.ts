// Known-bad views from a planted-bug review of the read-only operations requestHeader, requestContext
// and messages (bugs planted in a second implementation of chapters 08 and 16; these eleven passed
// every reader vector then): a fold reset at a boundary, a serializer's omitempty or typed copy, a
// batching of user-role messages, and a surface fold of its own. Each wraps a reference operation: it
// edits the input the way the bug reads it, or the result the way the bug reports it.
import { deriveEventMessage } from '../../reference/derived-messages.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { accepted, citationsOf, isRecord, loadedEvents, ref, type KnownBad, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>

/** The record without its members whose value `dropped` matches, as a serializer's omitempty writes it. */
function omitting(record: EventRecord, dropped: (value: unknown) => boolean): EventRecord {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => !dropped(value)))
}

/** The fold's result with `edit` applied to it when it is an object (null, or a rejection, passed on). */
function editingResult(operation: SyncOperation, edit: (value: EventRecord) => EventRecord): SyncOperation {
  return input => {
    const result = operation(input)
    return result.ok && isRecord(result.value) ? accepted(edit(result.value)) : result
  }
}

/** The types the request folds read. */
const REQUEST_TYPES = new Set(['request/header', 'request/context'])

/** A request/header or request/context retyped as an event of no type the folds read, at the same seq and time. */
function forgotten(event: EventRecord): EventRecord {
  return { type: 'x-known-bad/forgotten', seq: event['seq'], time: event['time'], data: {}, ignorable: true }
}

/**
 * A request fold that starts again from nothing at the last event of type `reset` at or before atSeq:
 * the header and context records before it are forgotten, as a new loop instance that starts empty.
 */
export function foldResetAt(reset: string, operation: SyncOperation): SyncOperation {
  return input => {
    const events = loadedEvents(input)
    if (events === undefined) return operation(input)
    const atSeq = typeof input['atSeq'] === 'number' ? input['atSeq'] : Infinity
    const from = events.findLast(event => event['type'] === reset && (event['seq'] as number) <= atSeq)?.['seq'] as number | undefined
    if (from === undefined) return operation(input)
    return operation({ ...input, events: events.map(event => (REQUEST_TYPES.has(event['type'] as string) && (event['seq'] as number) < from ? forgotten(event) : event)) })
  }
}

/** The header in force with its config written by omitempty: members holding null, 0 or false dropped. */
const configOmitsEmpty = editingResult(ref.requestHeader, header =>
  isRecord(header['config']) ? { ...header, config: omitting(header['config'], value => value === null || value === 0 || value === false) } : header)

const TOOL_MEMBERS = ['name', 'description', 'parameters']

/** A tool schema read into a typed struct: its name, description and parameters, nothing else. */
function typedTool(tool: EventRecord): EventRecord {
  return Object.fromEntries(TOOL_MEMBERS.filter(member => member in tool).map(member => [member, tool[member]]))
}

/** The header's tools edited by `edit`; an empty list left out, as the canonical form leaves it. */
function withTools(header: EventRecord, edit: (tools: unknown[]) => unknown[]): EventRecord {
  if (!Array.isArray(header['tools'])) return header
  const { tools, ...rest } = header
  const edited = edit(tools)
  return edited.length === 0 ? rest : { ...rest, tools: edited }
}

/** The header in force with each tool typed, elements that are no object dropped. */
const toolsTyped = editingResult(ref.requestHeader, header => withTools(header, tools => tools.filter(isRecord).map(typedTool)))

/** The header in force with its tools held in a map by name: a later name replaces an earlier, names sorted. */
const toolsByName = editingResult(ref.requestHeader, header => withTools(header, tools => {
  const byName = new Map(tools.map(tool => [String(isRecord(tool) ? tool['name'] : tool), tool]))
  return [...byName.keys()].sort().map(name => byName.get(name))
}))

/** The context in force copied by omitempty: members holding 0 or null dropped. */
const contextOmitsEmpty = editingResult(ref.requestContext, context => omitting(context, value => value === 0 || value === null))

/** A projected message and the type of the event it comes from. */
type Projected = { type: string; message: EventRecord }

/** The reference's messages beside their event types: its surface nodes projected as DER-1 does; undefined for a log it rejects. */
function projectedMessages(input: EventRecord): Projected[] | undefined {
  const surface = ref.surface(input)
  const events = loadedEvents(input)
  return surface.ok && events !== undefined ? projectNodes(events, (surface.value as { nodes: number[] }).nodes) : undefined
}

/** The surface nodes (seqs) of the loaded events projected to their messages, empty ones skipped. */
function projectNodes(events: EventRecord[], nodes: readonly number[]): Projected[] {
  return nodes.flatMap(seq => {
    const event = events.find(candidate => candidate['seq'] === seq)
    const message = event === undefined ? null : deriveEventMessage(event as unknown as SessionEvent)
    return isRecord(message) ? [{ type: event!['type'] as string, message }] : []
  })
}

/** messages with the projected list batched by `joins`: an entry it accepts is merged into the one before. */
function messagesJoining(joins: (previous: Projected, next: Projected) => boolean): SyncOperation {
  return input => {
    const projected = projectedMessages(input)
    if (projected === undefined) return ref.messages(input)
    const joined: Projected[] = []
    for (const next of projected) {
      const previous = joined.at(-1)
      if (previous === undefined || !joins(previous, next)) joined.push(next)
      else previous.message = { ...previous.message, content: [...(previous.message['content'] as unknown[]), ...(next.message['content'] as unknown[])] }
    }
    return accepted(joined.map(entry => entry.message))
  }
}

/** Consecutive tool results merged into one user message, as a provider format that batches them wants. */
const toolResultsMerged = messagesJoining((previous, next) => previous.type === 'tool/result' && next.type === 'tool/result')

/** A user message right after a tool result appended to it, as a format that wants one user turn does. */
const userJoinsResult = messagesJoining((previous, next) => previous.type === 'tool/result' && next.type === 'user/message')

/** A replace's shadowing as a port computes it: the current nodes (in surface order) after the replace `event`. */
export type ReplaceStep = (nodes: number[], op: { start: number; end: number }, event: EventRecord) => number[]

/** messages from a surface fold of its own: append pushes the seq, a replace is `replace`; then projected as DER-1 does. */
export function messagesByOwnFold(replace: ReplaceStep): SyncOperation {
  return input => {
    const events = loadedEvents(input)
    if (events === undefined) return ref.messages(input)
    let nodes: number[] = []
    for (const event of events) {
      const op = event['surfaceOp']
      if (op === 'append') nodes = [...nodes, event['seq'] as number]
      else if (isRecord(op)) nodes = replace(nodes, op as { start: number; end: number }, event)
    }
    return accepted(projectNodes(events, nodes).map(entry => entry.message))
  }
}

/** Every current node whose seq lies numerically between start and end shadowed; the replace at the first's place (appended when none is). */
const seqIntervalShadowed: ReplaceStep = (nodes, { start, end }, event) => {
  const low = Math.min(start, end)
  const high = Math.max(start, end)
  const inside = (seq: number): boolean => seq >= low && seq <= high
  const at = nodes.findIndex(inside)
  const kept = nodes.filter(seq => !inside(seq))
  return at === -1 ? [...kept, event['seq'] as number] : [...kept.slice(0, at), event['seq'] as number, ...kept.slice(at)]
}

/** The positional run start..end replaced by the event (appended when the run is gone), and every current node it cites shadowed too. */
const citedShadowed: ReplaceStep = (nodes, { start, end }, event) => {
  const from = nodes.indexOf(start)
  const to = nodes.indexOf(end)
  const seq = event['seq'] as number
  const replaced = from === -1 || to < from ? [...nodes, seq] : [...nodes.slice(0, from), seq, ...nodes.slice(to + 1)]
  const cited = new Set(citationsOf(event))
  return replaced.filter(seq => !cited.has(seq))
}

/** Each projected message without its top-level members that hold null. */
const messagesOmitNull: SyncOperation = input => {
  const result = ref.messages(input)
  if (!result.ok) return result
  return accepted((result.value as unknown[]).map(message => (isRecord(message) ? omitting(message, value => value === null) : message)))
}

export const VIEWS_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'views-header-reset-at-turn-end',
    bug: 'the header and context folds start again from nothing at the last turn/end',
    caughtBy: ['hdr-fold-outlives-turn-end-and-end-seed'],
    patch: { requestHeader: foldResetAt('turn/end', ref.requestHeader), requestContext: foldResetAt('turn/end', ref.requestContext) },
  },
  {
    name: 'views-header-reset-at-end-seed',
    bug: 'the header and context folds start again from nothing at the last session/end-seed',
    caughtBy: ['hdr-fold-outlives-turn-end-and-end-seed'],
    patch: { requestHeader: foldResetAt('session/end-seed', ref.requestHeader), requestContext: foldResetAt('session/end-seed', ref.requestContext) },
  },
  {
    name: 'views-config-omits-empty',
    bug: 'the header in force drops config members holding null, 0 or false, as omitempty does',
    caughtBy: ['hdr-fold-config-and-tools-exactly-as-stored'],
    patch: { requestHeader: configOmitsEmpty },
  },
  {
    name: 'views-tools-typed',
    bug: 'the tools in force are typed schemas: name, description and parameters only, non-objects dropped',
    caughtBy: ['hdr-fold-config-and-tools-exactly-as-stored'],
    patch: { requestHeader: toolsTyped },
  },
  {
    name: 'views-tools-by-name',
    bug: 'the tools in force are a map by name, so a repeated name replaces the earlier and names come sorted',
    caughtBy: ['hdr-fold-config-and-tools-exactly-as-stored'],
    patch: { requestHeader: toolsByName },
  },
  {
    name: 'views-context-omits-empty',
    bug: 'the context in force drops members holding 0 or null, as omitempty does',
    caughtBy: ['hdr-ctx-zero-and-null-members-kept'],
    patch: { requestContext: contextOmitsEmpty },
  },
  {
    name: 'views-messages-merge-tool-results',
    bug: 'consecutive tool results are merged into one user message',
    caughtBy: ['der-adjacent-tool-results-stay-apart'],
    patch: { messages: toolResultsMerged },
  },
  {
    name: 'views-messages-merge-user-after-result',
    bug: 'a user message right after a tool result is joined to it',
    caughtBy: ['der-adjacent-tool-results-stay-apart'],
    patch: { messages: userJoinsResult },
  },
  {
    name: 'views-messages-shadow-seq-interval',
    bug: 'a replace shadows every current node whose seq lies between its endpoints by number',
    caughtBy: ['der-replace-shadows-positions-not-seq-interval'],
    patch: { messages: messagesByOwnFold(seqIntervalShadowed) },
  },
  {
    name: 'views-messages-shadow-sources',
    bug: 'a replace shadows every current node it cites in sourceEventSeqs too',
    caughtBy: ['der-cited-node-outside-the-range-stays'],
    patch: { messages: messagesByOwnFold(citedShadowed) },
  },
  {
    name: 'views-messages-omit-null',
    bug: 'projected messages drop their top-level members that hold null',
    caughtBy: ['der-null-member-kept'],
    patch: { messages: messagesOmitNull },
  },
]
