// The shape of a mutation operator and the log analysis the operators share. An operator turns a
// valid log into a near-valid one that breaks exactly one rule; it is tagged with the error code the
// rule gives, the operation that must report it, and it says which seq the report must carry.
import type { Chooser } from './choices.ts'
import type { Json, JsonObject, LogEvent, ReplaceOp } from './events.ts'
import { isRecord, surfaceTimeline, applySurfaceEvent, type SurfaceNode } from './surface-model.ts'

export type MutationOperation = 'load' | 'append' | 'relations'

/** A valid log: what `generateLog` returns, or any log that loads and keeps the relations. */
export interface LogInput {
  header?: unknown
  events: readonly LogEvent[]
}

/**
 * One mutated input and the verdict it must get:
 * - `load`: `load({header, events})` rejects with `code` at `seq`;
 * - `append`: `append({header, events, candidate})` rejects with `code` at `seq` (the log's length);
 * - `relations`: `load` accepts, and the first violation `relations` lists is `{code, seq}`.
 */
export interface MutationCase {
  mutation: string
  operation: MutationOperation
  header?: unknown
  events: unknown[]
  candidate?: unknown
  code: string
  /** The seq the rejection carries; absent for a fault of the session header, which carries none (PROC-1). */
  seq?: number
}

export interface Mutation {
  name: string
  code: string
  operation: MutationOperation
  /** The rule it breaks, for reports. */
  rule: string
  applicable(log: LogInput): boolean
  apply(log: LogInput, chooser: Chooser): MutationCase
}

export interface Edit {
  events: unknown[]
  seq: number
  candidate?: unknown
}

interface Spec {
  name: string
  code: string
  operation: MutationOperation
  rule: string
  /** The indexes of the events the operator can work on. */
  targets(log: LogInput): number[]
  edit(log: LogInput, index: number, chooser: Chooser): Edit
}

/** Builds an operator from the events it can target and the edit it makes to one of them. */
export function defineMutation(spec: Spec): Mutation {
  return {
    name: spec.name,
    code: spec.code,
    operation: spec.operation,
    rule: spec.rule,
    applicable: log => spec.targets(log).length > 0,
    apply(log, chooser) {
      const targets = spec.targets(log)
      if (targets.length === 0) throw new Error(`${spec.name} does not apply to this log`)
      const edit = spec.edit(log, targets[chooser.int(targets.length)]!, chooser)
      const mutated: MutationCase = { mutation: spec.name, operation: spec.operation, events: edit.events, code: spec.code, seq: edit.seq }
      if (log.header !== undefined) mutated.header = structuredClone(log.header)
      if (edit.candidate !== undefined) mutated.candidate = edit.candidate
      return mutated
    },
  }
}

export function indexesWhere(events: readonly LogEvent[], keep: (event: LogEvent, index: number) => boolean): number[] {
  return events.flatMap((event, index) => (keep(event, index) ? [index] : []))
}

export function replaceOf(event: LogEvent): ReplaceOp | undefined {
  return typeof event.surfaceOp === 'object' ? event.surfaceOp : undefined
}

export function dataOf(event: LogEvent): JsonObject {
  return isRecord(event.data) ? event.data : {}
}

/** The message a surface event carries (chapter 04): `data` for a user message, else `data.message`. */
export function messageOf(event: LogEvent): JsonObject {
  const data = dataOf(event)
  const message = event.type === 'user/message' ? data : data['message']
  return isRecord(message) ? message : {}
}

export function isExemptResult(event: LogEvent): boolean {
  const block = (messageOf(event)['content'] as JsonObject[] | undefined)?.[0]
  const error = dataOf(event)['error']
  return isRecord(block) && block['isError'] === true && isRecord(error) && error['code'] === 'TOOL_NOT_STARTED'
}

export function isCheckpoint(event: LogEvent): boolean {
  const source = dataOf(event)['source']
  return event.type === 'user/message' && replaceOf(event) !== undefined && isRecord(source) && source['plugin'] === 'compact' && source['kind'] === 'plugin'
}

const timelines = new WeakMap<readonly LogEvent[], SurfaceNode[][]>()

/** The surface nodes just before each event (memoized per log). */
export function nodesBefore(events: readonly LogEvent[], index: number): SurfaceNode[] {
  let timeline = timelines.get(events)
  if (timeline === undefined) {
    timeline = surfaceTimeline(events)
    timelines.set(events, timeline)
  }
  return timeline[index]!
}

/** The seqs the replace at `index` shadows. */
export function shadowedAt(events: readonly LogEvent[], index: number): number[] {
  return applySurfaceEvent(nodesBefore(events, index), events[index]!).shadowed
}

/** Seqs of tool results that a later tool-result rewrite compares with (REWR-3). */
export function rewrittenSeqs(events: readonly LogEvent[]): Set<number> {
  const seqs = new Set<number>()
  for (const [index, event] of events.entries()) {
    if (event.type === 'tool/result' && replaceOf(event) !== undefined) for (const seq of shadowedAt(events, index)) seqs.add(seq)
  }
  return seqs
}

/** A writer's candidate for an event: its members but seq, time and ignorable. */
export function candidateOf(event: LogEvent): JsonObject {
  const candidate: JsonObject = { type: event.type, data: structuredClone(event.data) }
  if (event.surfaceOp !== undefined) candidate['surfaceOp'] = structuredClone(event.surfaceOp) as JsonObject | string
  if (event.sourceEventSeqs !== undefined) candidate['sourceEventSeqs'] = [...event.sourceEventSeqs]
  return candidate
}

/**
 * The compaction starts a later end-seed makes stale (the Terms of chapter 13), whatever passes. The
 * reference computes the same (staleStartSeqs); the generators keep their own, as surface-model.ts says.
 */
export function staleStarts(events: readonly LogEvent[]): Set<number> {
  const stale = new Set<number>()
  let open: number | undefined
  for (const event of events) {
    if (event.type === 'compaction/start') open = event.seq
    else if (event.type === 'compaction/end') open = undefined
    else if (event.type === 'session/end-seed') {
      if (open !== undefined) stale.add(open)
      open = undefined
    }
  }
  return stale
}

/** The types whose payload numbers a turn and a step (TURN-1), turn/start its turn alone. */
export const NUMBERED_TYPES: ReadonlySet<string> = new Set(['turn/start', 'step/start', 'step/end', 'assistant/chunk', 'tool/call'])

/** Values TURN-1 refuses for a turn or a step: none is a safe integer >= 1 (2^53 is an integer, not a safe one). */
export const INVALID_ORDINALS: readonly Json[] = [0, -1, 1.5, '1', null, 2 ** 53]

/** A turn/end reason of a kind that takes no other member (TURN-2, items 4 to 6), with one more. */
export function reasonWithExtraMember(chooser: Chooser): JsonObject {
  const kinds = ['completed', 'blocked', 'max-tokens', 'interrupted', 'aborted', 'disposed']
  return { kind: kinds[chooser.int(kinds.length)]!, detail: 'extra' }
}
