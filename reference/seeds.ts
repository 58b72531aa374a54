/**
 * Chapter 11: seeds and `session/end-seed`. A session built from a seed marks where the seed ends,
 * unless the seed already ends with a marker.
 */
import type { SessionEvent } from './envelope.ts'

export function endSeedMarker(seq: number, time: number): SessionEvent {
  return { type: 'session/end-seed', seq, time, data: {} }
}

/** SEED-3, SEED-4: the log a session built from `seed` starts with. */
export function withEndSeed(seed: readonly SessionEvent[], now: number): SessionEvent[] {
  if (seed.at(-1)?.type === 'session/end-seed') return [...seed]
  return [...seed, endSeedMarker(seed.length, now)]
}
