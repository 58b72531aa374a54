// The append probe, one plan in four of those over a valid log in current shapes whose candidate is one
// of the log's own events, with that candidate (or its time) edited where a writer's check is looser or
// stricter than the spec's: a time of 0 (PROC-4: the clock's value as given); a model source without
// its provider or with an empty model (VOC-11); a tool-result block whose content is a string, or
// without its toolCallId (VOC-12, VOC-13); a tool/call whose callId is "" (TURN-1); a step of `true` or
// 2^53 on a step-scoped log-only event (TURN-1); a turn/end whose turn is `true`, whose reason kind is
// "" (accepted), 5 or null, or whose interrupted reason has a member more (TURN-2); a request header
// whose adapterDefaults is null, flags maxTokens over a config whose maxTokens is 0 (accepted) or with
// 1 (HDR-2), or whose system is a number (accepted: HDR-2 checks no system); a turn/start whose trigger
// is null (LEGACY-5); a request/context whose data says `reason: "fallback"` (accepted: LEGACY-2 names
// request/header alone); a user message with empty content (accepted: VOC-12 asks an array); a
// tool-result message whose role is "tool" (VOC-10); or a session/end-seed with `surfaceOp: "append"`
// (SURF-1: a log-only type). The edit is drawn among them all and the time of 0, and then the event
// among those of the log it applies to, so that an edit of a rare type (a tool/call, a request header)
// is drawn as often as any wherever the log holds one; the time of 0 takes the event the probe would
// append. Drawn from a seed of the run's plan, as the headerEquals pairs are (header-pairs.ts), so the
// fuzzer's other draws stay as they were and a shrunk log draws alike.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser } from '../generators/index.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const CANDIDATE_EDIT_SALT = 0x43414e44

type EventRecord = Record<string, unknown>

/** A candidate, the time input it is appended at, and the index of the log event it was made of. */
export interface EditedAppend {
  index: number
  candidate: EventRecord
  time: number
}

/**
 * An edit of a candidate of some type: the candidate changed, or undefined when it has no such part.
 * `variant`, drawn, picks among the edit's forms (taken modulo their number).
 */
type CandidateEdit = (candidate: EventRecord, variant: number) => EventRecord | undefined

const STEP_SCOPED_LOG_ONLY = new Set(['step/start', 'step/end', 'tool/call', 'assistant/chunk'])

const dataOf = (candidate: EventRecord): EventRecord => (isRecord(candidate['data']) ? candidate['data'] : {})
const withData = (candidate: EventRecord, data: EventRecord): EventRecord => ({ ...candidate, data })

/** The candidate's message with `change` made to a copy of it; undefined without a message. */
function withMessage(candidate: EventRecord, change: (message: EventRecord) => EventRecord | undefined): EventRecord | undefined {
  const message = dataOf(candidate)['message']
  const changed = isRecord(message) ? change(message) : undefined
  return changed === undefined ? undefined : withData(candidate, { ...dataOf(candidate), message: changed })
}

/** A model source without its provider, or with an empty model. */
const modelRouteLoosened: CandidateEdit = (candidate, variant) => (candidate['type'] !== 'assistant/message' ? undefined : withMessage(candidate, message => {
  const source = message['source']
  if (!isRecord(source) || source['kind'] !== 'model') return undefined
  const { provider: _provider, ...withoutProvider } = source
  return { ...message, source: variant % 2 === 0 ? withoutProvider : { ...source, model: '' } }
}))

/** A tool-result block whose content is a string, or without its toolCallId. */
const resultBlockLoosened: CandidateEdit = (candidate, variant) => (candidate['type'] !== 'tool/result' ? undefined : withMessage(candidate, message => {
  const content = message['content']
  if (!Array.isArray(content) || !isRecord(content[0])) return undefined
  const { toolCallId: _id, ...withoutId } = content[0]
  const block = variant % 2 === 0 ? { ...content[0], content: 'ok' } : withoutId
  return { ...message, content: [block, ...content.slice(1)] }
}))

/** A tool/call whose callId is the empty string. */
const callIdEmptied: CandidateEdit = candidate => (candidate['type'] === 'tool/call' ? withData(candidate, { ...dataOf(candidate), callId: '' }) : undefined)

/** A step-scoped log-only event whose step is `true` or 2^53. */
const stepOutOfRange: CandidateEdit = (candidate, variant) =>
  (STEP_SCOPED_LOG_ONLY.has(candidate['type'] as string) ? withData(candidate, { ...dataOf(candidate), step: variant % 2 === 0 ? true : 2 ** 53 }) : undefined)

