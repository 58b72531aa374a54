/**
 * Chapter 05: surface operations. The surface is the ordered list of seqs the model sees; an
 * `append` pushes the event's seq, a `replace` swaps the positional range start..end for the event.
 *
 * Cost. The surface is a doubly linked list of nodes plus a Map seq -> node (membership in O(1)).
 * Every node carries an order key, strictly increasing along the list: an appended node takes the
 * next counter value, and a replacing node takes the key of the `start` node it replaces. That
 * node's left neighbour has a smaller key and its right neighbour (after `end`) a larger one, so the
 * order holds forever without relabelling, and "start sits after end" is one comparison of keys.
 * A valid replace then walks from start to end, which visits exactly the shadowed nodes; each node is
 * shadowed at most once, so a whole fold costs O(events + shadowed nodes + cited sources).
 */
import { fault, type Fault } from './result.ts'
import { hasOwn, isNonNegativeSafeInteger, isRecord } from './lossless-json.ts'
import { isSurfaceEligibleType } from './vocabulary.ts'
import { provenanceFault } from './provenance.ts'
import { rewriteFault } from './tool-result-rewrites.ts'
import type { SessionEvent } from './envelope.ts'

export type SurfaceOp = 'append' | { op: 'replace'; start: number; end: number }

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

interface SurfaceNode {
  seq: number
  order: number
  prev: SurfaceNode | undefined
  next: SurfaceNode | undefined
}

export interface SurfaceState {
  head: SurfaceNode | undefined
  tail: SurfaceNode | undefined
  bySeq: Map<number, SurfaceNode>
  nextOrder: number
  generation: number
  replacements: Replacement[]
}

/** A checked transition that has not touched the state yet (so a rejection changes nothing). */
export type SurfacePlan =
  | { kind: 'none' }
  | { kind: 'append'; seq: number }
  | { kind: 'replace'; seq: number; start: SurfaceNode; end: SurfaceNode; shadowedSeqs: number[] }

export type Planned = { ok: true; plan: SurfacePlan } | { ok: false; fault: Fault }

export function emptySurface(): SurfaceState {
  return { head: undefined, tail: undefined, bySeq: new Map(), nextOrder: 0, generation: 0, replacements: [] }
}

function isReplaceOp(value: object): value is { op: 'replace'; start: number; end: number } {
  const op = value as Record<string, unknown>
  return Object.keys(op).length === 3 && hasOwn(op, 'op') && hasOwn(op, 'start') && hasOwn(op, 'end')
    && op['op'] === 'replace' && isNonNegativeSafeInteger(op['start']) && isNonNegativeSafeInteger(op['end'])
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
  if (!isRecord(op) || !isReplaceOp(op)) return { ok: false, fault: fault('SURFACE_OP_INVALID', `${event.type} carries an invalid surfaceOp`) }
  return { ok: true, op: { op: 'replace', start: op.start, end: op.end } }
}

/** The seqs from `start` to `end` along the list. The caller has checked start is not after end. */
function spanSeqs(start: SurfaceNode, end: SurfaceNode): number[] {
  const seqs: number[] = []
  for (let node: SurfaceNode | undefined = start; node !== undefined; node = node.next) {
    seqs.push(node.seq)
    if (node === end) break
  }
  return seqs
}

function planReplace(
  state: SurfaceState,
  event: SessionEvent,
  op: { start: number; end: number },
  events: readonly SessionEvent[],
): Planned {
  const start = state.bySeq.get(op.start)
  if (start === undefined) return { ok: false, fault: fault('SURFACE_REPLACE_START_NOT_FOUND', `replace start ${op.start} is not on the surface`) }
  const end = state.bySeq.get(op.end)
  if (end === undefined) return { ok: false, fault: fault('SURFACE_REPLACE_END_NOT_FOUND', `replace end ${op.end} is not on the surface`) }
  if (start.order > end.order) {
    return { ok: false, fault: fault('SURFACE_REPLACE_REVERSED', `replace start ${op.start} sits after end ${op.end} on the surface`) }
  }
  const shadowedSeqs = spanSeqs(start, end)
  const found = provenanceFault(event, shadowedSeqs) ?? rewriteFault(event, shadowedSeqs, events)
  if (found !== undefined) return { ok: false, fault: found }
  return { ok: true, plan: { kind: 'replace', seq: event.seq, start, end, shadowedSeqs } }
}

/**
 * SURF-9 order for one event whose envelope and seq are already checked: eligibility and grammar,
 * then (append) provenance, or (replace) start, end, order, provenance with coverage, rewrite rule.
 * `events` holds at least every event before this one, indexed by seq.
 */
export function planSurfaceEvent(state: SurfaceState, event: SessionEvent, events: readonly SessionEvent[]): Planned {
  const opResult = surfaceOpOf(event)
  if (!opResult.ok) return opResult
  const op = opResult.op
  if (op === undefined) return { ok: true, plan: { kind: 'none' } }
  if (op === 'append') {
    const found = provenanceFault(event, [])
    return found === undefined ? { ok: true, plan: { kind: 'append', seq: event.seq } } : { ok: false, fault: found }
  }
  return planReplace(state, event, op, events)
}

function linkAfter(state: SurfaceState, previous: SurfaceNode | undefined, node: SurfaceNode): void {
  const next = previous === undefined ? state.head : previous.next
  node.prev = previous
  node.next = next
  if (previous === undefined) state.head = node
  else previous.next = node
  if (next === undefined) state.tail = node
  else next.prev = node
  state.bySeq.set(node.seq, node)
}

export function applySurfacePlan(state: SurfaceState, plan: SurfacePlan): void {
  if (plan.kind === 'none') return
  if (plan.kind === 'append') {
    linkAfter(state, state.tail, { seq: plan.seq, order: state.nextOrder++, prev: undefined, next: undefined })
    return
  }
  const before = plan.start.prev
  const after = plan.end.next
  for (const seq of plan.shadowedSeqs) state.bySeq.delete(seq)
  if (before === undefined) state.head = after
  else before.next = after
  if (after === undefined) state.tail = before
  else after.prev = before
  linkAfter(state, before, { seq: plan.seq, order: plan.start.order, prev: undefined, next: undefined })
  state.generation += 1
  state.replacements.push({ seq: plan.seq, start: plan.start.seq, end: plan.end.seq, shadowedSeqs: plan.shadowedSeqs })
}

export function surfaceNodes(state: SurfaceState): number[] {
  const nodes: number[] = []
  for (let node = state.head; node !== undefined; node = node.next) nodes.push(node.seq)
  return nodes
}

export function isOnSurface(state: SurfaceState, seq: number): boolean {
  return state.bySeq.has(seq)
}

/** Fold a loaded log (the `surface` operation). Events `load` accepted never fail to plan. */
export function foldSurfaceState(events: readonly SessionEvent[]): SurfaceState {
  const state = emptySurface()
  for (const event of events) {
    const planned = planSurfaceEvent(state, event, events)
    if (planned.ok) applySurfacePlan(state, planned.plan)
  }
  return state
}

export function foldSurface(events: readonly SessionEvent[]): SurfaceValue {
  const state = foldSurfaceState(events)
  return { nodes: surfaceNodes(state), replacements: state.replacements, generation: state.generation }
}
