// Mutation operators that a writer's `append` must reject (PROC-3, VOC-8, spec chapters 05-07, 09,
// 16, 18): the log is the valid prefix before event i, and the candidate is event i with one fault.
import { cloneEvents } from './log-edit.ts'
import { SURFACE_TYPES, type JsonObject, type LogEvent } from './events.ts'
import { pick, type Chooser } from './choices.ts'
import {
  candidateOf, defineMutation, indexesWhere, INVALID_ORDINALS, NUMBERED_TYPES, reasonWithExtraMember, replaceOf, shadowedAt, type Edit, type LogInput,
  type Mutation,
} from './mutation-kit.ts'

type Targets = (event: LogEvent, index: number, log: LogInput) => boolean

/** An append operator: `change` breaks the candidate made from event `index`. */
function appendMutation(name: string, code: string, rule: string, targets: Targets, change: (candidate: JsonObject, log: LogInput, index: number, chooser: Chooser) => void): Mutation {
  return defineMutation({
    name, code, rule, operation: 'append',
    targets: log => indexesWhere(log.events, (event, index) => targets(event, index, log)),
    edit(log, index, chooser): Edit {
      const candidate = candidateOf(log.events[index]!)
      change(candidate, log, index, chooser)
      return { events: cloneEvents(log.events.slice(0, index)), candidate, seq: index }
    },
  })
}

const any: Targets = () => true
const isSurface: Targets = event => SURFACE_TYPES.has(event.type)
const isLogOnly: Targets = event => !SURFACE_TYPES.has(event.type)
const isReplace: Targets = event => replaceOf(event) !== undefined

export const appendUnknownKey = appendMutation('append-unknown-key', 'ENV_UNKNOWN_KEY', 'ENV-2', any, (candidate, _log, index, chooser) => {
  const key = ['seq', 'time', 'ignorable'][chooser.int(3)]!
  candidate[key] = key === 'ignorable' ? true : index
})

export const appendLegacyType = appendMutation('append-legacy-type', 'LEGACY_EVENT_TYPE', 'LEGACY-3', isLogOnly, (candidate, _log, _index, chooser) => {
  candidate['type'] = ['mode/set', 'request/header-delta', 'steering/message'][chooser.int(3)]!
})

export const appendSecondResultBlock = appendMutation(
  'append-second-result-block', 'MESSAGE_CONTENT_INVALID', 'VOC-12', event => event.type === 'tool/result',
  candidate => {
    const message = (candidate['data'] as JsonObject)['message'] as JsonObject
    ;(message['content'] as JsonObject[]).push({ type: 'text', text: 'a second element' })
  },
)

/** An empty model or reasoningEffort, or adapterDefaults whose first flag is good and whose second is no flag (HDR-2). */
export const appendRequestHeaderInvalid = appendMutation(
  'append-request-header-invalid', 'REQUEST_HEADER_INVALID', 'HDR-2', event => event.type === 'request/header',
  (candidate, _log, _index, chooser) => {
    const header = (candidate['data'] as JsonObject)['header'] as JsonObject
    const config = header['config'] as JsonObject
    const change = chooser.int(3)
    if (change === 0) config['model'] = ''
    else if (change === 1) config['reasoningEffort'] = ''
    else {
      config['maxTokens'] ??= 8192
      header['adapterDefaults'] = { maxTokens: true, temperature: true }
    }
  },
)

export const appendTurnEndMalformed = appendMutation('append-turn-end-malformed', 'TURN_END_MALFORMED', 'TURN-2', event => event.type === 'turn/end', (candidate, _log, _index, chooser) => {
  ;(candidate['data'] as JsonObject)['reason'] = reasonWithExtraMember(chooser)
})

/** A turn or step that is no safe integer >= 1, 2^53 among them (TURN-1). */
export const appendPayloadInvalid = appendMutation('append-payload-invalid', 'PAYLOAD_INVALID', 'TURN-1', event => NUMBERED_TYPES.has(event.type), (candidate, _log, _index, chooser) => {
  const member = candidate['type'] === 'turn/start' || chooser.int(2) === 0 ? 'turn' : 'step'
  ;(candidate['data'] as JsonObject)[member] = pick(chooser, INVALID_ORDINALS)
})

export const appendSurfaceOpMissing = appendMutation('append-surface-op-missing', 'SURFACE_OP_MISSING', 'SURF-1', isSurface, candidate => {
  delete candidate['surfaceOp']
})

export const appendUnciteShadowed = appendMutation('append-uncite-shadowed', 'PROVENANCE_INCOMPLETE', 'PROV-7', isReplace, (candidate, log, index, chooser) => {
  const shadowed = shadowedAt(log.events, index)
  const dropped = shadowed[chooser.int(shadowed.length)]!
  const left = (candidate['sourceEventSeqs'] as number[]).filter(seq => seq !== dropped)
  if (left.length > 0) candidate['sourceEventSeqs'] = left
  else delete candidate['sourceEventSeqs']
})

export const appendReplaceReversed = appendMutation(
  'append-replace-reversed', 'SURFACE_REPLACE_REVERSED', 'SURF-5', event => replaceOf(event) !== undefined && replaceOf(event)!.start !== replaceOf(event)!.end,
  candidate => {
    const op = candidate['surfaceOp'] as JsonObject
    candidate['surfaceOp'] = { op: 'replace', start: op['end']!, end: op['start']! }
  },
)

/** Whether a value is an object or an array with no members: what a comparison over Object.keys cannot tell apart. */
const isEmptyContainer = (value: unknown): boolean => typeof value === 'object' && value !== null && Object.keys(value).length === 0

/**
 * A tool-result rewrite whose `meta` turns from an empty object into an empty array or back (REWR-3:
 * values of different kinds differ, JSON-14), where the result it rewrites holds such a meta.
 */
export const appendRewriteChangesKind = appendMutation(
  'append-rewrite-changes-kind', 'REWRITE_DATA_CHANGED', 'REWR-3',
  event => event.type === 'tool/result' && replaceOf(event) !== undefined && isEmptyContainer((event.data as JsonObject)['meta']),
  candidate => {
    const data = candidate['data'] as JsonObject
    data['meta'] = Array.isArray(data['meta']) ? {} : []
  },
)

export const APPEND_MUTATIONS: readonly Mutation[] = [
  appendUnknownKey, appendLegacyType, appendSecondResultBlock, appendRequestHeaderInvalid, appendTurnEndMalformed,
  appendSurfaceOpMissing, appendUnciteShadowed, appendReplaceReversed, appendPayloadInvalid, appendRewriteChangesKind,
]
