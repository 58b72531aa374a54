// Shared settings and helpers of the property tests. Every property runs with a fixed seed so that a
// run is reproducible; FC_SEED picks another seed and FC_RUNS_SCALE multiplies the run counts, for
// longer exploratory runs outside `npm test`.
import type fc from 'fast-check'
import { expect } from 'vitest'
import { reference } from '../../reference/index.ts'
import type { LogEvent } from '../../conformance/generators/index.ts'

export const SEED = Number(process.env['FC_SEED'] ?? 20_260_729)
const SCALE = Number(process.env['FC_RUNS_SCALE'] ?? 1)

export function runs(numRuns: number): fc.Parameters<unknown> {
  return { seed: SEED, numRuns: Math.max(1, Math.round(numRuns * SCALE)) }
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: { code: string; seq?: number; message?: string } }

/** The value of an accepted result; a rejection fails the property with its error. */
export function accepted<T>(result: Outcome<T>, what: string): T {
  if (!result.ok) throw new Error(`${what} rejected: ${JSON.stringify(result.error)}`)
  return result.value
}

export interface Log {
  header?: unknown
  events: readonly unknown[]
}

export interface SurfaceValue {
  nodes: number[]
  replacements: { seq: number; start: number; end: number; shadowedSeqs: number[] }[]
  generation: number
}

export const surfaceOf = (log: Log): SurfaceValue => accepted(reference.surface({ ...log }), 'surface') as SurfaceValue
export const messagesOf = (log: Log): unknown[] => accepted(reference.messages({ ...log }), 'messages')
export const violationsOf = (log: Log): { code: string; seq: number }[] => accepted(reference.relations({ ...log }), 'relations').violations
export const closersOf = (log: Log): LogEvent[] => accepted(reference.repair({ ...log }), 'repair').closers as LogEvent[]

/** The log keeps every relation (PROC-7: no violation listed). */
export function expectNoViolations(log: Log): void {
  expect(violationsOf(log)).toEqual([])
}
