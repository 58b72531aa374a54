// Payload builders for the events the log model writes, in the member order upstream writes them
// (spec chapters 04, 09, 12, 13, 16). Each returns a plain JSON value; the model adds seq and time.
import { chance, pick, type Chooser } from './choices.ts'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

export interface ReplaceOp {
  op: 'replace'
  start: number
  end: number
}

export interface LogEvent {
  type: string
  seq: number
  time: number
  data: Json
  surfaceOp?: 'append' | ReplaceOp
  sourceEventSeqs?: number[]
  ignorable?: true
}

/** An event before the model gives it a seq and time: what a writer's `append` candidate holds. */
export type Draft = Omit<LogEvent, 'seq' | 'time'>

export const SURFACE_TYPES: ReadonlySet<string> = new Set(['user/message', 'assistant/message', 'tool/result'])

export interface StorageHeader {
  version: 0
  id: string
  createdAt: number
  cwd?: string
  parentSession?: string
  seedLength?: number
  origin?: 'subagent'
  delegationDepth: number
  agentPreset?: string
  /** Members chapter 03 does not name, which a reader accepts (META-9) and a fork child does not inherit (FORK-5). */
  title?: string
  theme?: { dark: boolean }
}

/**
 * Texts that exercise escaping (JSON's, and the `<>&` some encoders escape) and multi-byte UTF-8 in
 * storage, beside plain ones, and the code units a string keeps whatever they are (JSON-5): lone
 * surrogates, which UTF-8 cannot encode, control characters, a byte order mark and a noncharacter; and
 * texts that Unicode normalization would change (a decomposed accent, a ligature, the angstrom sign),
 * which a reader keeps as they are.
 */
const TEXTS = [
  'ok', 'Done.', 'List the files.', '', 'ünïcödé ✓', '😀 emoji', 'line\nbreak\t"quoted" \\ back', '\u2028\u2029', '<a href="x">&amp;</a>', 'a'.repeat(300),
  'lone \ud800 high', '\udfff lone low', 'nul \u0000 \u001f \u007f', '\ufeff bom \uffff',
  'cafe\u0301 decomposed', '\ufb01le ligature', '\u212b angstrom sign',
  // An event type as a text: a stored line holding it is no turn/end (JSONL-11 reads the event's type).
  'turn/end',
]

/**
 * Call ids a model may give the calls of one message, distinct strings that a careless implementation
 * confuses: the names an object inherits from its prototype (a pending set kept in a plain object finds
 * them there), and strings equal after Unicode normalization or case folding. Ids are opaque (VOC-9,
 * PAIR-8): every one of them is its own id.
 */
export const LOOKALIKE_CALL_IDS: readonly (readonly string[])[] = [
  ['constructor', '__proto__', 'toString'],
  ['caf\u00e9', 'cafe\u0301', 'CAF\u00c9'],
  ['hasOwnProperty', 'valueOf', 'call_\ufb01'],
]

/**
 * Names a plain object inherits (or, for `__proto__`, that sets its prototype when assigned): the model
 * uses them now and then as message ids (VOC-9: opaque, not unique) and as names of members a reader
 * passes through (DER-3, UNK-4), where they are data like any other name (JSON-11).
 */
export const INHERITED_NAMES: readonly string[] = ['__proto__', 'constructor', 'toString']

export function someText(chooser: Chooser): string {
  return chance(chooser, 30) ? pick(chooser, TEXTS) : `text ${chooser.int(1000)}`
}

export function textBlock(text: string): JsonObject {
  return { type: 'text', text }
}

export function userMessage(id: string, text: string, source: JsonObject = { kind: 'user' }): Draft {
  return { type: 'user/message', data: { id, role: 'user', content: [textBlock(text)], source }, surfaceOp: 'append' }
}

export interface ToolCallBlock {
  id: string
  name: string
  arguments: string
}

export interface AssistantPlan {
  reasoning?: string
  text?: string
  calls: ToolCallBlock[]
}