/**
 * A turn/end whose turn is `true`, whose reason kind is "", whose interrupted reason has a member more,
 * or whose kind is no string (5 or null, drawn as often).
 */
const turnEndEdged: CandidateEdit = (candidate, variant) => {
  if (candidate['type'] !== 'turn/end') return undefined
  const data = dataOf(candidate)
  const reasons: readonly EventRecord[] = [{ kind: '' }, { kind: 'interrupted', note: 'stopped by the user' }, { kind: variant % 8 < 4 ? 5 : null }]
  const edit = variant % 4
  return withData(candidate, edit === 0 ? { ...data, turn: true } : { ...data, reason: reasons[edit - 1] })
}

/**
 * A request header whose adapterDefaults is null, flags maxTokens over a config whose maxTokens is 0,
 * flags it with 1 instead of true, or whose system is a number.
 */
const headerEdged: CandidateEdit = (candidate, variant) => {
  const header = dataOf(candidate)['header']
  if (candidate['type'] !== 'request/header' || !isRecord(header) || !isRecord(header['config'])) return undefined
  const config = header['config']
  const edits: readonly EventRecord[] = [
    { ...header, adapterDefaults: null },
    { ...header, config: { ...config, maxTokens: 0 }, adapterDefaults: { maxTokens: true } },
    { ...header, config: { ...config, maxTokens: 100 }, adapterDefaults: { maxTokens: 1 } },
    { ...header, system: 7 },
  ]
  return withData(candidate, { ...dataOf(candidate), header: edits[variant % edits.length] })
}

/** A user message whose content is empty, a tool-result message whose role is "tool", or a session/end-seed asking to join the surface. */
const shapeEdged: CandidateEdit = candidate => {
  if (candidate['type'] === 'user/message' && isRecord(candidate['data'])) return withData(candidate, { ...dataOf(candidate), content: [] })
  if (candidate['type'] === 'tool/result') return withMessage(candidate, message => ({ ...message, role: 'tool' }))
  return candidate['type'] === 'session/end-seed' ? { ...candidate, surfaceOp: 'append' } : undefined
}

/** A turn/start whose trigger is null. */
const triggerNull: CandidateEdit = candidate => (candidate['type'] === 'turn/start' ? withData(candidate, { ...dataOf(candidate), trigger: null }) : undefined)

/** A request/context whose data says `reason: "fallback"`. */
const contextFallback: CandidateEdit = candidate =>
  (candidate['type'] === 'request/context' && isRecord(candidate['data']) ? withData(candidate, { ...dataOf(candidate), reason: 'fallback' }) : undefined)

const EDITS: readonly CandidateEdit[] = [
  modelRouteLoosened, resultBlockLoosened, callIdEmptied, stepOutOfRange, turnEndEdged, headerEdged, triggerNull, contextFallback, shapeEdged,
]

/** An event's members a candidate carries: all but seq, time and ignorable. */
function candidateOf(event: EventRecord): EventRecord {
  const { seq: _seq, time: _time, ignorable: _ignorable, ...candidate } = event
  return candidate
}

/**
 * One of the log's events, edited as drawn, to append onto the events before it (at `index`): the edit
 * is drawn among them all and the time 0 (drawn as often as each), then one of the events it applies to;
 * the time 0 (or an edit that applies to no event) takes the plan's event, at `planIndex`. Undefined when
 * the draw keeps the probe. The draws come before any look at the log.
 */
export function withCandidateEdit(events: readonly unknown[], planIndex: number, planSeed: number): EditedAppend | undefined {
  const chooser = saltedChooser(planSeed, CANDIDATE_EDIT_SALT)
  if (chooser.int(4) !== 0) return undefined
  const [pick, variant, at] = [chooser.int(EDITS.length + 1), chooser.int(1 << 30), chooser.int(1 << 30)]
  const edit = EDITS[pick]
  const targets = edit === undefined ? [] : events.flatMap((event, index) => {
    const edited = isRecord(event) ? edit(candidateOf(event), variant) : undefined
    return edited === undefined ? [] : [{ index, candidate: edited, time: (event as EventRecord)['time'] as number }]
  })
  if (targets.length > 0) return targets[at % targets.length]
  const planEvent = events[planIndex]
  return isRecord(planEvent) ? { index: planIndex, candidate: candidateOf(planEvent), time: 0 } : undefined
}
