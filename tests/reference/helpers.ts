// Small event builders for the reference unit tests: seq is the position, time is 1000 + seq.
import type { SessionEvent } from '../../reference/envelope.ts'

type Extra = Record<string, unknown>

export function event(type: string, seq: number, data: unknown, extra: Extra = {}): SessionEvent {
  return { type, seq, time: 1000 + seq, data, ...extra }
}

export function user(seq: number, extra: Extra = {}, source: Extra = { kind: 'user' }): SessionEvent {
  const data = { id: `u${seq}`, role: 'user', content: [{ type: 'text', text: `text ${seq}` }], source }
  return event('user/message', seq, data, { surfaceOp: 'append', ...extra })
}

export function replace(start: number, end: number, sources: number[]): Extra {
  return { surfaceOp: { op: 'replace', start, end }, sourceEventSeqs: sources }
}

export function assistant(seq: number, turn: number, step: number, calls: string[] = [], extra: Extra = {}): SessionEvent {
  const content = calls.map(id => ({ type: 'tool-call', id, name: 'tool', arguments: '{}' }))
  const message = { id: `a${seq}`, role: 'assistant', content, source: { kind: 'model', provider: 'p', model: 'm' } }
  return event('assistant/message', seq, { turn, step, message }, { surfaceOp: 'append', ...extra })
}

export function call(seq: number, turn: number, step: number, callId: string): SessionEvent {
  return event('tool/call', seq, { turn, step, callId, name: 'tool', arguments: '{}' })
}

export function result(seq: number, turn: number, step: number, callId: string, extra: Extra = {}, dataExtra: Extra = {}): SessionEvent {
  const block = { type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: 'ok' }] }
  const message = { id: `r${seq}`, role: 'user', content: [block], source: { kind: 'tool', callId } }
  return event('tool/result', seq, { turn, step, message, ...dataExtra }, { surfaceOp: 'append', ...extra })
}

export const turnStart = (seq: number, turn: number): SessionEvent => event('turn/start', seq, { turn })
export const turnEnd = (seq: number, turn: number): SessionEvent => event('turn/end', seq, { turn, reason: { kind: 'completed' } })
export const stepStart = (seq: number, turn: number, step: number): SessionEvent => event('step/start', seq, { turn, step })
export const stepEnd = (seq: number, turn: number, step: number): SessionEvent => event('step/end', seq, { turn, step })
export const todo = (seq: number): SessionEvent => event('todo/write', seq, { todos: [] })
export const endSeed = (seq: number): SessionEvent => event('session/end-seed', seq, {})

/** An array of the longest length an array can have, holding `elements` alone: every other index a hole. */
export function longestSparse(elements: Record<number, unknown>): unknown[] {
  const array: unknown[] = []
  array.length = 2 ** 32 - 1
  return Object.assign(array, elements)
}
