// The repair and resume probes, one plan in four, over a valid log in current shapes: the log is cut
// inside a turn, as a crash cuts it, after one of its assistant messages (before the next event that
// empties repair's map), and that message gets at least two tool-call blocks whose ids no synthetic
// result can carry ("", a number, an object, no id): some of its calls lose their ids, and a message
// with fewer than two calls gains such blocks. load does not look at blocks (VOC-12), so the log still
// loads; its results and tool/call events name the old ids, so the edited calls stay registered to the
// end of the scan, and REPAIR-13 rejects the log at the seq of the first of their synthetic results.
// One such log in three goes on past the message's turn instead and is cut inside a later turn, its
// step/end events between the two replaced by an ignorable foreign event: the turn boundary alone
// forgets the calls (REPAIR-4), so repair closes the log as any other. Generated logs hold string ids
// alone (the model's facts are of logs repair can close), so no probe met REPAIR-13 before, let alone
// with two such calls. Drawn from a seed of the run's plan, as the headerEquals pairs are
// (header-pairs.ts), so the fuzzer's other draws stay as they were and a shrunk log draws alike.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser, type Chooser } from '../generators/index.ts'
import { typeOf } from './record-edits.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const UNCLOSEABLE_SALT = 0x434c4f53

/** How such a probe leaves the shapes producers write: a class of its own (compare.ts). */
export const UNCLOSEABLE_CALL_ID_VARIANT = 'call ids no closer can carry'

/**
 * Ids that fail VOC-11 as a result's `source.callId`, one of each kind, so that no two of them are the
 * same call under any reading (REPAIR-13 leaves open when two ids that are no strings match).
 */
const UNCLOSEABLE_IDS: readonly { id?: unknown }[] = [{ id: '' }, { id: 7 }, { id: { call: 7 } }, {}]

/** The events that empty repair's map (REPAIR-4). */
const EMPTIES_MAP = new Set(['turn/start', 'turn/end', 'step/end'])


/** Whether the last turn event of `events` is a turn/start: a turn is open at the end (REPAIR-2). */
export function endsInOpenTurn(events: readonly unknown[]): boolean {
  const lastTurnEvent = events.findLastIndex(event => typeOf(event) === 'turn/start' || typeOf(event) === 'turn/end')
  return lastTurnEvent >= 0 && typeOf(events[lastTurnEvent]) === 'turn/start'
}

/** The index of the first event after `index` that empties the map, or the log's length. */
function nextMapEnd(events: readonly unknown[], index: number): number {
  const next = events.findIndex((event, at) => at > index && EMPTIES_MAP.has(typeOf(event) as string))
  return next < 0 ? events.length : next
}

/** The order of `count` indexes after a Fisher-Yates shuffle by `chooser`. */
function shuffled(count: number, chooser: Chooser): number[] {
  const order = Array.from({ length: count }, (_, index) => index)
  for (let at = count - 1; at > 0; at--) {
    const other = chooser.int(at + 1)
    ;[order[at], order[other]] = [order[other]!, order[at]!]
  }
  return order
}

/**
 * The content with some tool-call blocks (two at least, four at most) given ids no closer can carry. A
 * block added to make two is always among them: there are then exactly two.
 */
function withUncloseableIds(content: readonly unknown[], chooser: Chooser): unknown[] {
  const blocks = [...content]
  const calls = (): number[] => blocks.flatMap((block, index) => (isRecord(block) && block['type'] === 'tool-call' ? [index] : []))
  while (calls().length < 2) blocks.push({ type: 'tool-call', id: 'placeholder', name: 'tool', arguments: '{}' })
  const present = calls()
  const edited = 2 + chooser.int(Math.min(UNCLOSEABLE_IDS.length, present.length) - 1)
  const kinds = shuffled(UNCLOSEABLE_IDS.length, chooser)
  shuffled(present.length, chooser).slice(0, edited).forEach((which, nth) => {
    const { id: _id, ...rest } = blocks[present[which]!] as Record<string, unknown>
    blocks[present[which]!] = { ...rest, ...UNCLOSEABLE_IDS[kinds[nth]!] }
  })
  return blocks
}

/**
 * The log cut inside a turn, as a crash cuts it, after one of its assistant messages (at the message or
 * later, but before the next event that empties repair's map), the message given calls no closer can
 * carry; undefined when the draw keeps the log or it holds no assistant message. Whether and where to
 * cut is drawn before any look at the log.
 */
export function withUncloseableCalls(events: readonly unknown[], planSeed: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, UNCLOSEABLE_SALT)
  if (chooser.int(4) !== 0) return undefined
  const [pick, cut] = [chooser.int(1 << 30), chooser.int(1 << 30)]
  const messages = events.flatMap((event, index) => (typeOf(event) === 'assistant/message' ? [index] : []))
  if (messages.length === 0) return undefined
  const index = messages[pick % messages.length]!
  const kept = events.slice(0, index + 1 + (cut % (nextMapEnd(events, index) - index)))
  const event = kept[index] as Record<string, unknown>
  const data = event['data']
  const message = isRecord(data) ? data['message'] : undefined
  // A shrunk log may hold a message outside any turn, or one without content.
  if (!endsInOpenTurn(kept) || !isRecord(data) || !isRecord(message) || !Array.isArray(message['content'])) return undefined
  const content = withUncloseableIds(message['content'], chooser)
  kept[index] = { ...event, data: { ...data, message: { ...message, content } } }
  if (chooser.int(3) !== 0) return kept
  return cutInLaterTurn([...kept, ...events.slice(kept.length)], index, cut) ?? kept
}

/**
 * The log cut inside a turn that starts after the one of the event at `index` (the `cut`-th modulo the
 * places where one is open), each step/end between the two replaced by an ignorable foreign event, so
 * that only the turn boundary forgets the calls; undefined when no later turn starts.
 */
function cutInLaterTurn(events: readonly unknown[], index: number, cut: number): unknown[] | undefined {
  const nextTurn = events.findIndex((event, at) => at > index && typeOf(event) === 'turn/start')
  if (nextTurn < 0) return undefined
  const ends = Array.from({ length: events.length - nextTurn }, (_, offset) => nextTurn + 1 + offset)
    .filter(end => endsInOpenTurn(events.slice(0, end)))
  return events.slice(0, ends[cut % ends.length]!)
    .map((event, at) => (at > index && at < nextTurn && typeOf(event) === 'step/end' ? foreignInPlaceOf(event) : event))
}

/** A foreign event marked ignorable, at `event`'s seq and time (UNK-4: the scan passes over it). */
function foreignInPlaceOf(event: unknown): Record<string, unknown> {
  const { seq, time } = event as Record<string, unknown>
  return { type: 'acme/telemetry', seq, time, data: { note: 'in place of a step/end' }, ignorable: true }
}
