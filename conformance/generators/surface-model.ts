// The generators' own small model of the surface (spec chapters 05 and 14): the node list, the
// pairing counter over its cuts, and the legal compaction regions. It is written independently of
// reference/ so that generated logs are not shaped by the implementation they test. Logs here are
// ~100 events, so plain arrays do.
import type { Chooser } from './choices.ts'
import { SURFACE_TYPES, type Json, type JsonObject, type LogEvent } from './events.ts'

export interface SurfaceNode {
  seq: number
  type: string
  /** REGION-1: +calls for an assistant message, -1 for a tool result, 0 otherwise. */
  weight: number
}

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function toolCallCount(data: Json): number {
  const message = isRecord(data) ? data['message'] : undefined
  const content = isRecord(message) ? message['content'] : undefined
  return Array.isArray(content) ? content.filter(block => isRecord(block) && block['type'] === 'tool-call').length : 0
}

export function nodeOf(event: LogEvent): SurfaceNode {
  const weight = event.type === 'assistant/message' ? toolCallCount(event.data) : event.type === 'tool/result' ? -1 : 0
  return { seq: event.seq, type: event.type, weight }
}

/** SURF-6 on a node list: the nodes after `event` (a surface event of a valid log) and what it shadowed. */
export function applySurfaceEvent(nodes: readonly SurfaceNode[], event: LogEvent): { nodes: SurfaceNode[]; shadowed: number[] } {
  if (!SURFACE_TYPES.has(event.type)) return { nodes: [...nodes], shadowed: [] }
  const op = event.surfaceOp
  if (op === 'append' || op === undefined) return { nodes: [...nodes, nodeOf(event)], shadowed: [] }
  const from = nodes.findIndex(node => node.seq === op.start)
  const to = nodes.findIndex(node => node.seq === op.end)
  if (from < 0 || to < from) throw new Error(`replace ${op.start}..${op.end} at seq ${event.seq} does not fit the surface`)
  const shadowed = nodes.slice(from, to + 1).map(node => node.seq)
  return { nodes: [...nodes.slice(0, from), nodeOf(event), ...nodes.slice(to + 1)], shadowed }
}

/** The node list just before each event of a valid log, and after the last one. */
export function surfaceTimeline(events: readonly LogEvent[]): SurfaceNode[][] {
  const timeline: SurfaceNode[][] = [[]]
  for (const event of events) timeline.push(applySurfaceEvent(timeline.at(-1)!, event).nodes)
  return timeline
}

/** REGION-1: the counter at every cut, k[0] .. k[N]. */
export function cutCounters(nodes: readonly SurfaceNode[]): number[] {
  const counters = [0]
  for (const node of nodes) counters.push(counters.at(-1)! + node.weight)
  return counters
}

/** The balanced cuts (k = 0) of an orphan-free surface; none when a counter falls below zero. */
export function balancedCuts(nodes: readonly SurfaceNode[]): number[] {
  const cuts = [0]
  let counter = 0
  for (const [position, node] of nodes.entries()) {
    counter += node.weight
    if (counter < 0) return []
    if (counter === 0) cuts.push(position + 1)
  }
  return cuts
}

export function hasLegalRegion(nodes: readonly SurfaceNode[]): boolean {
  return balancedCuts(nodes).length > 1
}

/** One legal region as [first position, last position], chosen by `chooser`; the surface must have one. */
export function chooseLegalRegion(nodes: readonly SurfaceNode[], chooser: Chooser): [number, number] {
  const cuts = balancedCuts(nodes)
  if (cuts.length < 2) throw new Error('the surface has no legal region')
  const first = chooser.int(cuts.length - 1)
  const after = first + 1 + chooser.int(cuts.length - first - 1)
  return [cuts[first]!, cuts[after]! - 1]
}
