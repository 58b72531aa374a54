// Valid session logs of any length, batch by batch, shaped like upstream's (sizes follow the rc8
// corpus: rows of about 40 chunks, tool results of about 600 bytes, a 2 kB request header at the start
// and on some turns, a request context per turn): turns with request headers and contexts, user
// messages, steps with streamed chunks (packed into rows on write), assistant messages citing their
// chunks, tool calls and results, and now and then a prune with its tool-result rewrite, a compaction
// bracket with its checkpoint, or a stale bracket closed by an end-seed. A compaction's region is a
// random prefix of the surface, not held to REGION-5 (which binds producers, so the logs load and check
// passes them; audit fails the replaces that split a call from its result). Deterministic for a seed;
// used by the check tests (tests/check) and the benchmarks (scripts/bench-check.ts,
// scripts/bench-audit.ts), which also take the two adversarial logs at the end: replace-heavy, and one
// step of many calls.
import { headerLine } from '../../reference/jsonl.ts'
import { packChunkRuns } from '../../reference/chunk-rows.ts'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }
export type GeneratedEvent = { type: string; seq: number; time: number; data: Json; surfaceOp?: Json; sourceEventSeqs?: number[] }

/** A small deterministic PRNG (LCG). */
export function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

export function storageHeader(id: string): JsonObject {
  return { version: 0, id, createdAt: 1789000000000, cwd: '/workspace/project', delegationDepth: 0 }
}

const WORDS = ['the', 'file', 'list', 'ok', 'run', 'tests', 'ünïcödé', 'pass', 'done', 'read', 'src/index.ts', '✓']

interface Writer {
  next: () => number
  seq: number
  time: number
  turn: number
  batch: GeneratedEvent[]
  /** Seqs of the surface nodes, in order. */
  surface: number[]
  /** The data of each tool/result node still on the surface, by seq. */
  results: Map<number, JsonObject>
}

function words(writer: Writer, count: number): string {
  let text = ''
  for (let index = 0; index < count; index++) text += `${index === 0 ? '' : ' '}${WORDS[Math.floor(writer.next() * WORDS.length)]}`
  return text
}

function emit(writer: Writer, type: string, data: Json, extra: Partial<GeneratedEvent> = {}): number {
  const seq = writer.seq++
  writer.time += 1 + Math.floor(writer.next() * 40)
  writer.batch.push({ type, seq, time: writer.time, data, ...extra })
  if (extra.surfaceOp === 'append') writer.surface.push(seq)
  return seq
}

function replaceNodes(writer: Writer, from: number, to: number, seq: number): number[] {
  const shadowed = writer.surface.splice(from, to - from + 1, seq)
  for (const node of shadowed) writer.results.delete(node)
  return shadowed
}

