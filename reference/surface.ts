/**
 * Chapter 05: surface operations. The surface is the ordered list of seqs the model sees; an
 * `append` pushes the event's seq, a `replace` swaps the positional range start..end for the event.
 *
 * Cost. The surface is a doubly linked list of its current nodes, held in a map by seq: membership is
 * one lookup, and a shadowed node leaves the map, so the state holds the surface and nothing more,
 * however long the log. Order keys strictly increase along the list: an appended node takes the next
 * counter value, and a replacing node takes the key of the `start` node it replaces. That node's left
 * neighbour has a smaller key and its right neighbour (after `end`) a larger one, so the order holds
 * forever without relabelling, and "start sits after end" is one comparison of keys. A valid replace
 * then walks from start to end, which visits exactly the shadowed nodes; each node is shadowed at most
 * once, so a whole fold costs O(events + shadowed nodes + cited sources).
 */
import { fault, type Fault } from './result.ts'
import { hasOwn, isNonNegativeSafeInteger, isRecord } from './lossless-json.ts'
import { isSurfaceEligibleType } from './vocabulary.ts'
import { provenanceFault } from './provenance.ts'
import { rewriteFault } from './tool-result-rewrites.ts'
import type { SessionEvent } from './envelope.ts'
import type { ReplaceSurfaceOp, SurfaceOp } from '../generated/types/index.ts'


export interface Replacement {
  seq: number
  start: number
  end: number
  shadowedSeqs: number[]
}

/** The value of the `surface` operation. */
export interface SurfaceValue {
  nodes: number[]
  replacements: Replacement[]
  generation: number
}

/** No node: the end of the list. */
const NONE = -1

/** A current node: its neighbours' seqs (NONE at the ends) and its order key. */
interface SurfaceNode {
  prev: number
  next: number
  order: number
}

export interface SurfaceState {
  head: number
  tail: number
  /** The current nodes by seq. */
  nodes: Map<number, SurfaceNode>
  nextOrder: number
  generation: number
  replacements: Replacement[]
}

/** The event at a seq: one a replace shadows (REWR-6), or one a surface node stands for (REGION-1). */
export type EventAt = (seq: number) => SessionEvent | undefined

/** A checked transition that has not touched the state yet (so a rejection changes nothing). */
export type SurfacePlan =
  | { kind: 'none' }
  | { kind: 'append'; seq: number }
  | { kind: 'replace'; seq: number; start: number; end: number; shadowedSeqs: number[] }

export type Planned = { ok: true; plan: SurfacePlan } | { ok: false; fault: Fault }

export function emptySurface(): SurfaceState {
  return { head: NONE, tail: NONE, nodes: new Map(), nextOrder: 0, generation: 0, replacements: [] }
}

/** A node the caller knows to be current. */
function nodeAt(state: SurfaceState, seq: number): SurfaceNode {
  return state.nodes.get(seq) as SurfaceNode
}

const REPLACE_MEMBERS = ['op', 'start', 'end']

/**
 * SURF-2 grammar for a surfaceOp other than "append": why it is no exact replace object, or undefined
 * when it is one. Every reason it returns is for people; which one is returned never changes the verdict.
 */
function replaceOpProblem(op: unknown): string | undefined {
  if (!isRecord(op)) return 'it is neither "append" nor a replace object'
  const extra = Object.keys(op).find(key => !REPLACE_MEMBERS.includes(key))
  if (extra !== undefined) return `a replace object has no member ${JSON.stringify(extra)}`
  if (!hasOwn(op, 'op') || op['op'] !== 'replace') return 'its op is missing or not "replace"'
  const endpoint = ['start', 'end'].find(member => !hasOwn(op, member) || !isNonNegativeSafeInteger(op[member]))
  if (endpoint !== undefined) return `its ${endpoint} is missing or not a non-negative safe integer`
  return undefined
}

/** SURF-1 eligibility and SURF-2 grammar: the event's surface op, undefined for a log-only event. */
export function surfaceOpOf(event: SessionEvent): { ok: true; op: SurfaceOp | undefined } | { ok: false; fault: Fault } {
  if (!isSurfaceEligibleType(event.type)) {
    if (hasOwn(event, 'surfaceOp')) return { ok: false, fault: fault('SURFACE_OP_NOT_ALLOWED', `${event.type} is log-only and cannot carry surfaceOp`) }
    if (hasOwn(event, 'sourceEventSeqs')) return { ok: false, fault: fault('SURFACE_OP_NOT_ALLOWED', `${event.type} is log-only and cannot carry sourceEventSeqs`) }
    return { ok: true, op: undefined }
  }
  if (!hasOwn(event, 'surfaceOp')) return { ok: false, fault: fault('SURFACE_OP_MISSING', `${event.type} needs a surfaceOp`) }
  const op = event.surfaceOp
  if (op === 'append') return { ok: true, op }
  const problem = replaceOpProblem(op)
  if (problem !== undefined) return { ok: false, fault: fault('SURFACE_OP_INVALID', `${event.type} carries an invalid surfaceOp: ${problem}`) }
  const { start, end } = op as ReplaceSurfaceOp
  // Stryker disable next-line StringLiteral: only start and end of a parsed replace are read afterwards
  return { ok: true, op: { op: 'replace', start, end } }
}

