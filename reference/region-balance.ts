/**
 * Chapter 14: region balance. The pairing counter adds the tool-call blocks of each assistant node
 * and subtracts one per tool/result node, over the current surface; a cut is balanced where it is 0.
 */
import { accept, reject, type Result } from './result.ts'
import { isNonNegativeSafeInteger, isRecord } from './lossless-json.ts'
import { foldSurface, type EventAt } from './surface.ts'
import type { SessionEvent } from './envelope.ts'

/** REGION-1: how one node moves the counter. */
export function counterStep(event: SessionEvent | undefined): number {
  // Stryker disable next-line OptionalChaining: every surface node is an event of the loaded log
  if (event?.type === 'tool/result') return -1
  // Stryker disable next-line OptionalChaining: every surface node is an event of the loaded log
  if (event?.type !== 'assistant/message' || !isRecord(event.data)) return 0
  const message = event.data['message']
  const content = isRecord(message) ? message['content'] : undefined
  return Array.isArray(content) ? content.filter(block => isRecord(block) && block['type'] === 'tool-call').length : 0
}

interface Cuts {
  nodes: readonly number[]
  positionOf: Map<number, number>
  /** balanced[i]: the cut before node i (balanced[nodes.length] is the cut after the last node). */
  balanced: boolean[]
  /** REGION-2: the node at which the counter first fell below zero, if it ever did. */
  orphanSeq: number | undefined
}

function cutsOf(nodes: readonly number[], eventAt: EventAt): Cuts {
  const positionOf = new Map(nodes.map((seq, position) => [seq, position]))
  const balanced = [true]
  let counter = 0
  let orphanSeq: number | undefined
  for (const seq of nodes) {
    counter += counterStep(eventAt(seq))
    if (counter < 0 && orphanSeq === undefined) orphanSeq = seq
    balanced.push(counter === 0)
  }
  return { nodes, positionOf, balanced, orphanSeq }
}

/** REGION-4: the position of a node asked for; only a usable seq can name one, and `-0` is not 0. */
function positionOfNode(cuts: Cuts, seq: unknown): number | undefined {
  return isNonNegativeSafeInteger(seq) ? cuts.positionOf.get(seq) : undefined
}

function notOnSurface(seq: unknown): Result<never> {
  // REGION-4: the seq asked for is carried when it is usable (PROC-1), even one no event has; otherwise none.
  const position = isNonNegativeSafeInteger(seq) ? { seq } : {}
  return reject('REGION_NOT_ON_SURFACE', `${String(seq)} is not a current surface node`, position)
}

function orphan(orphanSeq: number): Result<never> {
  return reject('REGION_ORPHAN_RESULT', 'a tool/result on the surface has no call before it', { seq: orphanSeq })
}

export interface NodeBalance {
  before: boolean
  after: boolean
}

/** REGION-4: the balance of the cuts just before and just after one node. */
export function nodeBalance(events: readonly SessionEvent[], seq: unknown): Result<NodeBalance> {
  const cuts = cutsOf(foldSurface(events).nodes, at => events[at])
  const position = positionOfNode(cuts, seq)
  if (position === undefined) return notOnSurface(seq)
  if (cuts.orphanSeq !== undefined) return orphan(cuts.orphanSeq)
  return accept({ before: cuts.balanced[position] as boolean, after: cuts.balanced[position + 1] as boolean })
}

export interface RegionValue {
  shadowedRange: { start: number; end: number }
  shadowedSeqs: number[]
}

/** REGION-5: whether [start, end] is a legal compaction region of the log's surface, and its nodes. */
export function regionLegality(events: readonly SessionEvent[], start: unknown, end: unknown): Result<RegionValue> {
  const cuts = cutsOf(foldSurface(events).nodes, seq => events[seq])
  const from = positionOfNode(cuts, start)
  if (from === undefined) return notOnSurface(start)
  const to = positionOfNode(cuts, end)
  if (to === undefined) return notOnSurface(end)
  if (from > to) return reject('REGION_REVERSED', `region start ${String(start)} sits after its end ${String(end)}`)
  const balance = { before: cuts.balanced[from] as boolean, after: cuts.balanced[to + 1] as boolean, orphanSeq: cuts.orphanSeq }
  return regionVerdict(balance, start as number, end as number, cuts.nodes.slice(from, to + 1))
}

/** What REGION-5 reads of a surface for a region whose ends are nodes on it in order. */
export interface RegionCuts extends NodeBalance {
  /** REGION-2: the node at which the counter first fell below zero, if it ever did. */
  orphanSeq: number | undefined
}

/**
 * REGION-5 for the region from node `start` to node `end` (in order on the surface), given the balance
 * of the cuts around it: shared by regionLegality and readers that keep the counter another way (the
 * audit keeps it beside one fold of the log).
 */
export function regionVerdict(cuts: RegionCuts, start: number, end: number, shadowedSeqs: number[]): Result<RegionValue> {
  if (cuts.orphanSeq !== undefined) return orphan(cuts.orphanSeq)
  if (!cuts.before) return reject('REGION_UNBALANCED', 'the cut before the region start splits a call from its result', { seq: start })
  if (!cuts.after) return reject('REGION_UNBALANCED', 'the cut after the region end splits a call from its result', { seq: end })
  return accept({ shadowedRange: { start, end }, shadowedSeqs })
}
