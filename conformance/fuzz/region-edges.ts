// The regionBalance probe, one plan in four, asks about a value that is no current surface node in
// place of one of its edges (`seq`, or `start` or `end`): 2^53, -1, 1.5, a string, null, `true` or
// `false` (no number, though a language whose booleans are integers reads them as 1 and 0), a seq past
// the log's end, or an event of the log that is no node (log-only, or shadowed). REGION-4 rejects each with
// REGION_NOT_ON_SURFACE, carrying the value when it is a usable seq and no seq otherwise; the plan's
// own edges name current nodes (but for seq 0 when the surface has none), so a reader that checks an
// edge loosely (a whole number without the safe bound, a string coerced to a seq) met no probe before.
// The kind of value is drawn from a seed of the run's plan before any look at the log, as the
// headerEquals pairs are (header-pairs.ts), so the fuzzer's other draws stay as they were and a shrunk
// log draws alike.
import { saltedChooser } from '../generators/index.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const REGION_EDGE_SALT = 0x52474e45
/** Salts the plan's seed for the reversed region, a draw of its own. */
const REGION_REVERSED_SALT = 0x52455652

/**
 * The region probe's members with `start` and `end` swapped, one plan in four, when they name two
 * different nodes: the start then sits at a later surface position than the end, which REGION-5 rejects
 * with REGION_REVERSED (its third check, after both edges are found on the surface and before the
 * pairing and balance checks), so a reader that never compares the positions, compares the seqs
 * instead, or checks the balance first, meets a probe (unless withEdgeOffSurface then moves an edge off
 * the surface, in a quarter of them). The plan's own regions run forward (probes.ts planRegion), so no
 * probe asked about a reversed one before. Members of the `seq` form are left alone.
 */
export function withEdgesReversed(members: Record<string, unknown>, planSeed: number): Record<string, unknown> {
  if (!('start' in members) || members['start'] === members['end']) return members
  if (saltedChooser(planSeed, REGION_REVERSED_SALT).int(4) !== 0) return members
  return { ...members, start: members['end'], end: members['start'] }
}

/** Values that are no usable seq (PROC-1), so that the rejection carries none. */
const UNUSABLE_EDGES: readonly unknown[] = [2 ** 53, -1, 1.5, '0', null, true, false]

/**
 * The probe's members with one edge replaced by a value that names no current node, or unchanged when
 * the draw keeps them. `nodes` are the surface's nodes, `eventCount` the log's length.
 */
export function withEdgeOffSurface(members: Record<string, unknown>, planSeed: number, eventCount: number, nodes: readonly number[]): Record<string, unknown> {
  const chooser = saltedChooser(planSeed, REGION_EDGE_SALT)
  if (chooser.int(4) !== 0) return members
  const edges = 'seq' in members ? ['seq'] : ['start', 'end']
  // Drawn from two whatever the edges, so that the draws after it do not depend on the plan's form.
  const edge = edges[chooser.int(2) % edges.length]!
  const kind = chooser.int(UNUSABLE_EDGES.length + 2)
  const pick = chooser.int(1 << 30)
  const current = new Set(nodes)
  const noNodes = Array.from({ length: eventCount }, (_, seq) => seq).filter(seq => !current.has(seq))
  const value = kind < UNUSABLE_EDGES.length ? UNUSABLE_EDGES[kind]
    : kind === UNUSABLE_EDGES.length || noNodes.length === 0 ? eventCount + pick % 3
    : noNodes[pick % noNodes.length]
  return { ...members, [edge]: value }
}
