// Expands the compact log notation of vectors (vectors/README.md, "Builder notation") into events.
// The expansion depends on nothing but the item and its position, so every consumer gets the same
// events; the JSON bundle carries the expanded form for consumers that do not want to implement this.
import { errorMessage } from './wording.ts'

export type PlainObject = Record<string, unknown>

export interface BuildError {
  index: number
  message: string
}

const SURFACE_TYPES = new Set(['user/message', 'assistant/message', 'tool/result'])
/** The modifiers every built head takes: they set the envelope or patch the data. */
const ENVELOPE_MODIFIERS = ['replace', 'sources', 'surfaceOp', 'ignorable', 'seq', 'time', 'patch']
/** The modifiers a head reads beyond the envelope ones. */
const OWN_MODIFIERS: Record<string, string[]> = {
  user: ['id'], checkpoint: ['id', 'text'], assistant: ['id', 'text', 'calls'], chunk: ['text'],
  result: ['id', 'text', 'isError', 'error'], 'compaction/summary': ['tokens'], 'compaction/end': ['error'], 'compaction/prune': ['tokens'],
}
const MODIFIERS = new Set([...ENVELOPE_MODIFIERS, ...Object.values(OWN_MODIFIERS).flat()])
export const BASE_TIME = 1_000

type HeadBuilder = (argument: unknown, item: PlainObject, seq: number) => { type: string; data: unknown }

const PROVIDER = 'provider-a'
const MODEL = 'model-a'

/** A head's list argument of `min` to `max` values; a single value counts as a list of one. */
function list(argument: unknown, head: string, min: number, max = min): unknown[] {
  const values = Array.isArray(argument) ? argument : [argument]
  const count = max === Infinity ? `at least ${min}` : min === max ? `${min}` : `${min} to ${max}`
  if (values.length < min || values.length > max) throw new Error(`${head} takes ${count} value(s), got ${JSON.stringify(argument)}`)
  return values
}

function textBlock(text: unknown): PlainObject {
  return { type: 'text', text }
}

function turnEndReason(kind: unknown, cause: unknown): PlainObject {
  if (kind === 'aborted') return { kind, reason: { kind: cause ?? 'user' } }
  if (kind === 'error') return { kind, error: { message: 'provider failed', code: cause ?? 'PROVIDER_ERROR' } }
  return { kind }
}

function assistantContent(item: PlainObject): PlainObject[] {
  const content: PlainObject[] = []
  if (item['text'] !== undefined) content.push(textBlock(item['text']))
  const calls = Array.isArray(item['calls']) ? item['calls'] : []
  for (const id of calls) content.push({ type: 'tool-call', id, name: 'tool', arguments: '{}' })
  return content
}

function toolResultData(argument: unknown, item: PlainObject, seq: number): PlainObject {
  const [turn, step, callId] = list(argument, 'result', 3)
  const block: PlainObject = { type: 'tool-result', toolCallId: callId, content: [textBlock(item['text'] ?? 'ok')] }
  if (item['isError'] !== undefined) block['isError'] = item['isError']
  const data: PlainObject = {
    turn,
    step,
    message: { id: item['id'] ?? `r${seq}`, role: 'user', content: [block], source: { kind: 'tool', callId } },
  }
  if (item['error'] !== undefined) data['error'] = { name: 'ToolError', code: item['error'] }
  return data
}

function summaryData(argument: unknown, item: PlainObject): PlainObject {
  const [compactionId, seqs] = list(argument, 'compaction/summary', 2)
  if (!Array.isArray(seqs) || seqs.length === 0) throw new Error(`compaction/summary needs a list of at least one seq as its second value, got ${JSON.stringify(seqs)}`)
  return {
    compactionId,
    summary: [textBlock('summary of earlier work')],
    shadowedRange: { start: seqs[0], end: seqs[seqs.length - 1] },
    shadowedSeqs: seqs,
    shadowedTokenCount: item['tokens'] ?? 1000,
    provider: PROVIDER,
    model: MODEL,
  }
}

