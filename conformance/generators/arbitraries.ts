// fast-check arbitraries over the log model. A log is drawn as a target size and a list of choices
// that the model reads in order (choices.ts), so fast-check shrinks a failing log by shortening and
// zeroing its choices: the counterexample it reports is a short, plain log.
import fc from 'fast-check'
import { chooserFromInts } from './choices.ts'
import { generateLog, type GeneratedLog } from './log-model.ts'
import { MUTATIONS, applicableMutations } from './mutations.ts'
import type { Mutation, MutationCase } from './mutation-kit.ts'
import type { LogEvent, StorageHeader } from './events.ts'

export interface SizeOptions {
  /** The smallest target size, in events (default 1). */
  minSize?: number
  /** The largest target size, in events (default 100). */
  maxSize?: number
}

/** The model reads about four choices per event; past the list every choice is 0. */
const CHOICES_PER_EVENT = 6

export function choicesArbitrary(maxSize: number): fc.Arbitrary<number[]> {
  return fc.array(fc.nat({ max: 0xffff }), { maxLength: CHOICES_PER_EVENT * maxSize, size: 'max' })
}

/** Valid logs with the model's facts about them (facts: see LogFacts). */
export function generatedLogArbitrary(options: SizeOptions = {}): fc.Arbitrary<GeneratedLog> {
  const minSize = options.minSize ?? 1
  const maxSize = options.maxSize ?? 100
  return fc
    .record({ size: fc.integer({ min: minSize, max: maxSize }), choices: choicesArbitrary(maxSize) })
    .map(({ size, choices }) => generateLog(chooserFromInts(choices), { size }))
}

/** Valid logs as `{header, events}`: what `load` takes. */
export function validLogArbitrary(options: SizeOptions = {}): fc.Arbitrary<{ header: StorageHeader; events: LogEvent[] }> {
  return generatedLogArbitrary(options).map(({ header, events }) => ({ header, events }))
}

/**
 * A mutated log and the verdict it must get. `among` restricts the operators; a log to which none of
 * them applies is skipped (fast-check draws another).
 */
export function mutationCaseArbitrary(options: SizeOptions = {}, among: readonly Mutation[] = MUTATIONS): fc.Arbitrary<MutationCase> {
  return fc
    .record({ log: generatedLogArbitrary(options), pick: fc.nat(), choices: fc.array(fc.nat({ max: 0xffff }), { maxLength: 8 }) })
    .filter(({ log }) => applicableMutations(log, among).length > 0)
    .map(({ log, pick, choices }) => {
      const candidates = applicableMutations(log, among)
      return candidates[pick % candidates.length]!.apply(log, chooserFromInts(choices))
    })
}

/** Cut points that split `length` events into non-empty durable batches (JSONL-8). */
export function batchCutsArbitrary(length: number): fc.Arbitrary<number[]> {
  if (length < 2) return fc.constant([])
  return fc.uniqueArray(fc.integer({ min: 1, max: length - 1 }), { maxLength: Math.min(8, length - 1) }).map(cuts => [...cuts].sort((a, b) => a - b))
}

export function splitIntoBatches<T>(items: readonly T[], cuts: readonly number[]): T[][] {
  const bounds = [0, ...cuts, items.length]
  return bounds.slice(1).map((end, index) => items.slice(bounds[index], end)).filter(batch => batch.length > 0)
}
