// The pairing counter (REGION-1) of a surface while a log is folded, kept so that REGION-5 can be judged
// at every replace in time that grows with the logarithm of the surface's size. The audit judges each
// replace on the surface just before it; counting the whole surface anew at each one made a
// replace-heavy log cost replaces × nodes (40,000 events took 105 s).
//
// Each current node's counter step sits at the node's order key (reference/surface.ts: an append takes
// the next key, a replacing node the key of the first node it shadows, so key order is surface order)
// in a segment tree whose every node holds its range's sum and its least prefix sum.
import { counterStep, regionVerdict, type RegionValue } from '../../reference/region-balance.ts'
import type { Result } from '../../reference/result.ts'
import type { EventAt, SurfacePlan, SurfaceState } from '../../reference/surface.ts'

export interface CounterTree {
  /** How many order keys the tree holds (a power of two); tree node i has children 2i and 2i + 1. */
  leaves: number
  sum: Float64Array
  /** The least sum of a non-empty prefix of the node's range (an empty key counts 0). */
  least: Float64Array
  /** The seq of the node at each order key, for naming the first orphan. */
  seqAt: number[]
}

type Replace = Extract<SurfacePlan, { kind: 'replace' }>

/**
 * A tree for a log of `events` events: no log makes more order keys than it has events, and one key
 * more gives the cut after the last node a leaf of its own.
 */
export function counterTree(events: number): CounterTree {
  let leaves = 1
  while (leaves < events + 1) leaves *= 2
  return { leaves, sum: new Float64Array(2 * leaves), least: new Float64Array(2 * leaves), seqAt: [] }
}

function setStep(tree: CounterTree, order: number, step: number, seq: number): void {
  tree.seqAt[order] = seq
  let node = tree.leaves + order
  tree.sum[node] = step
  tree.least[node] = step
  for (node >>= 1; node >= 1; node >>= 1) {
    const left = 2 * node
    tree.sum[node] = tree.sum[left]! + tree.sum[left + 1]!
    tree.least[node] = Math.min(tree.least[left]!, tree.sum[left]! + tree.least[left + 1]!)
  }
}

/** The counter at the cut before order key `order`: the sum of the steps at every smaller key. */
function counterBefore(tree: CounterTree, order: number): number {
  let total = 0
  // Walks up from the leaf, adding each left sibling the path leaves behind.
  for (let node = tree.leaves + order; node > 1; node >>= 1) {
    if (node % 2 === 1) total += tree.sum[node - 1]!
  }
  return total
}

/** REGION-2: the seq of the node at which the counter first falls below zero, if it ever does. */
function firstOrphan(tree: CounterTree): number | undefined {
  if (tree.least[1]! >= 0) return undefined
  let node = 1
  let before = 0
  while (node < tree.leaves) {
    const left = 2 * node
    if (before + tree.least[left]! < 0) node = left
    else {
      before += tree.sum[left]!
      node = left + 1
    }
  }
  // An empty key adds nothing, so the key where the counter first drops holds a node.
  return tree.seqAt[node - tree.leaves]
}

/** What regionLegality answers for the replace's region, asked of the log folded so far into `state`. */
export function regionBefore(tree: CounterTree, state: SurfaceState, plan: Replace): Result<RegionValue> {
  const from = state.nodes.get(plan.start)!.order
  const to = state.nodes.get(plan.end)!.order
  const cuts = { before: counterBefore(tree, from) === 0, after: counterBefore(tree, to + 1) === 0, orphanSeq: firstOrphan(tree) }
  return regionVerdict(cuts, plan.start, plan.end, plan.shadowedSeqs)
}

/** Moves the tree as `plan` will move the surface: call it before applySurfacePlan(state, plan). */
export function applyToTree(tree: CounterTree, state: SurfaceState, plan: SurfacePlan, eventAt: EventAt): void {
  if (plan.kind === 'none') return
  if (plan.kind === 'append') {
    setStep(tree, state.nextOrder, counterStep(eventAt(plan.seq)), plan.seq)
    return
  }
  const order = state.nodes.get(plan.start)!.order
  for (const seq of plan.shadowedSeqs) setStep(tree, state.nodes.get(seq)!.order, 0, seq)
  setStep(tree, order, counterStep(eventAt(plan.seq)), plan.seq)
}