const HEADS: Record<string, HeadBuilder> = {
  'turn/start': (argument) => ({ type: 'turn/start', data: { turn: argument } }),
  'turn/end': (argument) => {
    const [turn, kind, cause] = list(argument, 'turn/end', 2, 3)
    return { type: 'turn/end', data: { turn, reason: turnEndReason(kind, cause) } }
  },
  'step/start': (argument) => {
    const [turn, step] = list(argument, 'step/start', 2)
    return { type: 'step/start', data: { turn, step } }
  },
  'step/end': (argument) => {
    const [turn, step] = list(argument, 'step/end', 2)
    return { type: 'step/end', data: { turn, step } }
  },
  user: (argument, item, seq) => ({
    type: 'user/message',
    data: { id: item['id'] ?? `u${seq}`, role: 'user', content: [textBlock(argument)], source: { kind: 'user' } },
  }),
  checkpoint: (argument, item, seq) => ({
    type: 'user/message',
    data: {
      id: item['id'] ?? `c${seq}`,
      role: 'user',
      content: [textBlock(item['text'] ?? 'summary of earlier work')],
      source: { kind: 'plugin', plugin: 'compact', compactionId: argument },
    },
  }),
  assistant: (argument, item, seq) => {
    const [turn, step] = list(argument, 'assistant', 2)
    const message = { id: item['id'] ?? `a${seq}`, role: 'assistant', content: assistantContent(item), source: { kind: 'model', provider: PROVIDER, model: MODEL } }
    return { type: 'assistant/message', data: { turn, step, message } }
  },
  chunk: (argument, item) => {
    const [turn, step] = list(argument, 'chunk', 2)
    return { type: 'assistant/chunk', data: { turn, step, chunk: { type: 'text-delta', index: 0, text: item['text'] ?? 'x' } } }
  },
  call: (argument) => {
    const [turn, step, callId] = list(argument, 'call', 3)
    return { type: 'tool/call', data: { turn, step, callId, name: 'tool', arguments: '{}' } }
  },
  result: (argument, item, seq) => ({ type: 'tool/result', data: toolResultData(argument, item, seq) }),
  'compaction/start': (argument) => {
    const [compactionId, turn] = list(argument, 'compaction/start', 2)
    return { type: 'compaction/start', data: { compactionId, turn } }
  },
  'compaction/summary': (argument, item) => ({ type: 'compaction/summary', data: summaryData(argument, item) }),
  'compaction/end': (argument, item) => {
    const [compactionId, turn] = list(argument, 'compaction/end', 2)
    const data: PlainObject = { compactionId, turn }
    if (item['error'] !== undefined) data['error'] = item['error']
    return { type: 'compaction/end', data }
  },
  'compaction/prune': (argument, item) => {
    const seqs = list(argument, 'compaction/prune', 1, Infinity)
    return {
      type: 'compaction/prune',
      data: { shadowedRange: { start: seqs[0], end: seqs[seqs.length - 1] }, shadowedSeqs: seqs, shadowedTokenCount: item['tokens'] ?? 1000 },
    }
  },
  header: (argument) => {
    const extra = isPlainObject(argument) ? argument : {}
    const { reason, ...header } = extra
    return {
      type: 'request/header',
      data: { header: { config: { provider: PROVIDER, model: MODEL }, ...header }, reason: reason ?? 'initial' },
    }
  },
  context: (argument) => ({ type: 'request/context', data: isPlainObject(argument) ? argument : { provider: PROVIDER, model: MODEL } }),
  todo: (argument) => ({ type: 'todo/write', data: { todos: Array.isArray(argument) ? argument : [] } }),
  'end-seed': () => ({ type: 'session/end-seed', data: {} }),
}

