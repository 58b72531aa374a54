// Vocabulary growth, the designed path for new event types (UNK-6): one probe in eight of the operations
// that take a `vocabulary` (load's inputs, PROC-9), over a valid log in current shapes, gets that log
// followed by one event of a type v0-rc8 adds (VOC-16: team/member, team/message/queued,
// team/message/delivered, team/task, each with the payload VOC-16 gives it) and a vocabulary to read it
// with: `v0-rc8` with the event as written (half of them: known, so loaded and kept; for `load`, one
// of those two in other letter case, `V0-RC8`, which names no vocabulary and is refused with no seq,
// PROC-1), none with it marked ignorable (a pinned reader keeps it, UNK-4), or `v0-pinned` named, with
// the event as written for `load` (refused at the event's seq, FORMAT_UNKNOWN_EVENT_TYPE) and marked
// ignorable for the other operations, which are defined only for a log load accepts. No other probe gives a `vocabulary` or a
// team/* type. Drawn from a seed of the run's plan, as the headerEquals pairs are (header-pairs.ts), so
// the fuzzer's other draws stay as they were and a shrunk log draws alike.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser } from '../generators/index.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const VOCABULARY_GROWTH_SALT = 0x564f4341

/** The types v0-rc8 adds to v0-pinned, each with a payload of the shape VOC-16 gives it. */
const TEAM_EVENTS: readonly { type: string; data: Record<string, unknown> }[] = [
  { type: 'team/member', data: { version: 1, teamId: 'team-1', member: { id: 'member-1', name: 'reviewer' } } },
  { type: 'team/message/queued', data: { version: 1, teamId: 'team-1', message: { id: 'team-message-1', text: 'ready' } } },
  { type: 'team/message/delivered', data: { version: 1, teamId: 'team-1', messageId: 'team-message-1', targetId: 'member-1' } },
  { type: 'team/task', data: { version: 1, teamId: 'team-1', task: { id: 'task-1', title: 'review the diff' } } },
]

/** The log and the vocabulary input a probe takes instead of its own. */
export interface VocabularyGrowth {
  events: unknown[]
  /** The `vocabulary` input, absent for the reader's default. */
  vocabulary?: string
}

/**
 * The log followed by a team/* event and the vocabulary to read it with, or undefined when the draw
 * keeps the probe or the log is empty (an empty surface window has no last event to follow). `load`
 * says whether the probe is load's, the one operation defined for a log it refuses. Whether and what to
 * append is drawn before any look at the log.
 */
export function withVocabularyGrowth(events: readonly unknown[], planSeed: number, load: boolean): VocabularyGrowth | undefined {
  const chooser = saltedChooser(planSeed, VOCABULARY_GROWTH_SALT)
  if (chooser.int(8) !== 0) return undefined
  const [kind, which] = [chooser.int(4), chooser.int(TEAM_EVENTS.length)]
  const last = events.at(-1)
  if (!isRecord(last) || typeof last['seq'] !== 'number') return undefined
  const ignorable = kind === 2 || (kind === 3 && !load)
  const event = { ...TEAM_EVENTS[which]!, seq: last['seq'] + 1, time: last['time'], ...(ignorable ? { ignorable: true } : {}) }
  const vocabulary = kind === 2 ? undefined : kind === 3 ? 'v0-pinned' : kind === 1 && load ? 'V0-RC8' : 'v0-rc8'
  return { events: [...events, event], ...(vocabulary === undefined ? {} : { vocabulary }) }
}