export function assistantContent(plan: AssistantPlan): JsonObject[] {
  const content: JsonObject[] = []
  if (plan.reasoning !== undefined) content.push({ type: 'reasoning', text: plan.reasoning })
  if (plan.text !== undefined) content.push(textBlock(plan.text))
  for (const call of plan.calls) content.push({ type: 'tool-call', id: call.id, name: call.name, arguments: call.arguments })
  return content
}

export function modelSource(provider: string, model: string): JsonObject {
  return { kind: 'model', provider, model }
}

/** Splits `text` into 1..4 deltas that join back to it (an empty text is one empty delta). */
export function deltas(chooser: Chooser, text: string): string[] {
  const parts: string[] = []
  let rest = text
  while (rest.length > 0 && parts.length < 3) {
    const cut = 1 + chooser.int(rest.length)
    parts.push(rest.slice(0, cut))
    rest = rest.slice(cut)
  }
  if (rest.length > 0 || parts.length === 0) parts.push(rest)
  return parts
}

/** The `chunk` members of one model call's stream (VOC-5), in the order a provider sends them. */
export function streamChunks(chooser: Chooser, plan: AssistantPlan, finish: string): JsonObject[] {
  const chunks: JsonObject[] = []
  if (plan.reasoning !== undefined) for (const text of deltas(chooser, plan.reasoning)) chunks.push({ type: 'reasoning-delta', index: 0, text })
  // Now and then a text delta carries a member ROW-5 does not name, as providers add metadata: it is
  // written verbatim, and splits a run of packed chunks.
  if (plan.text !== undefined) {
    for (const text of deltas(chooser, plan.text)) chunks.push({ type: 'text-delta', index: 1, text, ...(chance(chooser, 4) ? { providerMetadata: { cached: true } } : {}) })
  }
  plan.calls.forEach((call, offset) => {
    const named = chance(chooser, 50)
    deltas(chooser, call.arguments).forEach((argumentsDelta, k) => {
      const chunk: JsonObject = { type: 'tool-call-delta', index: 2 + offset, id: call.id }
      if (named || k === 0) chunk['name'] = call.name
      chunk['argumentsDelta'] = argumentsDelta
      chunks.push(chunk)
    })
  })
  chunks.push({ type: 'usage', usage: { inputTokens: 100 + chooser.int(900), outputTokens: chooser.int(200) } })
  chunks.push({ type: 'finish', reason: { kind: finish } })
  return chunks
}

export function toolResultData(turn: number, step: number, id: string, callId: string, text: string, isError: boolean | undefined): JsonObject {
  const block: JsonObject = { type: 'tool-result', toolCallId: callId, content: [textBlock(text)] }
  if (isError !== undefined) block['isError'] = isError
  return { turn, step, message: { id, role: 'user', content: [block], source: { kind: 'tool', callId } } }
}

export const NOT_STARTED_TEXT = 'The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed.'
export const OUTCOME_UNKNOWN_TEXT = 'The tool call was interrupted after it was recorded, but no result was durably recorded. '
  + 'Its outcome is unknown. Decide whether to retry from the tool semantics: retry only if the operation is '
  + 'read-only or idempotent; if it may have side effects, first verify external state or ask the user. Do not retry blindly.'

/** REPAIR-8: a synthetic result; `callSeq` is the started call's tool/call seq, if any. */
export function syntheticResult(turn: number, step: number, callId: string, seq: number, callSeq: number | undefined): Draft {
  const started = callSeq !== undefined
  const data: JsonObject = {
    turn,
    step,
    message: {
      id: `interrupted-tool-result-${callId}-${seq}`,
      role: 'user',
      source: { kind: 'tool', callId },
      content: [{ type: 'tool-result', toolCallId: callId, isError: true, content: [textBlock(started ? OUTCOME_UNKNOWN_TEXT : NOT_STARTED_TEXT)] }],
    },
    error: started ? { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' } : { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' },
  }
  return { type: 'tool/result', data, surfaceOp: 'append', ...(started ? { sourceEventSeqs: [callSeq] } : {}) }
}