/**
 * The modifiers each head takes: a raw `event` only the envelope defaults `seq` and `time`, a `record`
 * none. A modifier its head does not read is a mistake of the vector, so the builder refuses it.
 */
export const HEAD_MODIFIERS: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(Object.keys(HEADS).map((head) => [head, [...ENVELOPE_MODIFIERS, ...(OWN_MODIFIERS[head] ?? [])]])),
  event: ['seq', 'time'],
  record: [],
}

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Deep-merges `patch` into `base`: objects merge member by member, anything else replaces. */
export function mergePatch(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return structuredClone(patch)
  const merged: PlainObject = { ...base }
  for (const [key, value] of Object.entries(patch)) {
    // Read as an own member and defined, not assigned: a member named __proto__ is data (JSON-11).
    const member = mergePatch(Object.hasOwn(base, key) ? base[key] : undefined, value)
    Object.defineProperty(merged, key, { value: member, enumerable: true, writable: true, configurable: true })
  }
  return merged
}

function headOf(item: PlainObject): string {
  const heads = Object.keys(item).filter((key) => !MODIFIERS.has(key))
  const unknown = heads.filter((key) => !Object.hasOwn(HEAD_MODIFIERS, key))
  if (unknown.length > 0) throw new Error(`unknown builder head ${unknown.map((key) => `"${key}"`).join(', ')}`)
  if (heads.length !== 1) throw new Error(`expected exactly one head key, found ${JSON.stringify(heads)}`)
  const head = heads[0]!
  const taken = HEAD_MODIFIERS[head]!
  const foreign = Object.keys(item).filter((key) => key !== head && !taken.includes(key))
  if (foreign.length > 0) {
    throw new Error(`${head} takes no modifier ${foreign.map((key) => `"${key}"`).join(', ')} (it takes ${taken.length === 0 ? 'none' : taken.join(', ')})`)
  }
  return head
}

function applyEnvelopeModifiers(event: PlainObject, item: PlainObject): PlainObject {
  if (item['replace'] !== undefined) {
    const [start, end] = list(item['replace'], 'replace', 2)
    event['surfaceOp'] = { op: 'replace', start, end }
  }
  if (item['surfaceOp'] !== undefined) event['surfaceOp'] = item['surfaceOp']
  if (item['sources'] !== undefined) event['sourceEventSeqs'] = item['sources']
  if (item['ignorable'] !== undefined) event['ignorable'] = item['ignorable']
  if (item['patch'] !== undefined) event['data'] = mergePatch(event['data'], item['patch'])
  return event
}

/**
 * Expands one item at position `index`. The `event` head is a raw event whose missing `seq` and `time`
 * are filled in; the `record` head is taken verbatim, whatever it is (even not an object).
 */
export function buildEvent(item: unknown, index: number): unknown {
  if (!isPlainObject(item)) throw new Error(`a log item must be a mapping, got ${JSON.stringify(item)}`)
  const head = headOf(item)
  if (head === 'record') return structuredClone(item['record'])
  const seq = item['seq'] ?? index
  const time = item['time'] ?? BASE_TIME + index
  if (head === 'event') {
    if (!isPlainObject(item['event'])) throw new Error('event needs a mapping')
    return { seq, time, ...structuredClone(item['event']) }
  }
  const { type, data } = HEADS[head]!(item[head], item, index)
  const event: PlainObject = { type, seq, time, data }
  if (SURFACE_TYPES.has(type)) event['surfaceOp'] = 'append'
  return applyEnvelopeModifiers(event, item)
}

/** Expands a whole log; a malformed item is reported with its index instead of throwing. */
export function buildLog(items: readonly unknown[]): { events: unknown[] } | { error: BuildError } {
  const events: unknown[] = []
  for (const [index, item] of items.entries()) {
    try {
      events.push(buildEvent(item, index))
    } catch (error) {
      return { error: { index, message: errorMessage(error) } }
    }
  }
  return { events }
}
