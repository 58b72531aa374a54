// The fork probe, one time in sixteen, with the boundary -0: a value JSON.stringify writes as 0 (a
// subprocess adapter receives it tagged), which FORK-2 rejects as no non-negative safe integer while a
// safe-integer test that lets -0 through forks at 0; one time in sixteen with a boolean boundary, which
// FORK-2 rejects too, and a language whose booleans are integers takes for 0 or 1; and one time in
// sixteen with a boundary that is no number though a careless test takes it for one: NaN, which passes
// range tests (`b < 0` and `b >= length` are both false), an infinity, the bigint 0n or the array [0],
// both of which `Number(b)` makes a seq; and, one time in sixteen each, a number that is no seq of the
// log and no boundary at all (boundaryOffLog). Over a log load accepts, the reference's answer does not
// depend on the log (over a broken one it is the log's fault), so a few such probes suffice, and the
// others keep the boundaries the plan draws. Drawn from a seed of the run's plan, as the headerEquals
// pairs are (header-pairs.ts), so the fuzzer's other draws stay as they were; the disagreements of each
// are a class of their own (compare.ts).
import { saltedChooser } from '../generators/index.ts'

/** The variants of the fork probes whose boundary is -0, a boolean, and no number (Probe.variant). */
export const NEGATIVE_ZERO_BOUNDARY_VARIANT = 'boundary -0'
export const BOOLEAN_BOUNDARY_VARIANT = 'boundary boolean'
export const NON_NUMBER_BOUNDARY_VARIANT = 'boundary no number'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const BOUNDARY_SALT = 0x464b5a30

/** Whether the run's fork probe takes -0 for its boundary. */
export function forkAtNegativeZero(planSeed: number): boolean {
  return saltedChooser(planSeed, BOUNDARY_SALT).int(16) === 0
}

/** The boolean boundary of the run's fork probe, when it takes one (never when it takes -0). */
export function booleanBoundary(planSeed: number): boolean | undefined {
  const chooser = saltedChooser(planSeed, BOUNDARY_SALT)
  return chooser.int(16) === 1 ? chooser.int(2) === 0 : undefined
}

/** A fork probe's members with the boundary -0, and its variant. */
export function atNegativeZeroBoundary<P extends { extra: Record<string, unknown> }>(probe: P): P & { variant: typeof NEGATIVE_ZERO_BOUNDARY_VARIANT } {
  return { ...probe, extra: { ...probe.extra, boundary: -0 }, variant: NEGATIVE_ZERO_BOUNDARY_VARIANT }
}

/**
 * Boundaries that are no number, though a careless test takes each for one. Made anew for each probe:
 * an in-process adapter that changed the array it was handed would otherwise change later probes too.
 */
function nonNumberBoundaries(): unknown[] {
  return [Number.NaN, Number.POSITIVE_INFINITY, 0n, [0]]
}

/** The boundary of the run's fork probe that is no number, when it takes one (never beside -0 or a boolean). */
export function nonNumberBoundary(planSeed: number): unknown {
  const chooser = saltedChooser(planSeed, BOUNDARY_SALT)
  const boundaries = nonNumberBoundaries()
  return chooser.int(16) === 2 ? boundaries[chooser.int(boundaries.length)] : undefined
}

/** The draw of boundaryOffLog that leaves the boundary out: FORK-1 then forks at the last seq. */
export const OMITTED_BOUNDARY = Symbol('omitted boundary')

/**
 * One fork in sixteen is made at a number that is no seq of the log, the draws above aside: the count of
 * its events (one past the last seq, the off-by-one of a `boundary > length` test), one more, -1, 0.5 or
 * 2^53 (FORK-2: checks 2 and 1, FORK_INVALID_BOUNDARY); and one more in sixteen with no boundary at
 * all, which FORK-1 takes as the last seq (a port that defaults to 0, or refuses the absent member,
 * met no probe before: the plan's boundaries are all seqs of the log). These are ordinary inputs a
 * caller gives, JSON numbers or an absent member, so their disagreements are no class of their own.
 */
export function boundaryOffLog(planSeed: number, eventCount: number): number | typeof OMITTED_BOUNDARY | undefined {
  const chooser = saltedChooser(planSeed, BOUNDARY_SALT)
  const draw = chooser.int(16)
  if (draw === 4) return OMITTED_BOUNDARY
  if (draw !== 3) return undefined
  const numbers = [eventCount, eventCount + 1, -1, 0.5, 2 ** 53]
  return numbers[chooser.int(numbers.length)]
}