function requestHeader(writer: Writer, reason: string): void {
  const tools = [{ name: 'bash', description: 'Run a shell command.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }]
  emit(writer, 'request/header', { header: { config: { provider: 'deepseek-official', model: 'deepseek-v4-flash' }, system: words(writer, 250), tools }, reason })
}

function chunks(writer: Writer, step: number, kind: 'text-delta' | 'reasoning-delta', index: number, count: number): number[] {
  const seqs: number[] = []
  for (let k = 0; k < count; k++) {
    seqs.push(emit(writer, 'assistant/chunk', { turn: writer.turn, step, chunk: { type: kind, index, text: `${words(writer, 1)} ` } }))
  }
  return seqs
}

function toolStep(writer: Writer, step: number, callId: string): number[] {
  const seqs = []
  for (let k = 0; k < 3 + Math.floor(writer.next() * 18); k++) {
    seqs.push(emit(writer, 'assistant/chunk', { turn: writer.turn, step, chunk: { type: 'tool-call-delta', index: 2, id: callId, name: 'bash', argumentsDelta: '{"c' } }))
  }
  return seqs
}

function step(writer: Writer, number: number, withTool: boolean, rates: Rates): void {
  const turn = writer.turn
  emit(writer, 'step/start', { turn, step: number })
  if (number === 1) emit(writer, 'request/context', { provider: 'deepseek-official', model: 'deepseek-v4-flash', contextWindow: 1000000 })
  const callIds = withTool ? toolCallIds(writer, `call_${turn}_${number}`, rates) : []
  const cited = [
    ...chunks(writer, number, 'reasoning-delta', 0, 5 + Math.floor(writer.next() * 70)),
    ...chunks(writer, number, 'text-delta', 1, 5 + Math.floor(writer.next() * 70)),
    ...(withTool ? toolStep(writer, number, callIds[0] as string) : []),
  ]
  const content: Json[] = [{ type: 'reasoning', text: words(writer, 8) }, { type: 'text', text: words(writer, 12) }]
  for (const callId of callIds) content.push({ type: 'tool-call', id: callId, name: 'bash', arguments: '{"command":"ls"}' })
  const message = { id: `a-${turn}-${number}`, role: 'assistant', content, source: { kind: 'model', provider: 'deepseek-official', model: 'deepseek-v4-flash' } }
  emit(writer, 'assistant/message', { turn, step: number, message, usage: { inputTokens: 2877, outputTokens: 90 } }, { surfaceOp: 'append', sourceEventSeqs: cited })
  const callSeqs = callIds.map(callId => emit(writer, 'tool/call', { turn, step: number, callId, name: 'bash', arguments: '{"command":"ls"}' }))
  // Parallel calls are answered last first, so that each result meets the others still pending.
  for (let index = callIds.length - 1; index >= 0; index--) {
    const callId = callIds[index] as string
    const block = { type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: words(writer, 60 + Math.floor(writer.next() * 60)) }], isError: false }
    const data: JsonObject = { turn, step: number, message: { id: `r-${turn}-${number}${index === 0 ? '' : `-${index}`}`, role: 'user', content: [block], source: { kind: 'tool', callId } } }
    const seq = emit(writer, 'tool/result', data, { surfaceOp: 'append', sourceEventSeqs: [callSeqs[index] as number] })
    writer.results.set(seq, data)
  }
  emit(writer, 'step/end', { turn, step: number })
}

/** The ids of a tool step's calls: one, or with `rates.parallelCalls` two to four now and then. */
function toolCallIds(writer: Writer, first: string, rates: Rates): string[] {
  const rate = rates.parallelCalls ?? 0
  // No draw without the rate, so that the logs of the other rates stay as they were.
  const more = rate > 0 && writer.next() < rate ? 1 + Math.floor(writer.next() * 3) : 0
  return [first, ...Array.from({ length: more }, (_, index) => `${first}_${index + 1}`)]
}

/** COMP-12 and REWR: a prune of one tool-result node and the rewrite it claims, inside the open turn. */
function prune(writer: Writer): void {
  const [target, data] = [...writer.results.entries()][Math.floor(writer.next() * writer.results.size)] ?? []
  if (target === undefined || data === undefined) return
  emit(writer, 'compaction/prune', { shadowedRange: { start: target, end: target }, shadowedSeqs: [target], shadowedTokenCount: 300 })
  const message = data['message'] as JsonObject
  const block = { ...((message['content'] as JsonObject[])[0] as JsonObject), content: [{ type: 'text', text: '[... output pruned ...]' }] }
  const rewritten: JsonObject = { ...data, message: { ...message, content: [block] } }
  const seq = writer.seq
  const position = writer.surface.indexOf(target)
  emit(writer, 'tool/result', rewritten, { surfaceOp: { op: 'replace', start: target, end: target }, sourceEventSeqs: [target] })
  replaceNodes(writer, position, position, seq)
  writer.results.set(seq, rewritten)
}

