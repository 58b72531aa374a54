// Row 4, request rebuild: the request before every model call can be rebuilt from the log. A model call
// is each attempt a step streamed (a failed one, or the one its assistant message answers), or an
// assistant message with no stream before it. For each, the header in force (HDR-4) must exist, agree
// with the context in force and with the message's own source, and, after a resumption, be a fresh
// snapshot (HDR-6). The messages of that request are the surface just before the call (DER-1). A header
// without a provider or a model breaks the durable shape (HDR-2), so load rejects the log, and that
// rejection is this row's evidence.
import { canonicalHeader } from '../../reference/request-header.ts'
import { isRecord, type JsonRecord } from '../../reference/lossless-json.ts'
import { isSurfaceEligibleType } from '../../reference/vocabulary.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import type { AuditEvidence, AuditRejection, AuditRow } from '../../generated/types/index.ts'
import { dataOf, isReplace, messageOfEvent, recordAt, stringAt, type LoadedLog } from './log.ts'
import { plural } from '../wording.ts'
import { capped, evidence, rejectionRow, row, violationsOfRow } from './verdicts.ts'

const CALLS_LISTED = 12

interface InForce {
  header: JsonRecord | undefined
  headerSeq: number | undefined
  context: JsonRecord | undefined
  surfaceNodes: number
  /**
   * The latest session/end-seed, while no request/header and no model call has followed it: the
   * first call of the resumed lifecycle is the one HDR-6 wants a fresh snapshot before.
   */
  unsnapshottedResumption: number | undefined
}

/**
 * One model call and the state it was built from: its assistant message, or for a call that left none
 * (it failed, or the log holds its stream only) the first chunk of its stream.
 */
interface ModelCall {
  event: SessionEvent
  state: InForce
  /** How the evidence names the call. */
  name: string
}

/**
 * The step a message or chunk belongs to (TURN-1 gives chunks a turn and a step). In a log that keeps
 * the relations (TURN-8) a message and its chunks name the same step; in one that does not, which Raw-fact
 * integrity fails, a call may be counted twice or hidden.
 */
function stepKey(event: SessionEvent): string {
  const data = dataOf(event)
  return JSON.stringify([data['turn'], data['step']])
}

/** What a chunk says of the attempt it streams: that it finished, and whether with an error (VOC-5). */
function finishOf(chunk: SessionEvent): 'ok' | 'error' | undefined {
  const content = recordAt(dataOf(chunk), 'chunk')
  if (content?.['type'] !== 'finish') return undefined
  return stringAt(recordAt(content, 'reason'), 'kind') === 'error' ? 'error' : 'ok'
}

/** The events that end a step's failed attempt before its retry, when no finish chunk did (chapter 06). */
const RETRY_TYPES: ReadonlySet<string> = new Set(['llm/retry', 'llm/retry-started'])

/**
 * The model calls of a log, each with the state it was built from. Every attempt is a call (DER-10
 * counts a usage chunk per attempt): a step's chunks stream one attempt until its finish chunk or an
 * `llm/retry`, and the next chunk of the step starts another. A message answers its step's latest
 * attempt unless that one failed (an error finish, or a retry after it), its request built from the
 * state at that attempt's first chunk; a message with no such attempt is a call of its own (a retry
 * that streamed no chunk, PROV-9, or a log that keeps no chunks).
 */
function foldCalls(loaded: LoadedLog): ModelCall[] {
  const shadowedBy = new Map(loaded.surface.replacements.map(replacement => [replacement.seq, replacement.shadowedSeqs.length]))
  const streaming = new Set<string>()
  const answerable = new Map<string, ModelCall>()
  let state: InForce = { header: undefined, headerSeq: undefined, context: undefined, surfaceNodes: 0, unsnapshottedResumption: undefined }
  const calls: ModelCall[] = []
  const startCall = (event: SessionEvent, name: string): ModelCall => {
    const call = { event, state, name }
    calls.push(call)
    state = { ...state, unsnapshottedResumption: undefined }
    return call
  }
  for (const event of loaded.events) {
    if (event.type === 'assistant/chunk') {
      const step = stepKey(event)
      if (!streaming.has(step)) {
        streaming.add(step)
        answerable.set(step, startCall(event, `the model call streamed from seq ${event.seq} (no assistant message)`))
      }
      const finish = finishOf(event)
      if (finish !== undefined) streaming.delete(step)
      if (finish === 'error') answerable.delete(step)
    } else if (RETRY_TYPES.has(event.type)) {
      const step = stepKey(event)
      streaming.delete(step)
      answerable.delete(step)
    } else if (event.type === 'assistant/message') {
      const step = stepKey(event)
      const answered = answerable.get(step)
      streaming.delete(step)
      answerable.delete(step)
      if (answered === undefined) startCall(event, `assistant message seq ${event.seq}`)
      else Object.assign(answered, { event, name: `assistant message seq ${event.seq}` })
    }
    if (event.type === 'request/header') {
      state = { ...state, header: canonicalHeader(recordAt(dataOf(event), 'header') ?? {}), headerSeq: event.seq, unsnapshottedResumption: undefined }
    } else if (event.type === 'request/context') state = { ...state, context: isRecord(event.data) ? event.data : {} }
    else if (event.type === 'session/end-seed') state = { ...state, unsnapshottedResumption: event.seq }
    else if (isSurfaceEligibleType(event.type)) state = { ...state, surfaceNodes: state.surfaceNodes + 1 - (isReplace(event) ? shadowedBy.get(event.seq) ?? 0 : 0) }
  }
  return calls
}

