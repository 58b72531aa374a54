// What one fuzz run works on, drawn from the run's own seed: a log built by the generator library's
// model of a writer, either valid or broken by one of its mutation operators, and a plan that fixes
// every further choice (fork boundary, region, batch cuts, storage damage). A run depends only on the
// fuzz seed and its index, so `--runs 50` replays the first fifty runs of `--runs 5000`.
import { generateLog, mutate, seededChooser, type Chooser } from '../generators/index.ts'

export type StorageDamage = 'none' | 'tear' | 'garbage'

/** Choices that do not depend on the log's length: positions are fractions in thousandths. */
export interface RunPlan {
  /** Where in the log a fork cuts and which surface node regionBalance looks at. */
  boundary: number
  node: number
  /** regionBalance around one node, or over a region ending `regionWidth` thousandths later. */
  regionWidth: number | undefined
  /** surface over a window that starts this many thousandths into the log, if any (SURF-3). */
  window: number | undefined
  /** The request folds asked for the header in force at this point of the log, if any. */
  atSeq: number | undefined
  /** The compaction entry compactionState is asked about, if any. */
  entry: 'automatic' | 'manual' | undefined
  /** Seeds the batch cuts of the JSONL encoding. */
  batchSeed: number
  damage: StorageDamage
  damageAt: number
}

export interface FuzzRun {
  index: number
  /** The operator that broke the log, for mutated runs. */
  mutation?: string
  header?: unknown
  events: unknown[]
  /** An append operator's broken candidate, appended onto `events`. */
  candidate?: unknown
  candidateTime?: number
}

export interface DrawnRun extends FuzzRun {
  plan: RunPlan
}

/** A 32-bit hash of the fuzz seed and a run index (a murmur3-style finalizer), so neighbouring runs are unrelated. */
export function runSeed(seed: number, index: number): number {
  let state = (Math.imul(seed >>> 0, 0x9e3779b9) + Math.imul(index + 1, 0x85ebca6b)) >>> 0
  state = Math.imul(state ^ (state >>> 16), 0x21f0aaad) >>> 0
  state = Math.imul(state ^ (state >>> 15), 0x735a2d97) >>> 0
  return (state ^ (state >>> 15)) >>> 0
}

/** Percent of runs that keep the generated log valid; the others are mutated when an operator applies. */
const VALID_PERCENT = 35

function drawPlan(chooser: Chooser): RunPlan {
  const damage = (['none', 'none', 'tear', 'garbage'] as const)[chooser.int(4)]!
  return {
    boundary: chooser.int(1000),
    node: chooser.int(1000),
    regionWidth: chooser.int(2) === 0 ? undefined : chooser.int(1000),
    window: chooser.int(4) === 0 ? chooser.int(1000) : undefined,
    atSeq: chooser.int(2) === 0 ? chooser.int(1000) : undefined,
    entry: ([undefined, 'automatic', 'manual'] as const)[chooser.int(3)],
    batchSeed: chooser.int(0x7fffffff),
    damage,
    damageAt: chooser.int(1000),
  }
}

export function drawRun(seed: number, index: number, maxEvents: number): DrawnRun {
  const chooser = seededChooser(runSeed(seed, index))
  const log = generateLog(chooser, { size: 1 + chooser.int(maxEvents) })
  const keepValid = chooser.int(100) < VALID_PERCENT
  const plan = drawPlan(chooser)
  const base = { index, plan }
  const mutated = keepValid ? undefined : mutate(log, chooser)
  if (mutated === undefined) return { ...base, header: log.header, events: log.events }
  const run: DrawnRun = { ...base, mutation: mutated.mutation, header: mutated.header, events: mutated.events }
  if (mutated.operation === 'append') {
    run.candidate = mutated.candidate
    run.candidateTime = lastTime(mutated.events) ?? log.header.createdAt
  }
  return run
}

function lastTime(events: readonly unknown[]): number | undefined {
  const last = events.at(-1)
  const time = typeof last === 'object' && last !== null ? (last as Record<string, unknown>)['time'] : undefined
  return typeof time === 'number' ? time : undefined
}
