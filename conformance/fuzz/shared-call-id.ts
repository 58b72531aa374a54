// The append probe, one plan in four, over a valid log in current shapes with a tool-result rewrite to
// append: one the log holds, appended onto the events before it, or, where the probe would otherwise
// append one of the log's events unedited, one made of a result the log appended that is still a node,
// a rewrite of it that keeps its data, appended onto the whole log. In those events the call of a
// result of an earlier step now has the id of the rewritten result's call (a later step may use an id
// again, PAIR-4). REWR-3 compares a rewrite with the node it shadows, which it
// equals, so the append is accepted; a writer that looks the original up by call id finds the earlier
// result, whose turn, step and message differ, and rejects it. Generated logs rarely hold a rewrite
// whose call id an earlier result shares, and the append probe rarely takes a rewrite, so before, no
// probe could tell. Drawn from a seed of the run's plan, as the headerEquals pairs are
// (header-pairs.ts), so the fuzzer's other draws stay as they were.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser } from '../generators/index.ts'
import { reference } from '../../reference/index.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const SHARED_CALL_ID_SALT = 0x53484944

type Record_ = Record<string, unknown>

const member = (value: unknown, name: string): unknown => (isRecord(value) ? value[name] : undefined)
const isAppendedResult = (event: unknown): boolean => member(event, 'type') === 'tool/result' && member(event, 'surfaceOp') === 'append'
const replaceStart = (event: unknown): unknown => member(member(event, 'surfaceOp'), 'start')

/** The call id a tool/result answers, or another event's call id where it names one. */
function callIdOf(event: unknown): unknown {
  if (member(event, 'type') === 'tool/result') return member(member(member(member(event, 'data'), 'message'), 'source'), 'callId')
  return member(event, 'type') === 'tool/call' ? member(member(event, 'data'), 'callId') : undefined
}

/** The event with every mention of call id `from` (call, result, tool-call block, chunk) made `to`. */
function renamed(event: unknown, from: string, to: string): unknown {
  if (!JSON.stringify(event).includes(JSON.stringify(from))) return event
  const copy = structuredClone(event) as Record_
  const swap = (holder: unknown, name: string): void => {
    if (isRecord(holder) && holder[name] === from) holder[name] = to
  }
  const data = copy['data']
  const message = member(data, 'message')
  if (copy['type'] === 'tool/call') swap(data, 'callId')
  const content = member(message, 'content')
  const blocks = Array.isArray(content) ? content : []
  if (copy['type'] === 'tool/result') {
    swap(member(message, 'source'), 'callId')
    swap(blocks[0], 'toolCallId')
  }
  if (copy['type'] === 'assistant/message') for (const block of blocks) swap(block, 'id')
  if (copy['type'] === 'assistant/chunk') swap(member(data, 'chunk'), 'id')
  return copy
}

/** The index of the step/start of the step the event at `index` sits in, or -1. */
function stepStartOf(events: readonly unknown[], index: number): number {
  for (let at = index; at >= 0; at--) {
    const type = member(events[at], 'type')
    if (type === 'step/start') return at
    if (type === 'step/end' || type === 'turn/start' || type === 'turn/end') return -1
  }
  return -1
}

/** The events of the step that starts at `start`, up to its step/end. */
function stepEvents(events: readonly unknown[], start: number): unknown[] {
  const end = events.findIndex((event, at) => at > start && member(event, 'type') === 'step/end')
  return events.slice(start, end < 0 ? events.length : end + 1)
}

/**
 * The index of a result of an earlier step than the original of the rewrite at `rewrite`, whose call id
 * no other step mentions, in a step that does not mention the rewrite's call id: renamed to that id, it
 * answers its own call, and the id is logged again in the later step before its result (PAIR-4). -1 when
 * the log holds none.
 */
function earlierResultToShare(events: readonly unknown[], rewrite: number): number {
  // Back along the rewrites to the original; a shrunk log may hold a start that is no earlier event.
  let original = rewrite
  for (let start = replaceStart(events[original]); typeof start === 'number' && start < original; start = replaceStart(events[original])) original = start
  const shared = callIdOf(events[rewrite])
  const originalStep = stepStartOf(events, original)
  if (typeof shared !== 'string' || originalStep < 0) return -1
  const mentions = (slice: readonly unknown[], id: string): boolean => JSON.stringify(slice).includes(JSON.stringify(id))
  return events.slice(0, originalStep).findIndex((event, index) => {
    const id = callIdOf(event)
    const step = stepStartOf(events, index)
    if (!isAppendedResult(event) || typeof id !== 'string' || id === shared || step < 0) return false
    const inStep = stepEvents(events, step)
    const outside = [...events.slice(0, step), ...events.slice(step + inStep.length, rewrite + 1)]
    return !mentions(outside, id) && !mentions(inStep, shared)
  })
}

/** A rewrite of the appended result `event` that keeps its data: its node replaced by itself, cited. */
function selfRewrite(event: Record_): Record_ {
  const { seq, time: _time, ignorable: _ignorable, sourceEventSeqs: _sources, ...rest } = event
  return { ...rest, surfaceOp: { op: 'replace', start: seq, end: seq }, sourceEventSeqs: [seq] }
}

/** A rewrite to append (as the events before it ask) and the earlier result that is to share its call id. */
interface SharingPair {
  before: readonly unknown[]
  candidate: Record_
  time: unknown
  earlier: number
}

/** The log's own rewrites, each onto the events before it. */
function loggedRewrites(events: readonly unknown[]): SharingPair[] {
  return events.flatMap((event, rewrite) => {
    if (member(event, 'type') !== 'tool/result' || typeof replaceStart(event) !== 'number') return []
    const earlier = earlierResultToShare(events, rewrite)
    const { seq: _seq, time, ignorable: _ignorable, ...candidate } = event as Record_
    return earlier < 0 ? [] : [{ before: events.slice(0, rewrite), candidate, time, earlier }]
  })
}

/** Rewrites that keep the data of a result the log appended and still holds as a node, each onto the whole log. */
function rewritesOfNodes(events: readonly unknown[]): SharingPair[] {
  const surface = reference.surface({ events })
  if (!surface.ok) return []
  const time = member(events.at(-1), 'time')
  return surface.value.nodes.flatMap(seq => {
    const event = events[seq]
    if (!isAppendedResult(event)) return []
    const candidate = selfRewrite(event as Record_)
    const earlier = earlierResultToShare([...events, candidate], events.length)
    return earlier < 0 ? [] : [{ before: events, candidate, time, earlier }]
  })
}

/** Where the rewrite comes from: one the log holds, or one made of a node (drawn only where no other edit is). */
export type RewriteSource = 'logged' | 'node'

/**
 * The append of a rewrite whose call id the plan gave an earlier step's result too, or undefined when
 * the draw keeps the probe or the log holds no such pair. The draws come before any look at the log.
 */
export function appendSharingCallId(events: readonly unknown[], planSeed: number, source: RewriteSource): { events: unknown[]; candidate: Record_; time: unknown } | undefined {
  const chooser = saltedChooser(planSeed, SHARED_CALL_ID_SALT)
  if (chooser.int(4) !== 0) return undefined
  const pick = chooser.int(1 << 30)
  const pairs = source === 'logged' ? loggedRewrites(events) : rewritesOfNodes(events)
  if (pairs.length === 0) return undefined
  const { before, candidate, time, earlier } = pairs[pick % pairs.length]!
  const renaming = (event: unknown): unknown => renamed(event, callIdOf(events[earlier]) as string, callIdOf(candidate) as string)
  return { events: before.map(renaming), candidate, time }
}