function route(record: JsonRecord | undefined): string {
  return `${stringAt(record, 'provider') ?? '?'}/${stringAt(record, 'model') ?? '?'}`
}

function callEvidence(call: ModelCall): AuditEvidence[] {
  const { event, state, name } = call
  const seq = event.seq
  if (state.header === undefined) {
    return [evidence('fail', `${name} has no request header in force before it: its request cannot be rebuilt`, { seq, requirements: ['HDR-4'] })]
  }
  const config = recordAt(state.header, 'config')
  const items: AuditEvidence[] = []
  if (state.context !== undefined && route(state.context) !== route(config)) {
    items.push(evidence('fail', `at ${name} the request context routes to ${route(state.context)}, but the header names ${route(config)}: the configuration drifted`, { seq, requirements: ['HDR-7', 'HDR-8'] }))
  }
  const source = recordAt(messageOfEvent(event) ?? {}, 'source')
  if (stringAt(source, 'kind') === 'model' && route(source) !== route(config)) {
    items.push(evidence('fail', `assistant message seq ${seq} was written by ${route(source)}, but the header in force names ${route(config)}: the configuration drifted`, { seq, requirements: ['HDR-4'] }))
  }
  if (state.unsnapshottedResumption !== undefined) {
    items.push(evidence('warn', `${name} is the first model call after the resumption at seq ${state.unsnapshottedResumption}, with no fresh request/header snapshot since`, { seq, requirements: ['HDR-6'] }))
  }
  return items
}

function describeCall(call: ModelCall): string {
  const header = call.state.header as JsonRecord
  const system = typeof header['system'] === 'string' ? `a system prompt of ${header['system'].length} characters` : 'no system prompt'
  const tools = Array.isArray(header['tools']) ? plural(header['tools'].length, 'tool schema') : 'no tool schemas'
  const context = call.state.context === undefined ? '' : `, context window ${String(call.state.context['contextWindow'] ?? 'not given')}`
  return `${call.name}: header seq ${call.state.headerSeq} (${route(recordAt(header, 'config'))}, ${system}, ${tools}${context}) and ${plural(call.state.surfaceNodes, 'surface node')} as messages`
}

function requestRelationEvidence(loaded: LoadedLog): AuditEvidence[] {
  // HDR-9 beside the broken rule: a request header outside any turn is in force for no call.
  return capped(violationsOfRow(loaded, 'request-rebuild')
    .map(({ code, seq, type, requirements }) => evidence('fail', `${type} at seq ${seq} lies outside any turn (${code})`, { seq, requirements: [...requirements, 'HDR-9'] })))
}

/** Whether load rejected the log for a request header's durable shape (HDR-2), a rule of this row. */
export function isRequestRejection(rejection: AuditRejection): boolean {
  return rejection.operation === 'load' && rejection.code === 'REQUEST_HEADER_INVALID'
}

/** The row of a log that load rejected for a request header's shape: that rejection is its evidence. */
export function requestRejectedRow(rejection: AuditRejection): AuditRow {
  return rejectionRow('request-rebuild', rejection, 'A request header lacks what a request is rebuilt from, so the log does not load.', ['HDR-2'])
}

export function requestRebuildRow(loaded: LoadedLog): AuditRow {
  const calls = foldCalls(loaded)
  if (calls.length === 0) {
    return row('request-rebuild', [evidence('info', 'no assistant message and no stream chunk: the log records no model call whose request would need rebuilding')], () => 'No model call to rebuild.')
  }
  const faults = calls.flatMap(callEvidence)
  const rebuilt = calls.filter(call => call.state.header !== undefined)
  const items: AuditEvidence[] = rebuilt.slice(0, CALLS_LISTED).map(call => evidence('pass', describeCall(call), { seq: call.event.seq, requirements: ['HDR-4', 'DER-1'] }))
  if (rebuilt.length > CALLS_LISTED) items.push(evidence('info', `${plural(rebuilt.length - CALLS_LISTED, 'more model call')} with a header in force`))
  const withoutSystem = rebuilt.filter(call => typeof call.state.header?.['system'] !== 'string')
  if (withoutSystem.length > 0) {
    items.push(evidence('warn', `${plural(withoutSystem.length, 'model call')} had no system prompt in force (first: seq ${withoutSystem[0]?.event.seq}): none was sent, or none was recorded`, { requirements: ['HDR-3'] }))
  }
  const callFailed = faults.some(item => item.mark === 'fail')
  // One item per fault may be hundreds of thousands: a spread into one call would overflow the stack.
  return row('request-rebuild', [...items, ...faults, ...requestRelationEvidence(loaded)], verdict => {
    if (verdict === 'pass') return `${calls.length === 1 ? 'The one model call' : `Each of the ${plural(calls.length, 'model call')}`} has a request header in force, with the provider, model, system prompt and tools it names.`
    if (verdict === 'warn') return 'Every request can be rebuilt, but look at the warnings (resumption snapshot or missing system prompt).'
    if (!callFailed) return 'Every model call has a request header in force, but a request record lies outside any turn (HDR-9).'
    return 'At least one model call cannot be explained by the request state in the log.'
  })
}
