// The compactionState and regionBalance probes, one plan in four (and the relations and load probes,
// one in four of the plans their own edits leave), over a valid log in current shapes whose events of one drawn known
// type are all marked ignorable: a compaction bracket's start, summary or end, a session/end-seed, an
// assistant/message or a tool/result. A known type marked ignorable is read as any other (UNK-4; SEED-4
// for the marker), so each answer is the unedited log's; a port that skips every ignorable event, as it
// may skip an unknown one, loses a bracket, a marker, a call or a result. The generators mark only
// unknown types ignorable, so before, no probe could tell. Drawn from a seed of the run's plan, as the
// headerEquals pairs are (header-pairs.ts), so the fuzzer's other draws stay as they were and a shrunk
// log draws alike.
import { saltedChooser } from '../generators/index.ts'
import { typeOf } from './record-edits.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const IGNORABLE_KNOWN_SALT = 0x49474b4e

const MARKED_TYPES = ['compaction/start', 'compaction/summary', 'compaction/end', 'session/end-seed', 'assistant/message', 'tool/result']

/**
 * The log with every event of the drawn type marked ignorable, or undefined when the draw keeps it or
 * the log holds no such event. Whether and which type are drawn before any look at the log.
 */
export function withKnownTypeMarkedIgnorable(events: readonly unknown[], planSeed: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, IGNORABLE_KNOWN_SALT)
  if (chooser.int(4) !== 0) return undefined
  const type = MARKED_TYPES[chooser.int(MARKED_TYPES.length)]
  if (!events.some(event => typeOf(event) === type)) return undefined
  return events.map(event => (typeOf(event) === type ? { ...(event as Record<string, unknown>), ignorable: true } : event))
}
