/**
 * Chapter 05: surface operations. The surface is the ordered list of seqs the model sees; an
 * `append` pushes the event's seq, a `replace` swaps the positional range start..end for the event.
 *
 * Cost. The surface is a doubly linked list whose links live in arrays indexed by seq (seqs are
 * dense, so no hash map is needed): `prev[seq]`, `next[seq]`, and `order[seq]`, which is -1 when the
 * seq is not a node, so membership is one array read. Order keys strictly increase along the list:
 * an appended node takes the next counter value, and a replacing node takes the key of the `start`
 * node it replaces. That node's left neighbour has a smaller key and its right neighbour (after
 * `end`) a larger one, so the order holds forever without relabelling, and "start sits after end"
 * is one comparison of keys. A valid replace then walks from start to end, which visits exactly the
 * shadowed nodes; each node is shadowed at most once, so a whole fold costs
 * O(events + shadowed nodes + cited sources).
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

/** No node: the end of the list, or "not on the surface" in `order`. */
const NONE = -1

export interface SurfaceState {
  /** The first seq of the folded window (0 for a whole log, SURF-3); slot i holds seq base + i. */
  base: number
  head: number
  tail: number
  /** The neighbours (seqs) of each node (NONE at the ends), by slot. */
  prev: number[]
  next: number[]
  /** The order key of each node, or NONE when the seq is not a current node, by slot. */
  order: number[]
  nextOrder: number
  generation: number
  replacements: Replacement[]
}

/** A checked transition that has not touched the state yet (so a rejection changes nothing). */
export type SurfacePlan =
  | { kind: 'none' }
  | { kind: 'append'; seq: number }
  | { kind: 'replace'; seq: number; start: number; end: number; shadowedSeqs: number[] }

export type Planned = { ok: true; plan: SurfacePlan } | { ok: false; fault: Fault }

export function emptySurface(base = 0): SurfaceState {
  return {
    base, head: NONE, tail: NONE,
    // Stryker disable next-line ArrayDeclaration: link writes a node's own prev and next slots before anything reads them, and only nodes' slots are read
    prev: [], next: [],
    order: [], nextOrder: 0, generation: 0, replacements: [],
  }
}

function slot(state: SurfaceState, seq: number): number {
  return seq - state.base
}

export function isOnSurface(state: SurfaceState, seq: number): boolean {
  return (state.order[slot(state, seq)] ?? NONE) !== NONE
}

function isReplaceOp(value: object): value is ReplaceSurfaceOp {
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
  // Stryker disable next-line StringLiteral: only start and end of a parsed replace are read afterwards
  return { ok: true, op: { op: 'replace', start: op.start, end: op.end } }
}

/** The seqs from `start` to `end` along the list. The caller has checked start is not after end. */
function spanSeqs(state: SurfaceState, start: number, end: number): number[] {
  const seqs = [start]
  for (let seq = start; seq !== end; seq = state.next[slot(state, seq)] as number) seqs.push(state.next[slot(state, seq)] as number)
  return seqs
}

function planReplace(
  state: SurfaceState,
  event: SessionEvent,
  op: ReplaceSurfaceOp,
  events: readonly SessionEvent[],
): Planned {
  const { start, end } = op
  if (!isOnSurface(state, start)) return { ok: false, fault: fault('SURFACE_REPLACE_START_NOT_FOUND', `replace start ${start} is not on the surface`) }
  if (!isOnSurface(state, end)) return { ok: false, fault: fault('SURFACE_REPLACE_END_NOT_FOUND', `replace end ${end} is not on the surface`) }
  if ((state.order[slot(state, start)] as number) > (state.order[slot(state, end)] as number)) {
    return { ok: false, fault: fault('SURFACE_REPLACE_REVERSED', `replace start ${start} sits after end ${end} on the surface`) }
  }
  const shadowedSeqs = spanSeqs(state, start, end)
  const found = provenanceFault(event, shadowedSeqs) ?? rewriteFault(event, shadowedSeqs, seq => events[slot(state, seq)])
  if (found !== undefined) return { ok: false, fault: found }
  // Stryker disable next-line StringLiteral: applySurfacePlan treats every kind other than none and append as a replace
  return { ok: true, plan: { kind: 'replace', seq: event.seq, start, end, shadowedSeqs } }
}

/**
 * SURF-9 order for one event whose envelope and seq are already checked: eligibility and grammar,
 * then (append) provenance, or (replace) start, end, order, provenance with coverage, rewrite rule.
 * `events` holds at least every event of the window before this one (index = seq - base).
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

/** Grow the arrays so that `seq` has a slot; seqs arrive in order, so this pushes at most a few. */
// Stryker disable next-line BlockStatement: link assigns the slots directly, and unset slots read as NONE through ?? in isOnSurface
function ensureSlot(state: SurfaceState, seq: number): void {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: growing the arrays is an optimisation: unset slots read as NONE either way
  while (state.order.length <= slot(state, seq)) {
    state.prev.push(NONE)
    state.next.push(NONE)
    state.order.push(NONE)
  }
}

/** Link node `seq` between `before` and `after` (either may be NONE). */
function link(state: SurfaceState, seq: number, order: number, before: number, after: number): void {
  ensureSlot(state, seq)
  state.prev[slot(state, seq)] = before
  state.next[slot(state, seq)] = after
  state.order[slot(state, seq)] = order
  if (before === NONE) state.head = seq
  else state.next[slot(state, before)] = seq
  if (after === NONE) state.tail = seq
  else state.prev[slot(state, after)] = seq
}

export function applySurfacePlan(state: SurfaceState, plan: SurfacePlan): void {
  if (plan.kind === 'none') return
  if (plan.kind === 'append') {
    link(state, plan.seq, state.nextOrder++, state.tail, NONE)
    return
  }
  const order = state.order[slot(state, plan.start)] as number
  const before = state.prev[slot(state, plan.start)] as number
  const after = state.next[slot(state, plan.end)] as number
  for (const seq of plan.shadowedSeqs) state.order[slot(state, seq)] = NONE
  link(state, plan.seq, order, before, after)
  state.generation += 1
  state.replacements.push({ seq: plan.seq, start: plan.start, end: plan.end, shadowedSeqs: plan.shadowedSeqs })
}

export function surfaceNodes(state: SurfaceState): number[] {
  const nodes: number[] = []
  for (let seq = state.head; seq !== NONE; seq = state.next[slot(state, seq)] as number) nodes.push(seq)
  return nodes
}

/** Fold a loaded log or window (the `surface` operation). Events `load` accepted never fail to plan. */
export function foldSurfaceState(events: readonly SessionEvent[], base = 0): SurfaceState {
  const state = emptySurface(base)
  for (const event of events) {
    const planned = planSurfaceEvent(state, event, events)
    // Stryker disable next-line ConditionalExpression: the folds run only over logs that load accepted, whose every event plans
    if (planned.ok) applySurfacePlan(state, planned.plan)
  }
  return state
}

export function foldSurface(events: readonly SessionEvent[], base = 0): SurfaceValue {
  const state = foldSurfaceState(events, base)
  return { nodes: surfaceNodes(state), replacements: state.replacements, generation: state.generation }
}
