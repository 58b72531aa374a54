// Shrinks a disagreeing run to a small one that still disagrees in the same way (same operation, same
// reference outcome, same departure of the adapter). Delta debugging over the log's events: remove
// chunks, halving their size until single events, each cut renumbering the rest (log-cuts.ts); then
// try simpler headers, short texts and the builder's clock. Deterministic, and bounded by a number of checks.
import type { DrawnRun } from './draw.ts'
import { simplerHeaders, withBuilderClock, withoutEvents, withShortTexts } from './log-cuts.ts'

export type StillDisagrees = (run: DrawnRun) => Promise<boolean>

export interface ShrinkLimits {
  /** The most candidate runs checked. */
  maxChecks: number
  /** Stops early (keeping the smallest run found so far) once this says so. */
  outOfTime: () => boolean
}

export interface Shrunk {
  run: DrawnRun
  checks: number
}

function positionsFrom(start: number, count: number): Set<number> {
  return new Set(Array.from({ length: count }, (_, offset) => start + offset))
}

export async function shrinkRun(start: DrawnRun, stillDisagrees: StillDisagrees, limits: ShrinkLimits): Promise<Shrunk> {
  let run = start
  let checks = 0
  const exhausted = (): boolean => checks >= limits.maxChecks || limits.outOfTime()
  const attempt = async (candidate: DrawnRun): Promise<boolean> => {
    checks += 1
    if (!(await stillDisagrees(candidate))) return false
    run = candidate
    return true
  }

  // ddmin over contiguous chunks, from the end of the log backwards so that tails go first.
  let chunk = Math.max(1, Math.ceil(run.events.length / 2))
  while (run.events.length > 0 && !exhausted()) {
    let removed = false
    for (let end = run.events.length; end > 0 && !exhausted(); end -= chunk) {
      const from = Math.max(0, end - chunk)
      if (await attempt({ ...withoutEvents(run, positionsFrom(from, end - from)), plan: run.plan })) {
        removed = true
        break
      }
    }
    if (removed) chunk = Math.min(chunk, Math.max(1, Math.ceil(run.events.length / 2)))
    else if (chunk === 1) break
    else chunk = Math.ceil(chunk / 2)
  }

  for (const header of simplerHeaders(run.header)) {
    if (exhausted()) break
    const { header: _header, ...rest } = run
    if (await attempt(header === undefined ? rest : { ...rest, header })) break
  }
  if (!exhausted()) await attempt({ ...withShortTexts(run), plan: run.plan })
  if (!exhausted()) await attempt({ ...withBuilderClock(run), plan: run.plan })
  return { run, checks }
}