export const TURN_END_REASONS: readonly JsonObject[] = [
  { kind: 'completed' },
  { kind: 'aborted', reason: { kind: 'user' } },
  { kind: 'aborted', reason: { kind: 'hook', reason: 'stop hook' } },
  { kind: 'blocked' },
  { kind: 'error', error: { message: 'provider failed', code: 'PROVIDER_ERROR' } },
  { kind: 'max-tokens' },
]

/** Log-only events of upstream plugins (VOC-15) and an ignorable foreign one (UNK-4). */
export function pluginEvent(chooser: Chooser, seq: number): Draft {
  switch (chooser.int(5)) {
    case 0:
      return { type: 'session/title', data: { title: 'A session', messageSeqs: [], source: { kind: 'fallback' } } }
    case 1:
      return { type: 'plan/mode', data: { active: chance(chooser, 50) } }
    case 2:
      return { type: 'permission/preset', data: { preset: 'default' } }
    case 3:
      return { type: 'feedback/record', data: { text: someText(chooser) } }
    default:
      // A computed key defines a member named `__proto__` instead of setting the prototype.
      return { type: 'acme/telemetry', data: { note: `sample ${seq}`, ...(chance(chooser, 30) ? { [pick(chooser, INHERITED_NAMES)]: { sample: seq } } : {}) }, ignorable: true }
  }
}

/** A request header snapshot (HDR-1); every optional member is either meaningful or omitted. */
export interface HeaderChoice {
  model: string
  system: string | undefined
  tools: number
  /** A config member beyond the ones HDR-5 names, named as an object's inherited member (HDR-3 keeps it). */
  inheritedConfigMember: string | undefined
}

const MODELS = ['deepseek-v4-flash', 'deepseek-v4-pro']
export const PROVIDER = 'deepseek'

export function chooseHeader(chooser: Chooser): HeaderChoice {
  return {
    model: pick(chooser, MODELS),
    system: chance(chooser, 70) ? 'You are a coding agent.' : undefined,
    tools: chooser.int(3),
    inheritedConfigMember: chance(chooser, 10) ? pick(chooser, INHERITED_NAMES) : undefined,
  }
}

/** A third tool's parameters, named as an object's inherited members (computed keys define them as data). */
const INHERITED_PARAMETERS: JsonObject = Object.fromEntries(INHERITED_NAMES.map(name => [name, { type: 'string' }]))

/** The canonical epoch header (HDR-3) of a choice; the model writes it exactly so. */
export function epochHeader(choice: HeaderChoice): JsonObject {
  const config: JsonObject = { provider: PROVIDER, model: choice.model }
  // A computed key defines a member named `__proto__` instead of setting the prototype.
  const header: JsonObject = { config: choice.inheritedConfigMember === undefined ? config : { ...config, [choice.inheritedConfigMember]: { note: 'kept' } } }
  if (choice.system !== undefined) header['system'] = choice.system
  if (choice.tools > 0) {
    header['tools'] = Array.from({ length: choice.tools }, (_, index) => ({
      name: `tool${index}`,
      description: `Tool number ${index}.`,
      parameters: { type: 'object', properties: index === 2 ? structuredClone(INHERITED_PARAMETERS) : {} },
    }))
  }
  return header
}

/** The request context of a header choice: its model's, with the choice's inherited-named member too (HDR-8 keeps it). */
export function contextFor(choice: HeaderChoice): JsonObject {
  const { model, inheritedConfigMember } = choice
  const context: JsonObject = model === 'deepseek-v4-pro' ? { provider: PROVIDER, model } : { provider: PROVIDER, model, contextWindow: 1_000_000 }
  // A computed key defines a member named `__proto__` instead of setting the prototype.
  return inheritedConfigMember === undefined ? context : { ...context, [inheritedConfigMember]: 'kept' }
}