/** The seqs from `start` to `end` along the list. The caller has checked start is not after end. */
function spanSeqs(state: SurfaceState, start: number, end: number): number[] {
  const seqs = [start]
  for (let seq = start; seq !== end;) {
    seq = nodeAt(state, seq).next
    seqs.push(seq)
  }
  return seqs
}

function planReplace(state: SurfaceState, event: SessionEvent, op: ReplaceSurfaceOp, eventAt: EventAt): Planned {
  const { start, end } = op
  const first = state.nodes.get(start)
  if (first === undefined) return { ok: false, fault: fault('SURFACE_REPLACE_START_NOT_FOUND', `replace start ${start} is not on the surface`) }
  const last = state.nodes.get(end)
  if (last === undefined) return { ok: false, fault: fault('SURFACE_REPLACE_END_NOT_FOUND', `replace end ${end} is not on the surface`) }
  if (first.order > last.order) {
    return { ok: false, fault: fault('SURFACE_REPLACE_REVERSED', `replace start ${start} sits after end ${end} on the surface`) }
  }
  const shadowedSeqs = spanSeqs(state, start, end)
  const found = provenanceFault(event, shadowedSeqs) ?? rewriteFault(event, shadowedSeqs, eventAt)
  if (found !== undefined) return { ok: false, fault: found }
  // Stryker disable next-line StringLiteral: applySurfacePlan treats every kind other than none and append as a replace
  return { ok: true, plan: { kind: 'replace', seq: event.seq, start, end, shadowedSeqs } }
}

/**
 * SURF-9 order for one event whose envelope and seq are already checked: eligibility and grammar,
 * then (append) provenance, or (replace) start, end, order, provenance with coverage, rewrite rule.
 * `eventAt` finds at least every current node's event.
 */
export function planSurfaceEvent(state: SurfaceState, event: SessionEvent, eventAt: EventAt): Planned {
  const opResult = surfaceOpOf(event)
  if (!opResult.ok) return opResult
  const op = opResult.op
  if (op === undefined) return { ok: true, plan: { kind: 'none' } }
  if (op === 'append') {
    const found = provenanceFault(event, [])
    return found === undefined ? { ok: true, plan: { kind: 'append', seq: event.seq } } : { ok: false, fault: found }
  }
  return planReplace(state, event, op, eventAt)
}

/** Link node `seq` between `before` and `after` (either may be NONE). */
function link(state: SurfaceState, seq: number, order: number, before: number, after: number): void {
  state.nodes.set(seq, { prev: before, next: after, order })
  if (before === NONE) state.head = seq
  else nodeAt(state, before).next = seq
  if (after === NONE) state.tail = seq
  else nodeAt(state, after).prev = seq
}

export function applySurfacePlan(state: SurfaceState, plan: SurfacePlan): void {
  if (plan.kind === 'none') return
  if (plan.kind === 'append') {
    link(state, plan.seq, state.nextOrder++, state.tail, NONE)
    return
  }
  const { order, prev: before } = nodeAt(state, plan.start)
  const after = nodeAt(state, plan.end).next
  for (const seq of plan.shadowedSeqs) state.nodes.delete(seq)
  link(state, plan.seq, order, before, after)
  state.generation += 1
  state.replacements.push({ seq: plan.seq, start: plan.start, end: plan.end, shadowedSeqs: plan.shadowedSeqs })
}

export function surfaceNodes(state: SurfaceState): number[] {
  const nodes: number[] = []
  for (let seq = state.head; seq !== NONE; seq = nodeAt(state, seq).next) nodes.push(seq)
  return nodes
}

/**
 * Fold a loaded log or a window of one whose first seq is `base` (the `surface` operation, SURF-3).
 * Events `load` accepted never fail to plan.
 */
export function foldSurfaceState(events: readonly SessionEvent[], base = 0): SurfaceState {
  const state = emptySurface()
  const eventAt: EventAt = seq => events[seq - base]
  for (const event of events) {
    const planned = planSurfaceEvent(state, event, eventAt)
    // Stryker disable next-line ConditionalExpression: the folds run only over logs that load accepted, whose every event plans
    if (planned.ok) applySurfacePlan(state, planned.plan)
  }
  return state
}

export function foldSurface(events: readonly SessionEvent[], base = 0): SurfaceValue {
  const state = foldSurfaceState(events, base)
  return { nodes: surfaceNodes(state), replacements: state.replacements, generation: state.generation }
}
