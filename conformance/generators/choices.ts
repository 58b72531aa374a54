// Where the generators get their decisions from. A generator never calls Math.random: it asks a
// Chooser, so the same choices always build the same log. fast-check drives a Chooser from a list of
// integers it can shrink (fewer and smaller choices give simpler logs); the benchmark and the fuzzer
// drive one from a seeded PRNG.

export interface Chooser {
  /** An integer in [0, bound); 0 when bound <= 1. */
  int(bound: number): number
}

/** Reads `ints` in order; once they run out every answer is 0, the "simplest" choice. */
export function chooserFromInts(ints: readonly number[]): Chooser {
  let next = 0
  return {
    int(bound) {
      if (bound <= 1 || next >= ints.length) return 0
      return Math.abs(ints[next++]!) % bound
    },
  }
}

/** A deterministic PRNG (mulberry32) as a Chooser. */
export function seededChooser(seed: number): Chooser {
  let state = seed >>> 0
  return {
    int(bound) {
      if (bound <= 1) return 0
      state = (state + 0x6d2b79f5) >>> 0
      let t = state
      t = Math.imul(t ^ (t >>> 15), t | 1)
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * bound)
    },
  }
}

/**
 * The chooser of one probe edit: the fuzz plan's seed mixed with the edit's own salt, so that the
 * edit's draws are none of another edit's nor those of the batch cuts drawn from the same seed.
 */
export function saltedChooser(planSeed: number, salt: number): Chooser {
  return seededChooser(planSeed ^ salt)
}

export function pick<T>(chooser: Chooser, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick from an empty list')
  return items[chooser.int(items.length)]!
}

/** True with the given percent chance; the choice 0 always answers false. */
export function chance(chooser: Chooser, percent: number): boolean {
  return chooser.int(100) >= 100 - percent
}

/** One of the options, in proportion to its weight; the choice 0 gives the first positive option. */
export function weighted<T>(chooser: Chooser, options: readonly (readonly [T, number])[]): T {
  const live = options.filter(([, weight]) => weight > 0)
  if (live.length === 0) throw new Error('no option has a positive weight')
  let roll = chooser.int(live.reduce((sum, [, weight]) => sum + weight, 0))
  for (const [option, weight] of live) {
    if (roll < weight) return option
    roll -= weight
  }
  return live[0]![0]
}