/** A manual compaction between turns: start, summary, checkpoint over a prefix of the surface, end. */
function compaction(writer: Writer): void {
  if (writer.surface.length < 4) return
  const compactionId = `compaction-${writer.seq}`
  emit(writer, 'compaction/start', { compactionId, turn: null })
  const last = 1 + Math.floor(writer.next() * (writer.surface.length - 2))
  const shadowedSeqs = writer.surface.slice(0, last + 1)
  const range = { start: shadowedSeqs[0] as number, end: shadowedSeqs[last] as number }
  emit(writer, 'compaction/summary', { compactionId, summary: [{ type: 'text', text: words(writer, 20) }], shadowedRange: range, shadowedSeqs, shadowedTokenCount: 1000 })
  const checkpoint = { id: `checkpoint-${writer.seq}`, role: 'user', content: [{ type: 'text', text: words(writer, 20) }], source: { kind: 'plugin', plugin: 'compact', compactionId } }
  const seq = writer.seq
  emit(writer, 'user/message', checkpoint, { surfaceOp: { op: 'replace', ...range }, sourceEventSeqs: shadowedSeqs })
  replaceNodes(writer, 0, last, seq)
  emit(writer, 'compaction/end', { compactionId, turn: null })
}

/**
 * A manual compaction that never ends, a turn inside it, then an end-seed: the session crashed and
 * resumed, so the bracket is stale and the turn inside it breaks no relation (COMP-8).
 */
function staleBracket(writer: Writer, flush: () => void, rates: Rates): void {
  emit(writer, 'compaction/start', { compactionId: `stale-${writer.seq}`, turn: null })
  flush()
  turn(writer, flush, rates)
  emit(writer, 'session/end-seed', {})
}

function turn(writer: Writer, flush: () => void, rates: Rates): void {
  writer.turn += 1
  emit(writer, 'turn/start', { turn: writer.turn })
  if (writer.turn === 1 || writer.next() < 0.05) requestHeader(writer, writer.turn === 1 ? 'initial' : 'changed')
  emit(writer, 'user/message', { id: `u-${writer.turn}`, role: 'user', content: [{ type: 'text', text: words(writer, 10) }], source: { kind: 'user' } }, { surfaceOp: 'append' })
  if (writer.next() < rates.prune) prune(writer)
  flush()
  const steps = 1 + Math.floor(writer.next() * 3)
  for (let number = 1; number <= steps; number++) {
    step(writer, number, number < steps, rates)
    flush()
  }
  emit(writer, 'turn/end', { turn: writer.turn, reason: { kind: 'completed' } })
  flush()
}

/**
 * How often, per turn, a compaction or a stale bracket comes before it, and a prune follows its user
 * message; and, per tool step, how often the model asks for more than one call (none when absent).
 */
export interface Rates {
  compaction: number
  staleBracket: number
  prune: number
  parallelCalls?: number
}

export const UPSTREAM_RATES: Rates = { compaction: 0.02, staleBracket: 0.01, prune: 0.05 }

/** The batches of a valid log of at least `size` events (a whole number of turns), each batch a list of events. */
export function* generateBatches(size: number, seed: number, rates: Rates = UPSTREAM_RATES): Generator<GeneratedEvent[]> {
  const writer: Writer = { next: random(seed), seq: 0, time: 1789000000000, turn: 0, batch: [], surface: [], results: new Map() }
  const batches: GeneratedEvent[][] = []
  const flush = (): void => {
    if (writer.batch.length > 0) batches.push(writer.batch)
    writer.batch = []
  }
  while (writer.seq < size) {
    if (writer.turn > 0 && writer.next() < rates.compaction) compaction(writer)
    if (writer.turn > 0 && writer.next() < rates.staleBracket) staleBracket(writer, flush, rates)
    else turn(writer, flush, rates)
    flush()
    yield* batches.splice(0)
  }
}

/** The raw artifact's lines (header line first, then the records of each batch, packed), without line feeds. */
export function* artifactLines(id: string, size: number, seed: number, rates: Rates = UPSTREAM_RATES): Generator<string> {
  yield JSON.stringify(headerLine(storageHeader(id)))
  for (const batch of generateBatches(size, seed, rates)) {
    for (const record of packChunkRuns(batch)) yield JSON.stringify(record)
  }
}

/**
 * A tool/result line in the shape written before messages had wrappers, `callId`, `content` and
 * `isError` in its data (LEGACY-11's condition); any other line, or one that does not parse, as it is.
 */
