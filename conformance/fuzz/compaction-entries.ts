// The compactionState probe's two edits, each drawn from a seed of the run's plan, as the headerEquals
// pairs are (header-pairs.ts), so the fuzzer's other draws stay as they were and a shrunk log draws
// alike:
// - a plan that asks about no entry passes `entry` as undefined one time in two, which counts as absent
//   (PROC-10): the operation must run no entry check and give no owner;
// - a plan that asks about an entry, over a valid log in current shapes, one time in four cuts the log
//   inside a turn (after its turn/start, before its turn/end) and ends it with a session/end-seed, as a
//   seed that ends mid-turn does (SEED-7). The marker closes no turn, so the turn is still open for
//   COMP-15. The generator's crashes close the turn before their marker, so no other probe meets it.
//   One such log in four ends instead with a look-alike, an ignorable `session/end-seed/v2`: an unknown
//   type (types compare exactly), which neither frees the lock nor stales a bracket (COMP-14, UNK-4).
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser } from '../generators/index.ts'
import { typeOf } from './record-edits.ts'

/** Salt the plan's seed, so that these draws are none of the other edits' nor the batch cuts'. */
const ENTRY_UNDEFINED_SALT = 0x454e5452
const END_SEED_SALT = 0x45534454

/** How such probes leave the inputs of the other probes: classes of their own (compare.ts). */
export const ENTRY_UNDEFINED_VARIANT = 'entry undefined'
export const END_SEED_IN_TURN_VARIANT = 'an end-seed inside an open turn'


/** Whether a plan without an entry passes it as undefined. */
export function passesEntryUndefined(planSeed: number): boolean {
  return saltedChooser(planSeed, ENTRY_UNDEFINED_SALT).int(2) === 0
}

/**
 * The log cut inside one of its turns, at least its turn/start kept and its turn/end not, then a
 * session/end-seed (or, one time in four, its ignorable look-alike) at the next seq and the last kept
 * time; undefined when the draw keeps the log or it holds no turn/start. Whether and where to cut is
 * drawn before any look at the log.
 */
export function withEndSeedInOpenTurn(events: readonly unknown[], planSeed: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, END_SEED_SALT)
  if (chooser.int(4) !== 0) return undefined
  const [pick, cut, lookalike] = [chooser.int(1 << 30), chooser.int(1 << 30), chooser.int(4) === 0]
  const starts = events.flatMap((event, index) => (typeOf(event) === 'turn/start' ? [index] : []))
  if (starts.length === 0) return undefined
  const start = starts[pick % starts.length]!
  const end = events.findIndex((event, index) => index > start && (typeOf(event) === 'turn/end' || typeOf(event) === 'turn/start'))
  const kept = events.slice(0, start + 1 + (cut % ((end < 0 ? events.length : end) - start)))
  const last = kept.at(-1)
  const time = isRecord(last) ? last['time'] : undefined
  const marker = lookalike ? { type: 'session/end-seed/v2', ignorable: true } : { type: 'session/end-seed' }
  return [...kept, { ...marker, seq: kept.length, time, data: {} }]
}