export function unwrappedToolResult(line: string): string {
  if (!line.startsWith('{"type":"tool/result"')) return line
  let record: JsonObject
  try {
    record = JSON.parse(line) as JsonObject
  } catch {
    return line
  }
  const { message, ...rest } = record['data'] as JsonObject
  const block = ((message as JsonObject | undefined)?.['content'] as JsonObject[] | undefined)?.[0]
  if (block === undefined) return line
  return JSON.stringify({ ...record, data: { ...rest, callId: block['toolCallId'], content: block['content'], isError: block['isError'] } })
}

function userMessage(seq: number, surfaceOp: unknown, sources?: number[]): string {
  const data = { id: `m${seq}`, role: 'user', content: [{ type: 'text', text: 'x' }], source: { kind: 'user' } }
  return JSON.stringify({ type: 'user/message', seq, time: 1789000000000 + seq, data, surfaceOp, ...(sources === undefined ? {} : { sourceEventSeqs: sources }) })
}

/**
 * `size` events: size/2 appends build the surface; then size/2 replaces, each of one or two adjacent
 * current nodes at a random position, each citing what it shadows.
 */
export function* replaceHeavyLines(size: number): Generator<string> {
  yield JSON.stringify(headerLine(storageHeader('replace-heavy')))
  const next = random(size)
  const surface: number[] = []
  for (let seq = 0; seq < size / 2; seq++) {
    surface.push(seq)
    yield userMessage(seq, 'append')
  }
  for (let seq = surface.length; seq < size; seq++) {
    const at = Math.floor(next() * (surface.length - 1))
    const span = next() < 0.5 || surface.length < 2 ? 1 : 2
    const shadowed = surface.slice(at, at + span)
    surface.splice(at, span, seq)
    yield userMessage(seq, { op: 'replace', start: shadowed[0], end: shadowed.at(-1) }, shadowed)
  }
}

/**
 * About `size` events in one turn of one step: an assistant message asking for (size - 7) / 2 tool
 * calls, then every call, then every result, so that all the calls are pending at once (PAIR-1): the
 * most a pending set can hold, which a reader that copies it per event pays for quadratically.
 */
export function* manyCallsLines(size: number): Generator<string> {
  const calls = Math.max(1, Math.floor((size - 7) / 2))
  const model = { provider: 'deepseek-official', model: 'deepseek-v4-flash' }
  const callId = (index: number): string => `call_${index}`
  let seq = 0
  const line = (type: string, data: Json, extra: Partial<GeneratedEvent> = {}): string => {
    const at = seq++
    return JSON.stringify({ type, seq: at, time: 1789000000000 + at, data, ...extra })
  }
  yield JSON.stringify(headerLine(storageHeader('many-calls')))
  yield line('turn/start', { turn: 1 })
  yield line('request/header', { header: { config: model, system: 'You are a coding agent.', tools: [{ name: 'bash', description: 'Run a shell command.', parameters: { type: 'object' } }] }, reason: 'initial' })
  yield line('user/message', { id: 'u-1', role: 'user', content: [{ type: 'text', text: 'run them all' }], source: { kind: 'user' } }, { surfaceOp: 'append' })
  yield line('step/start', { turn: 1, step: 1 })
  const blocks: Json[] = Array.from({ length: calls }, (_, index) => ({ type: 'tool-call', id: callId(index), name: 'bash', arguments: '{}' }))
  yield line('assistant/message', { turn: 1, step: 1, message: { id: 'a-1-1', role: 'assistant', content: blocks, source: { kind: 'model', ...model } } }, { surfaceOp: 'append' })
  const firstCall = seq
  for (let index = 0; index < calls; index++) yield line('tool/call', { turn: 1, step: 1, callId: callId(index), name: 'bash', arguments: '{}' })
  for (let index = 0; index < calls; index++) {
    const block = { type: 'tool-result', toolCallId: callId(index), content: [{ type: 'text', text: 'ok' }], isError: false }
    const message = { id: `r-${index}`, role: 'user', content: [block], source: { kind: 'tool', callId: callId(index) } }
    yield line('tool/result', { turn: 1, step: 1, message }, { surfaceOp: 'append', sourceEventSeqs: [firstCall + index] })
  }
  yield line('step/end', { turn: 1, step: 1 })
  yield line('turn/end', { turn: 1, reason: { kind: 'completed' } })
}
